// starter-java: a Mandala Arena bot in Java, the JDK's library only.
//
// Copy this folder, rename the bot in bot.toml, and change chooseMove() below.
// The arena builds it with `javac -d bin Bot.java` and runs `java -cp bin Bot` here.
// The protocol is in bots/README.md. In short:
//   - the referee writes one JSON object per line to our stdin;
//   - we answer each "decide" with one JSON line on stdout, flushed;
//   - anything we print to stderr goes to our log file.
//
// There is no JSON in the JDK, so a tiny read-only navigator below finds a key of an
// object or the items of an array in the text of one line.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public final class Bot {
    static final String NAME = "starter-java";

    // The actions we like best, in order: the first legal move whose "action" comes first
    // here is played, else the first legal move (always legal). This covers every decision
    // of every game: Mandala's "turn" and "claim", Flowers' "turn" and "tile", Takenoko's
    // "turn", "weather", "plot", "panda", "gardener", "objective" and the rest.
    static final String[] PREFERRED = {
        "complete",       // Takenoko: a card that holds now scores
        "objective",      // Takenoko: draw a card while the hand has room
        "panda",          // Takenoko: move the panda (it eats)
        "gardener",       // Takenoko: move the gardener (bamboo grows)
        "plot",           // Takenoko: add a plot
        "build_mountain", // Mandala: build a Mountain (it refills our hand)
        "play",           // Flowers: play cards
        "take",           // Flowers: take a tile
    };

    static int chooseMove(List<String[]> moves) {
        for (String wanted : PREFERRED)
            for (int i = 0; i < moves.size(); i++)
                if (wanted.equals(text(field(moves.get(i)[1], "action")))) return i;
        return 0;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String type = text(field(line, "type"));
            if (type.equals("hello")) { // the handshake: answer with our name
                System.out.println("{\"type\":\"hello\",\"name\":\"" + NAME + "\",\"version\":\"1.0\"}");
            } else if (type.equals("decide")) { // our move's index, and the request's id echoed
                int move = chooseMove(entries(field(line, "legal_moves")));
                System.out.println("{\"type\":\"move\",\"move\":" + move + ",\"id\":" + field(line, "id") + "}");
            } else if (type.equals("goodbye")) {
                return;
            } // new_game, game_over and anything new: no reply
            System.out.flush();
        }
    }

    // ---- A tiny JSON navigator: pieces of one line's text, never a tree ----------------

    // The index just after the JSON value that starts at `at` (spaces skipped first).
    static int skipValue(String s, int at) {
        while (at < s.length() && Character.isWhitespace(s.charAt(at))) at++;
        int depth = 0;
        boolean inString = false;
        for (; at < s.length(); at++) {
            char c = s.charAt(at);
            if (inString) {
                if (c == '\\') at++;
                else if (c == '"') { inString = false; if (depth == 0) return at + 1; }
            } else if (c == '"') inString = true;
            else if (c == '{' || c == '[') depth++;
            else if (c == '}' || c == ']') { if (--depth <= 0) return depth == 0 ? at + 1 : at; }
            else if ((c == ',' || c == ':') && depth == 0) return at;
        }
        return at;
    }

    // The entries of a JSON object or array, as {key or "", value} pairs of text.
    static List<String[]> entries(String json) {
        List<String[]> out = new ArrayList<>();
        json = json.trim();
        boolean object = json.startsWith("{");
        int at = 1;
        while (at < json.length()) {
            while (at < json.length() && (Character.isWhitespace(json.charAt(at)) || json.charAt(at) == ',')) at++;
            if (at >= json.length() || json.charAt(at) == '}' || json.charAt(at) == ']') break;
            String key = "";
            if (object) {
                int end = skipValue(json, at);
                key = text(json.substring(at, end));
                at = json.indexOf(':', end) + 1;
            }
            int end = skipValue(json, at);
            out.add(new String[] {key, json.substring(at, end).trim()});
            at = end;
        }
        return out;
    }

    // The value of `key` in a JSON object, or "" when it is not there.
    static String field(String json, String key) {
        for (String[] entry : entries(json)) if (entry[0].equals(key)) return entry[1];
        return "";
    }

    // A JSON string's text without its quotes (the protocol's names need no unescaping).
    static String text(String json) {
        json = json.trim();
        return json.length() >= 2 && json.startsWith("\"") ? json.substring(1, json.length() - 1) : json;
    }
}
