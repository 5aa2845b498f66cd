// starter-kotlin: a Mandala Arena bot in Kotlin, the standard library only.
//
// Copy this folder, rename the bot in bot.toml, and change chooseMove() below.
// The arena builds it with `kotlinc bot.kt -include-runtime -d bot.jar` and runs
// `java -jar bot.jar` here. The protocol is in bots/README.md. In short:
//   - the referee writes one JSON object per line to our stdin;
//   - we answer each "decide" with one JSON line on stdout, flushed;
//   - anything we print to stderr goes to our log file.
//
// There is no JSON in Kotlin's standard library, so a tiny read-only navigator below
// finds a key of an object or the items of an array in the text of one line.

const val NAME = "starter-kotlin"

// The actions we like best, in order: the first legal move whose "action" comes first here
// is played, else the first legal move (always legal). This covers every decision of every
// game: Mandala's "turn" and "claim", Flowers' "turn" and "tile", Takenoko's "turn",
// "weather", "plot", "panda", "gardener", "objective" and the rest.
val PREFERRED = listOf(
    "complete",       // Takenoko: a card that holds now scores
    "objective",      // Takenoko: draw a card while the hand has room
    "panda",          // Takenoko: move the panda (it eats)
    "gardener",       // Takenoko: move the gardener (bamboo grows)
    "plot",           // Takenoko: add a plot
    "build_mountain", // Mandala: build a Mountain (it refills our hand)
    "play",           // Flowers: play cards
    "take"            // Flowers: take a tile
)

fun chooseMove(moves: List<Pair<String, String>>): Int {
    val actions = moves.map { text(field(it.second, "action")) }
    for (wanted in PREFERRED) {
        val index = actions.indexOf(wanted)
        if (index >= 0) return index
    }
    return 0
}

fun main() {
    while (true) {
        val line = readLine() ?: return
        when (text(field(line, "type"))) {
            // the handshake: answer with our name
            "hello" -> println("{\"type\":\"hello\",\"name\":\"$NAME\",\"version\":\"1.0\"}")
            // our move's index in legal_moves, and the request's id echoed
            "decide" -> {
                val move = chooseMove(entries(field(line, "legal_moves")))
                println("{\"type\":\"move\",\"move\":$move,\"id\":${field(line, "id")}}")
            }
            "goodbye" -> return
        } // new_game, game_over and anything new: no reply
        System.out.flush()
    }
}

// ---- A tiny JSON navigator: pieces of one line's text, never a tree ------------------

// The index just after the JSON value that starts at `start` (spaces skipped first).
fun skipValue(s: String, start: Int): Int {
    var at = start
    while (at < s.length && s[at].isWhitespace()) at++
    var depth = 0
    var inString = false
    while (at < s.length) {
        val c = s[at]
        if (inString) {
            if (c == '\\') at++
            else if (c == '"') { inString = false; if (depth == 0) return at + 1 }
        } else when (c) {
            '"' -> inString = true
            '{', '[' -> depth++
            '}', ']' -> { depth--; if (depth <= 0) return if (depth == 0) at + 1 else at }
            ',', ':' -> if (depth == 0) return at
        }
        at++
    }
    return at
}

// The entries of a JSON object or array, as (key or "", value) pairs of text.
fun entries(raw: String): List<Pair<String, String>> {
    val out = mutableListOf<Pair<String, String>>()
    val json = raw.trim()
    val isObject = json.startsWith("{")
    var at = 1
    while (at < json.length) {
        while (at < json.length && (json[at].isWhitespace() || json[at] == ',')) at++
        if (at >= json.length || json[at] == '}' || json[at] == ']') break
        var key = ""
        if (isObject) {
            val end = skipValue(json, at)
            key = text(json.substring(at, end))
            at = json.indexOf(':', end) + 1
        }
        val end = skipValue(json, at)
        out.add(Pair(key, json.substring(at, end).trim()))
        at = end
    }
    return out
}

// The value of `key` in a JSON object, or "" when it is not there.
fun field(json: String, key: String): String = entries(json).firstOrNull { it.first == key }?.second ?: ""

// A JSON string's text without its quotes (the protocol's names need no unescaping).
fun text(json: String): String {
    val t = json.trim()
    return if (t.length >= 2 && t.startsWith("\"")) t.substring(1, t.length - 1) else t
}
