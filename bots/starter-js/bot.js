// starter-js: a Mandala Arena bot in plain Node.js (standard library only).
//
// Copy this folder, rename the bot in bot.toml, and change chooseMove() below.
// The whole protocol is described in bots/README.md. In short:
//   - the referee writes one JSON object per line to our stdin;
//   - we answer some of them with one JSON object per line on stdout;
//   - anything we print to stderr goes to our log file (use console.error to debug);
//   - never print anything else to stdout: every stdout line must be a reply.
"use strict";

const readline = require("readline");

const NAME = "starter-js";

// Send one message: a single line of JSON ending in "\n".
// (On Linux, Node writes to a pipe synchronously, so the line leaves at once.)
function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// Choose a move. `request` is the whole "decide" message:
//   request.decision     "turn" (our turn) or "claim" (a Mandala is being destroyed)
//   request.view         everything we can see (our hand, the Mandalas, both Rivers ...)
//   request.legal_moves  the moves we may play, e.g. {action: "claim", colour: "red"}
// We answer with the index of a move in legal_moves (answering with the move object
// itself is also allowed).
function chooseMove(request) {
  const view = request.view;
  const moves = request.legal_moves;

  if (request.decision === "claim") {
    // A Mandala is being destroyed: claim the colour with the most cards in its Mountain.
    const mountain = view.mandalas[view.destroying.mandala].mountain;
    let best = 0;
    moves.forEach((move, i) => {
      if (mountain[move.colour] > mountain[moves[best].colour]) best = i;
    });
    return best;
  }

  // Our turn. If our own Field in a Mandala is still empty, grow it with 3 or more cards
  // of one colour: only a player with cards in their Field gets to keep what they claim,
  // and the bigger Field claims first. view.seat tells which Field is ours.
  let best = -1;
  moves.forEach((move, i) => {
    if (move.action !== "grow_field" || move.count < 3) return;
    const ourField = view.mandalas[move.mandala].fields[view.seat];
    const cardsInField = Object.values(ourField).reduce((sum, n) => sum + n, 0);
    if (cardsInField > 0) return;
    if (best < 0 || move.count > moves[best].count) best = i;
  });
  if (best >= 0) return best;

  // Otherwise build a Mountain (it refills our hand) with the colour we hold fewest of:
  // many cards of one colour are better kept to grow a Field later.
  moves.forEach((move, i) => {
    if (move.action !== "build_mountain") return;
    if (best < 0 || view.hand[move.colour] < view.hand[moves[best].colour]) best = i;
  });
  if (best >= 0) return best;

  // No Mountain accepts any of our colours (the Rule of Color): play the first legal move.
  return 0;
}

// The main loop: read the referee's messages line by line.
const input = readline.createInterface({ input: process.stdin, terminal: false });

input.on("line", (line) => {
  if (line.trim() === "") return;
  let message;
  try {
    message = JSON.parse(line);
  } catch (error) {
    console.error(`${NAME}: ignoring a line that is not JSON: ${line.slice(0, 80)}`);
    return;
  }

  switch (message.type) {
    case "hello":
      // The handshake: the referee says {"type":"hello","protocol":1,...}; we answer with our name.
      send({ type: "hello", name: NAME, version: "1.0" });
      break;
    case "new_game":
      // A new game starts; message.seat is our seat (0 moves first). No reply.
      console.error(`${NAME}: game ${message.game_id}, seat ${message.seat}`);
      break;
    case "decide":
      send({ type: "move", move: chooseMove(message) });
      break;
    case "game_over":
      // message.result holds the scores, the winner and why the game ended. No reply.
      console.error(`${NAME}: game ${message.game_id} over: ${JSON.stringify(message.result)}`);
      break;
    case "goodbye":
      process.exit(0);
      break;
    default:
      // Unknown message types may appear in later protocol versions: ignore them.
      break;
  }
});

// The referee closed our stdin: nothing more will come.
input.on("close", () => process.exit(0));
