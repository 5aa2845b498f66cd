int main(void) { return syntax error; }
