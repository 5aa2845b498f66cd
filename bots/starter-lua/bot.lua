-- starter-lua: a Mandala Arena bot in Lua, the standard library only.
--
-- Copy this folder, rename the bot in bot.toml, and change choose_move() below.
-- The arena runs `lua bot.lua` here. The protocol is in bots/README.md. In short:
--   - the referee writes one JSON object per line to our stdin;
--   - we answer each "decide" with one JSON line on stdout, flushed;
--   - anything we print to stderr goes to our log file.
--
-- Lua has no JSON of its own, so a tiny read-only navigator below finds a key of an
-- object or the items of an array in the text of one line.

local NAME = "starter-lua"

-- The actions we like best, in order: the first legal move whose "action" comes first here
-- is played, else the first legal move (always legal). This covers every decision of every
-- game: Mandala's "turn" and "claim", Flowers' "turn" and "tile", Takenoko's "turn",
-- "weather", "plot", "panda", "gardener", "objective" and the rest.
local PREFERRED = {
  "complete",       -- Takenoko: a card that holds now scores
  "objective",      -- Takenoko: draw a card while the hand has room
  "panda",          -- Takenoko: move the panda (it eats)
  "gardener",       -- Takenoko: move the gardener (bamboo grows)
  "plot",           -- Takenoko: add a plot
  "build_mountain", -- Mandala: build a Mountain (it refills our hand)
  "play",           -- Flowers: play cards
  "take",           -- Flowers: take a tile
}

-- ---- A tiny JSON navigator: pieces of one line's text, never a tree -----------------

-- The position just after the JSON value that starts at `at` (spaces skipped first).
local function skip_value(s, at)
  at = s:find("%S", at) or #s + 1
  local depth, in_string = 0, false
  while at <= #s do
    -- jump to the next character that matters (a quote, a bracket, a separator)
    at = s:find(in_string and '[\\"]' or '["{}%[%],:]', at) or #s + 1
    local c = s:sub(at, at)
    if c == "" then break
    elseif in_string then
      if c == "\\" then at = at + 1
      elseif c == '"' then
        in_string = false
        if depth == 0 then return at + 1 end
      end
    elseif c == '"' then in_string = true
    elseif c == "{" or c == "[" then depth = depth + 1
    elseif c == "}" or c == "]" then
      depth = depth - 1
      if depth <= 0 then return depth == 0 and at + 1 or at end
    elseif (c == "," or c == ":") and depth == 0 then return at
    end
    at = at + 1
  end
  return at
end

local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

-- A JSON string's text without its quotes (the protocol's names need no unescaping).
local function text(json)
  json = trim(json)
  if json:sub(1, 1) == '"' then return json:sub(2, -2) end
  return json
end

-- The entries of a JSON object or array, as a list of {key or "", value} pairs of text.
local function entries(json)
  local out = {}
  json = trim(json)
  local object = json:sub(1, 1) == "{"
  local at = 2
  while at <= #json do
    at = json:find("[^%s,]", at) or #json + 1
    local c = json:sub(at, at)
    if c == "" or c == "}" or c == "]" then break end
    local key = ""
    if object then
      local finish = skip_value(json, at)
      key = text(json:sub(at, finish - 1))
      at = json:find(":", finish, true) + 1
    end
    local finish = skip_value(json, at)
    out[#out + 1] = { key, trim(json:sub(at, finish - 1)) }
    at = finish
  end
  return out
end

-- The value of `key` in a JSON object, or "" when it is not there.
local function field(json, key)
  for _, entry in ipairs(entries(json)) do
    if entry[1] == key then return entry[2] end
  end
  return ""
end

-- ---- The bot -----------------------------------------------------------------------

local function choose_move(legal_moves)
  local moves = entries(legal_moves)
  for _, wanted in ipairs(PREFERRED) do
    for i, move in ipairs(moves) do
      if text(field(move[2], "action")) == wanted then return i - 1 end -- indexes from 0
    end
  end
  return 0
end

for line in io.lines() do
  local message = {} -- the line's keys and their values' text, read once
  for _, entry in ipairs(entries(line)) do message[entry[1]] = entry[2] end
  local kind = text(message.type or "")
  if kind == "hello" then -- the handshake: answer with our name
    io.write('{"type":"hello","name":"', NAME, '","version":"1.0"}\n')
  elseif kind == "decide" then -- our move's index, and the request's id echoed
    io.write('{"type":"move","move":', choose_move(message.legal_moves), ',"id":', message.id, "}\n")
  elseif kind == "goodbye" then
    break
  end -- new_game, game_over and anything new: no reply
  io.stdout:flush()
end
