// starter-cpp: a Mandala Arena bot in C++17, standard library only.
//
// Copy this folder, rename the bot in bot.toml, and change choose_move() below.
// The arena builds it with `c++ -O2 -std=c++17 -o bot bot.cpp` and runs ./bot here.
// The protocol is in bots/README.md. In short:
//   - the referee writes one JSON object per line to our stdin;
//   - we answer each "decide" with one JSON line on stdout, flushed (std::endl flushes);
//   - anything we print to stderr goes to our log file.
//
// There is no JSON in the standard library, so a tiny read-only navigator below finds a
// key of an object or the items of an array in the text of one line.
#include <cctype>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

static const char *NAME = "starter-cpp";

// The actions we like best, in order: the first legal move whose "action" comes first here
// is played, else the first legal move (always legal). This covers every decision of every
// game: Mandala's "turn" and "claim", Flowers' "turn" and "tile", Takenoko's "turn",
// "weather", "plot", "panda", "gardener", "objective" and the rest.
static const std::vector<std::string> PREFERRED = {
    "complete",        // Takenoko: a card that holds now scores
    "objective",       // Takenoko: draw a card while the hand has room
    "panda",           // Takenoko: move the panda (it eats)
    "gardener",        // Takenoko: move the gardener (bamboo grows)
    "plot",            // Takenoko: add a plot
    "build_mountain",  // Mandala: build a Mountain (it refills our hand)
    "play",            // Flowers: play cards
    "take",            // Flowers: take a tile
};

// ---- A tiny JSON navigator: views into one line, never a tree ------------------------

using Entries = std::vector<std::pair<std::string_view, std::string_view>>;

// The index just after the JSON value that starts at `at` (spaces skipped first).
static size_t skip_value(std::string_view s, size_t at) {
    while (at < s.size() && std::isspace(static_cast<unsigned char>(s[at]))) at++;
    int depth = 0;
    bool in_string = false;
    for (; at < s.size(); at++) {
        char c = s[at];
        if (in_string) {
            if (c == '\\') at++;
            else if (c == '"' && (in_string = false, depth == 0)) return at + 1;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (--depth <= 0) return depth == 0 ? at + 1 : at;
        } else if ((c == ',' || c == ':') && depth == 0) {
            return at;
        }
    }
    return at;
}

static std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// The entries of a JSON object or array, as (key or "", value) views.
static Entries entries(std::string_view json) {
    Entries out;
    json = trim(json);
    bool object = !json.empty() && json[0] == '{';
    size_t at = 1;
    while (at < json.size()) {
        while (at < json.size() && (std::isspace(static_cast<unsigned char>(json[at])) || json[at] == ',')) at++;
        if (at >= json.size() || json[at] == '}' || json[at] == ']') break;
        std::string_view key;
        if (object) {
            size_t end = skip_value(json, at);
            key = trim(json.substr(at, end - at));
            if (key.size() >= 2) key = key.substr(1, key.size() - 2);  // without its quotes
            at = json.find(':', end) + 1;
        }
        size_t end = skip_value(json, at);
        out.emplace_back(key, trim(json.substr(at, end - at)));
        at = end;
    }
    return out;
}

// The value of `key` in a JSON object, or "" when it is not there.
static std::string_view field(std::string_view json, std::string_view key) {
    for (auto &[k, v] : entries(json))
        if (k == key) return v;
    return {};
}

// A JSON string's text without its quotes (the protocol's names need no unescaping).
static std::string text(std::string_view json) {
    if (json.size() >= 2 && json.front() == '"') json = json.substr(1, json.size() - 2);
    return std::string(json);
}

// ---- The bot -------------------------------------------------------------------------

static size_t choose_move(std::string_view legal_moves) {
    Entries moves = entries(legal_moves);
    for (const std::string &wanted : PREFERRED)
        for (size_t i = 0; i < moves.size(); i++)
            if (text(field(moves[i].second, "action")) == wanted) return i;
    return 0;
}

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        std::string type = text(field(line, "type"));
        if (type == "hello") {  // the handshake: answer with our name
            std::cout << "{\"type\":\"hello\",\"name\":\"" << NAME << "\",\"version\":\"1.0\"}" << std::endl;
        } else if (type == "decide") {  // our move's index in legal_moves, the id echoed
            size_t move = choose_move(field(line, "legal_moves"));
            std::cout << "{\"type\":\"move\",\"move\":" << move << ",\"id\":" << field(line, "id") << "}"
                      << std::endl;
        } else if (type == "goodbye") {
            return 0;
        }  // new_game, game_over and anything new: no reply
    }
    return 0;
}
