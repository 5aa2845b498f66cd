module bot

go 1.19
