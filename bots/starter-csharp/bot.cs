// starter-csharp: a Mandala Arena bot in C#, the base class library only.
//
// Copy this folder, rename the bot in bot.toml, and change ChooseMove() below.
// The arena builds it with Mono's `mcs -optimize -out:bot.exe bot.cs` and runs
// `mono bot.exe` here. The protocol is in bots/README.md. In short:
//   - the referee writes one JSON object per line to our stdin;
//   - we answer each "decide" with one JSON line on stdout, flushed;
//   - anything we print to stderr goes to our log file.
//
// Mono's base library has no JSON reader, so a tiny read-only navigator below finds a key
// of an object or the items of an array in the text of one line.
using System;
using System.Collections.Generic;

static class Bot
{
    const string Name = "starter-csharp";

    // The actions we like best, in order: the first legal move whose "action" comes first
    // here is played, else the first legal move (always legal). This covers every decision
    // of every game: Mandala's "turn" and "claim", Flowers' "turn" and "tile", Takenoko's
    // "turn", "weather", "plot", "panda", "gardener", "objective" and the rest.
    static readonly string[] Preferred = {
        "complete",       // Takenoko: a card that holds now scores
        "objective",      // Takenoko: draw a card while the hand has room
        "panda",          // Takenoko: move the panda (it eats)
        "gardener",       // Takenoko: move the gardener (bamboo grows)
        "plot",           // Takenoko: add a plot
        "build_mountain", // Mandala: build a Mountain (it refills our hand)
        "play",           // Flowers: play cards
        "take",           // Flowers: take a tile
    };

    static int ChooseMove(List<KeyValuePair<string, string>> moves)
    {
        foreach (string wanted in Preferred)
            for (int i = 0; i < moves.Count; i++)
                if (Text(Field(moves[i].Value, "action")) == wanted) return i;
        return 0;
    }

    static void Main()
    {
        string line;
        while ((line = Console.ReadLine()) != null)
        {
            string type = Text(Field(line, "type"));
            if (type == "hello") // the handshake: answer with our name
                Console.WriteLine("{\"type\":\"hello\",\"name\":\"" + Name + "\",\"version\":\"1.0\"}");
            else if (type == "decide") // our move's index, and the request's id echoed
                Console.WriteLine("{\"type\":\"move\",\"move\":" + ChooseMove(Entries(Field(line, "legal_moves")))
                    + ",\"id\":" + Field(line, "id") + "}");
            else if (type == "goodbye")
                return;
            // new_game, game_over and anything new: no reply
            Console.Out.Flush();
        }
    }

    // ---- A tiny JSON navigator: pieces of one line's text, never a tree ----------------

    // The index just after the JSON value that starts at `at` (spaces skipped first).
    static int SkipValue(string s, int at)
    {
        while (at < s.Length && char.IsWhiteSpace(s[at])) at++;
        int depth = 0;
        bool inString = false;
        for (; at < s.Length; at++)
        {
            char c = s[at];
            if (inString)
            {
                if (c == '\\') at++;
                else if (c == '"') { inString = false; if (depth == 0) return at + 1; }
            }
            else if (c == '"') inString = true;
            else if (c == '{' || c == '[') depth++;
            else if (c == '}' || c == ']') { if (--depth <= 0) return depth == 0 ? at + 1 : at; }
            else if ((c == ',' || c == ':') && depth == 0) return at;
        }
        return at;
    }

    // The entries of a JSON object or array, as (key or "", value) pairs of text.
    static List<KeyValuePair<string, string>> Entries(string json)
    {
        var result = new List<KeyValuePair<string, string>>();
        json = json.Trim();
        bool isObject = json.StartsWith("{");
        int at = 1;
        while (at < json.Length)
        {
            while (at < json.Length && (char.IsWhiteSpace(json[at]) || json[at] == ',')) at++;
            if (at >= json.Length || json[at] == '}' || json[at] == ']') break;
            string key = "";
            if (isObject)
            {
                int keyEnd = SkipValue(json, at);
                key = Text(json.Substring(at, keyEnd - at));
                at = json.IndexOf(':', keyEnd) + 1;
            }
            int end = SkipValue(json, at);
            result.Add(new KeyValuePair<string, string>(key, json.Substring(at, end - at).Trim()));
            at = end;
        }
        return result;
    }

    // The value of `key` in a JSON object, or "" when it is not there.
    static string Field(string json, string key)
    {
        foreach (var entry in Entries(json)) if (entry.Key == key) return entry.Value;
        return "";
    }

    // A JSON string's text without its quotes (the protocol's names need no unescaping).
    static string Text(string json)
    {
        json = json.Trim();
        return json.Length >= 2 && json.StartsWith("\"") ? json.Substring(1, json.Length - 2) : json;
    }
}
