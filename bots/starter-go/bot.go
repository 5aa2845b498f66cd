// starter-go: a Mandala Arena bot in Go, standard library only.
//
// Copy this folder, rename the bot in bot.toml, and change chooseMove below.
// The arena builds it with `go build -o bot .` (offline) and runs ./bot in this folder.
// The protocol is in bots/README.md. In short:
//   - the referee writes one JSON object per line to our stdin;
//   - we answer each "decide" with one JSON line on stdout (os.Stdout is unbuffered);
//   - anything we print to stderr goes to our log file.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

const name = "starter-go"

// The actions we like best, in order: the first legal move whose "action" comes first here
// is played, else the first legal move (always legal). This covers every decision of every
// game: Mandala's "turn" and "claim", Flowers' "turn" and "tile", Takenoko's "turn",
// "weather", "plot", "panda", "gardener", "objective" and the rest.
var preferred = []string{
	"complete",       // Takenoko: a card that holds now scores
	"objective",      // Takenoko: draw a card while the hand has room
	"panda",          // Takenoko: move the panda (it eats)
	"gardener",       // Takenoko: move the gardener (bamboo grows)
	"plot",           // Takenoko: add a plot
	"build_mountain", // Mandala: build a Mountain (it refills our hand)
	"play",           // Flowers: play cards
	"take",           // Flowers: take a tile
}

// A message from the referee: only the fields this bot reads (the rest are ignored).
type message struct {
	Type       string            `json:"type"`
	ID         json.RawMessage   `json:"id"`
	Game       string            `json:"game"`
	Decision   string            `json:"decision"`
	LegalMoves []json.RawMessage `json:"legal_moves"`
}

func chooseMove(moves []json.RawMessage) int {
	for _, wanted := range preferred {
		for index, raw := range moves {
			var move struct {
				Action string `json:"action"`
			}
			if json.Unmarshal(raw, &move) == nil && move.Action == wanted {
				return index
			}
		}
	}
	return 0
}

func main() {
	input := bufio.NewScanner(os.Stdin)
	input.Buffer(make([]byte, 1<<16), 1<<24) // lines can be long: up to 16 MiB
	for input.Scan() {
		var m message
		if err := json.Unmarshal(input.Bytes(), &m); err != nil {
			fmt.Fprintf(os.Stderr, "%s: ignoring a line that is not JSON\n", name)
			continue
		}
		switch m.Type {
		case "hello": // the handshake: answer with our name
			fmt.Printf("{\"type\":\"hello\",\"name\":%q,\"version\":\"1.0\"}\n", name)
		case "decide": // the index of our move in legal_moves, and the request's id echoed
			fmt.Printf("{\"type\":\"move\",\"move\":%d,\"id\":%s}\n", chooseMove(m.LegalMoves), m.ID)
		case "goodbye":
			return
		} // new_game, game_over and anything new: no reply
	}
}
