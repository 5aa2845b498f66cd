//! starter-rust: a Mandala Arena bot in Rust, standard library only.
//!
//! Copy this folder, rename the bot in bot.toml, and change `choose_move` below.
//! The arena builds it with `cargo build --release --offline` and runs ./target/release/bot
//! in this folder. The protocol is in bots/README.md. In short:
//!   - the referee writes one JSON object per line to our stdin;
//!   - we answer each `decide` with one JSON line on stdout (and flush);
//!   - anything we print to stderr goes to our log file.
//!
//! There is no JSON in Rust's standard library, so a tiny read-only navigator below finds
//! a key of an object or the items of an array in the text of one line.

use std::io::{self, BufRead, Write};

const NAME: &str = "starter-rust";

/// The actions we like best, in order: the first legal move whose `action` comes first
/// here is played, else the first legal move (always legal). This covers every decision of
/// every game: Mandala's "turn" and "claim", Flowers' "turn" and "tile", Takenoko's "turn",
/// "weather", "plot", "panda", "gardener", "objective" and the rest.
const PREFERRED: [&str; 8] = [
    "complete",       // Takenoko: a card that holds now scores
    "objective",      // Takenoko: draw a card while the hand has room
    "panda",          // Takenoko: move the panda (it eats)
    "gardener",       // Takenoko: move the gardener (bamboo grows)
    "plot",           // Takenoko: add a plot
    "build_mountain", // Mandala: build a Mountain (it refills our hand)
    "play",           // Flowers: play cards
    "take",           // Flowers: take a tile
];

fn choose_move(legal_moves: &[&str]) -> usize {
    for wanted in PREFERRED {
        for (index, mv) in legal_moves.iter().enumerate() {
            if field(mv, "action").map(text) == Some(wanted.to_string()) {
                return index;
            }
        }
    }
    0
}

fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(_) => break,
        };
        let kind = field(&line, "type").map(text).unwrap_or_default();
        let reply = match kind.as_str() {
            // The handshake: we answer with our name.
            "hello" => format!("{{\"type\":\"hello\",\"name\":\"{NAME}\",\"version\":\"1.0\"}}"),
            // A decision: the index of our move in legal_moves, and the request's id echoed.
            "decide" => {
                let moves = field(&line, "legal_moves").map(items).unwrap_or_default();
                let id = field(&line, "id").unwrap_or("null");
                format!("{{\"type\":\"move\",\"move\":{},\"id\":{}}}", choose_move(&moves), id)
            }
            "goodbye" => break,
            // new_game, game_over and anything new: no reply.
            _ => continue,
        };
        writeln!(out, "{reply}").and_then(|_| out.flush()).expect("stdout closed");
    }
}

// ---- A tiny JSON navigator: slices of one line, never a tree --------------------------

/// The index just after the JSON value that starts at `at` (spaces skipped first).
fn skip_value(s: &[u8], mut at: usize) -> usize {
    while at < s.len() && s[at].is_ascii_whitespace() {
        at += 1;
    }
    let mut depth = 0;
    let mut in_string = false;
    while at < s.len() {
        let c = s[at];
        at += 1;
        if in_string {
            match c {
                b'\\' => at += 1,
                b'"' => in_string = false,
                _ => continue,
            }
            if !in_string && depth == 0 {
                return at;
            }
        } else {
            match c {
                b'"' => in_string = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth -= 1;
                    if depth <= 0 {
                        return if depth == 0 { at } else { at - 1 };
                    }
                }
                b',' | b':' if depth == 0 => return at - 1,
                _ => {}
            }
        }
    }
    at
}

/// The entries of a JSON object or array (text), as (key or "", value) slices.
fn entries(json: &str) -> Vec<(&str, &str)> {
    let s = json.as_bytes();
    let mut out = Vec::new();
    let mut at = json.find(|c| c == '{' || c == '[').map_or(s.len(), |i| i + 1);
    let object = json.trim_start().starts_with('{');
    while at < s.len() {
        while at < s.len() && (s[at].is_ascii_whitespace() || s[at] == b',') {
            at += 1;
        }
        if at >= s.len() || s[at] == b'}' || s[at] == b']' {
            break;
        }
        let mut key = "";
        if object {
            let end = skip_value(s, at);
            key = json[at..end].trim().trim_matches('"');
            at = json[end..].find(':').map_or(s.len(), |i| end + i + 1);
        }
        let end = skip_value(s, at);
        out.push((key, json[at..end].trim()));
        at = end;
    }
    out
}

/// The value of `key` in a JSON object (text), if it is there.
fn field<'a>(json: &'a str, key: &str) -> Option<&'a str> {
    entries(json).into_iter().find(|(k, _)| *k == key).map(|(_, v)| v)
}

/// The items of a JSON array (text).
fn items(json: &str) -> Vec<&str> {
    entries(json).into_iter().map(|(_, v)| v).collect()
}

/// A JSON string's text without its quotes (the protocol's names need no unescaping).
fn text(json: &str) -> String {
    json.trim().trim_matches('"').to_string()
}
