# starter-ruby: a Mandala Arena bot in Ruby, standard library only.
#
# Copy this folder, rename the bot in bot.toml, and change choose_move below.
# The arena runs `ruby bot.rb` in this folder. The protocol is in bots/README.md. In short:
#   - the referee writes one JSON object per line to our stdin;
#   - we answer each "decide" with one JSON line on stdout (flushed: $stdout.sync);
#   - anything we print to stderr goes to our log file.
require "json"

NAME = "starter-ruby"
$stdout.sync = true

# The actions we like best, in order: the first legal move whose "action" comes first here
# is played, else the first legal move (always legal). This covers every decision of every
# game: Mandala's "turn" and "claim", Flowers' "turn" and "tile", Takenoko's "turn",
# "weather", "plot", "panda", "gardener", "objective" and the rest.
PREFERRED = [
  "complete",       # Takenoko: a card that holds now scores
  "objective",      # Takenoko: draw a card while the hand has room
  "panda",          # Takenoko: move the panda (it eats)
  "gardener",       # Takenoko: move the gardener (bamboo grows)
  "plot",           # Takenoko: add a plot
  "build_mountain", # Mandala: build a Mountain (it refills our hand)
  "play",           # Flowers: play cards
  "take",           # Flowers: take a tile
].freeze

def choose_move(legal_moves)
  actions = legal_moves.map { |move| move.is_a?(Hash) ? move["action"] : nil }
  PREFERRED.each do |wanted|
    index = actions.index(wanted)
    return index if index
  end
  0
end

$stdin.each_line do |line|
  begin
    message = JSON.parse(line)
  rescue JSON::ParserError
    warn "#{NAME}: ignoring a line that is not JSON"
    next
  end
  case message["type"]
  when "hello" # the handshake: answer with our name
    puts JSON.generate({ type: "hello", name: NAME, version: "1.0" })
  when "decide" # the index of our move, and the request's id echoed
    puts JSON.generate({ type: "move", move: choose_move(message["legal_moves"]), id: message["id"] })
  when "goodbye"
    break
  end # new_game, game_over and anything new: no reply
end
