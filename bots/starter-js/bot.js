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

// Which game we are playing: the referee names it in "hello" and "new_game" ("mandala",
// "flowers" or "takenoko"). chooseMove() hands the decision to that game's function.
let game = "mandala";

// Send one message: a single line of JSON ending in "\n".
// (On Linux, Node writes to a pipe synchronously, so the line leaves at once.)
function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// Choose a move for whatever game we are playing.
function chooseMove(request) {
  if (game === "flowers") return chooseFlowersMove(request);
  if (game === "mandala") return chooseMandalaMove(request);
  if (game === "takenoko") return chooseTakenokoMove(request);
  return 0; // a game this bot does not know: the first legal move is always legal
}

// Flowers (2-4 players). `request.decision` is "turn" (play cards) or "tile" (we hold
// the claim marker of a Mandala being destroyed and choose a tile, e.g. {action: "take",
// colour: "red"}). Plays look like {action: "play", mandala: 0, colour: "red", count: 1}.
function chooseFlowersMove(request) {
  const view = request.view;
  const moves = request.legal_moves;

  if (request.decision === "tile") {
    // Tiles are named "red 5" or "red x3". Take the one that makes a Flower with a tile
    // we already hold (same colour); otherwise the one with the higher number.
    const tiles = view.mandalas[view.destroying.mandala].tiles;
    const ours = view.players[view.seat].singles.map((tile) => tile.split(" ")[0]);
    const worth = (colour) => {
      const tile = tiles.find((t) => t.startsWith(colour + " "));
      const number = parseInt(tile.split(" ")[1], 10) || 0; // "x3" counts 0 on its own
      return (ours.includes(colour) ? 10 : 0) + number;
    };
    let best = 0;
    moves.forEach((move, i) => {
      if (worth(move.colour) > worth(moves[best].colour)) best = i;
    });
    return best;
  }

  // Our turn. Play a single card (we then draw up to 4) of a colour that is new in its
  // Mandala, so it lies face up and counts for the claim marker; prefer the Mandala
  // where we already have the most cards.
  let best = -1;
  moves.forEach((move, i) => {
    if (move.count !== 1) return;
    const mandala = view.mandalas[move.mandala];
    if (mandala.colours.includes(move.colour)) return; // would go face down
    const ours = mandala.sides[view.seat].cards;
    if (best < 0 || ours > view.mandalas[moves[best].mandala].sides[view.seat].cards) best = i;
  });
  if (best >= 0) return best;
  // Otherwise any single card; failing that, the first legal move.
  best = moves.findIndex((move) => move.count === 1);
  return best >= 0 ? best : 0;
}

// Takenoko (2-4 players). A turn is a row of small decisions (request.decision is "turn",
// "weather", "plot", "panda", "objective" ...), each with its own legal_moves, such as
// {action: "panda"} or {action: "move_panda", to: [1, 0]}. Cells are [q, r];
// view.board.tiles lists every tile with its cell `at`, its `bamboo` (sections) and its
// `improvement`.
function chooseTakenokoMove(request) {
  const moves = request.legal_moves;
  const find = (test) => moves.findIndex(test);
  let best = find((move) => move.action === "complete"); // a card that holds scores now
  if (best >= 0) return best;
  if (request.decision === "turn") {
    // Draw a card while the hand has room; then feed the panda, grow bamboo, add plots.
    for (const kind of ["objective", "panda", "gardener", "plot"]) {
      best = find((move) => move.action === kind);
      if (best >= 0) return best;
    }
  } else if (request.decision === "objective") {
    // Panda cards need only the panda to eat; gardener cards, bamboo to grow.
    best = find((move) => move.deck === "panda");
    if (best < 0) best = find((move) => move.deck === "gardener");
  } else if (request.decision === "panda" || request.decision === "gardener") {
    // The panda goes where the bamboo is tallest (it eats a section there, unless an
    // enclosure guards it); the gardener where it is tallest but still below 4 sections
    // (it grows one there).
    const gardener = request.decision === "gardener";
    const tiles = new Map(request.view.board.tiles.map((tile) => [tile.at.join(","), tile]));
    let most = -2;
    moves.forEach((move, i) => {
      const tile = move.to ? tiles.get(move.to.join(",")) : undefined;
      let sections = tile ? (typeof tile.bamboo === "number" ? tile.bamboo : 0) : -2;
      if (gardener && sections >= 4) sections = -1; // full grown
      if (!gardener && tile && tile.improvement === "enclosure") sections = 0; // cannot eat
      if (sections > most) {
        best = i;
        most = sections;
      }
    });
  } else if (request.decision === "weather") {
    best = find((move) => move.face === "SUN"); // the Sun gives a third action
  }
  return best >= 0 ? best : 0; // otherwise the first legal move
}

// Mandala (2 players). `request` is the whole "decide" message:
//   request.decision     "turn" (our turn) or "claim" (a Mandala is being destroyed)
//   request.view         everything we can see (our hand, the Mandalas, both Rivers ...)
//   request.legal_moves  the moves we may play, e.g. {action: "claim", colour: "red"}
// We answer with the index of a move in legal_moves (answering with the move object
// itself is also allowed).
function chooseMandalaMove(request) {
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
      // The handshake: the referee says {"type":"hello","protocol":2,"game":"mandala",...};
      // we answer with our name.
      if (typeof message.game === "string") game = message.game;
      send({ type: "hello", name: NAME, version: "1.0" });
      break;
    case "new_game":
      // A new game starts; message.seat is our seat (0 moves first), message.players the
      // number of seats, message.game the game. No reply.
      if (typeof message.game === "string") game = message.game;
      console.error(`${NAME}: ${game} game ${message.game_id}, seat ${message.seat}`);
      break;
    case "decide":
      // Answer with a move, and echo the request's id (protocol 2).
      send({ type: "move", move: chooseMove(message), id: message.id });
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
