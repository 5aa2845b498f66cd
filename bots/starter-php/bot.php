<?php
// starter-php: a Mandala Arena bot in PHP (the command-line PHP, no extensions).
//
// Copy this folder, rename the bot in bot.toml, and change choose_move() below.
// The arena runs `php bot.php` in this folder. The protocol is in bots/README.md. In short:
//   - the referee writes one JSON object per line to our stdin;
//   - we answer each "decide" with one JSON line on stdout (fwrite to STDOUT, unbuffered);
//   - anything we print to stderr goes to our log file.

const NAME = "starter-php";

// The actions we like best, in order: the first legal move whose "action" comes first here
// is played, else the first legal move (always legal). This covers every decision of every
// game: Mandala's "turn" and "claim", Flowers' "turn" and "tile", Takenoko's "turn",
// "weather", "plot", "panda", "gardener", "objective" and the rest.
const PREFERRED = [
    "complete",       // Takenoko: a card that holds now scores
    "objective",      // Takenoko: draw a card while the hand has room
    "panda",          // Takenoko: move the panda (it eats)
    "gardener",       // Takenoko: move the gardener (bamboo grows)
    "plot",           // Takenoko: add a plot
    "build_mountain", // Mandala: build a Mountain (it refills our hand)
    "play",           // Flowers: play cards
    "take",           // Flowers: take a tile
];

function choose_move(array $legal_moves): int {
    $actions = array_map(fn($move) => is_array($move) ? ($move["action"] ?? null) : null, $legal_moves);
    foreach (PREFERRED as $wanted) {
        $index = array_search($wanted, $actions, true);
        if ($index !== false) return $index;
    }
    return 0;
}

function send(array $message): void {
    fwrite(STDOUT, json_encode($message) . "\n");
}

while (($line = fgets(STDIN)) !== false) {
    $message = json_decode($line, true);
    if (!is_array($message)) {
        fwrite(STDERR, NAME . ": ignoring a line that is not JSON\n");
        continue;
    }
    switch ($message["type"] ?? "") {
        case "hello": // the handshake: answer with our name
            send(["type" => "hello", "name" => NAME, "version" => "1.0"]);
            break;
        case "decide": // the index of our move, and the request's id echoed
            send(["type" => "move", "move" => choose_move($message["legal_moves"]), "id" => $message["id"]]);
            break;
        case "goodbye":
            exit(0);
    } // new_game, game_over and anything new: no reply
}
