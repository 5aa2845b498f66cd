// starter-typescript: a Mandala Arena bot in TypeScript on Node.js, no packages.
//
// Copy this folder, rename the bot in bot.toml, and change chooseMove() below.
// The arena builds it with `tsc --strict --target es2020 --outDir build bot.ts` and runs
// `node build/bot.js` in this folder. The protocol is in bots/README.md. In short:
//   - the referee writes one JSON object per line to our stdin;
//   - we answer each "decide" with one JSON line on stdout;
//   - anything we print to stderr goes to our log file (console.error).

// Node's own names, declared here so that tsc needs no @types/node package.
declare const process: {
  stdin: { on(event: string, listener: (chunk?: unknown) => void): void; setEncoding(e: string): void };
  stdout: { write(text: string): boolean };
  exit(code: number): never;
};

const NAME = "starter-typescript";

// The actions we like best, in order: the first legal move whose "action" comes first here
// is played, else the first legal move (always legal). This covers every decision of every
// game: Mandala's "turn" and "claim", Flowers' "turn" and "tile", Takenoko's "turn",
// "weather", "plot", "panda", "gardener", "objective" and the rest.
const PREFERRED = [
  "complete", // Takenoko: a card that holds now scores
  "objective", // Takenoko: draw a card while the hand has room
  "panda", // Takenoko: move the panda (it eats)
  "gardener", // Takenoko: move the gardener (bamboo grows)
  "plot", // Takenoko: add a plot
  "build_mountain", // Mandala: build a Mountain (it refills our hand)
  "play", // Flowers: play cards
  "take", // Flowers: take a tile
];

interface Message {
  type?: string;
  id?: string;
  legal_moves?: Array<{ action?: string }>;
}

function chooseMove(moves: Array<{ action?: string }>): number {
  for (const wanted of PREFERRED) {
    const index = moves.findIndex((move) => move !== null && move.action === wanted);
    if (index >= 0) return index;
  }
  return 0;
}

function send(message: object): void {
  process.stdout.write(JSON.stringify(message) + "\n"); // a pipe on Linux: written at once
}

function handle(line: string): void {
  if (line.trim() === "") return;
  let message: Message;
  try {
    message = JSON.parse(line) as Message;
  } catch {
    console.error(`${NAME}: ignoring a line that is not JSON`);
    return;
  }
  if (message.type === "hello") {
    send({ type: "hello", name: NAME, version: "1.0" }); // the handshake: our name
  } else if (message.type === "decide") {
    // the index of our move in legal_moves, and the request's id echoed
    send({ type: "move", move: chooseMove(message.legal_moves ?? []), id: message.id });
  } else if (message.type === "goodbye") {
    process.exit(0);
  } // new_game, game_over and anything new: no reply
}

// Read stdin in chunks and hand on each whole line.
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += String(chunk);
  let end: number;
  while ((end = pending.indexOf("\n")) >= 0) {
    handle(pending.slice(0, end));
    pending = pending.slice(end + 1);
  }
});
process.stdin.on("end", () => process.exit(0));
