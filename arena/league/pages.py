"""The league's two HTML pages (no build step): the leaderboard page and the invite's join
page. Every text from a bot or an author is put in with `textContent`, never as HTML.

Each page's script and style are constants of their own: the Content-Security-Policy
(`arena.league.exposure`) allows exactly these texts by their SHA-256 hashes, so no other
inline script runs. A change to a script changes its hash, and the policy follows."""

from arena.league.uploads import MAX_UPLOAD_BYTES

PAGE_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}
table{border-collapse:collapse}td,th{padding:.3em .7em;border-bottom:1px solid #ddd;text-align:left}
tr{cursor:pointer}#error{color:#036}tr.chosen{background:#fff3c4}
"""

PAGE_SCRIPT = """
"use strict";
const $ = (id) => document.getElementById(id);
function cell(row, text) { const td = document.createElement("td"); td.textContent = String(text); row.append(td); }
function draw(rows) {
  const body = $("board"); body.replaceChildren();
  rows.forEach((r, i) => {
    const tr = document.createElement("tr");
    const f = (x) => (x === null || x === undefined) ? "-" : Number(x).toFixed(1);
    const elo = r.elo === null ? "-" : f(r.elo) + (r.elo_lo === null ? " (too few games)"
      : " (" + f(r.elo_lo) + " to " + f(r.elo_hi) + ")");
    [i + 1, r.bot, r.author, r.status, r.games, elo, r.failures || "-", f(r.mu), f(r.sigma), f(r.conservative)]
      .forEach((v) => cell(tr, v));
    tr.dataset.bot = r.bot;
    if (r.bot === chosen) tr.className = "chosen";
    tr.addEventListener("click", () => show(r.bot));
    body.append(tr);
  });
  fetch("/api/bots").then((r) => r.json()).then((bots) => {
    const list = $("bots"); list.replaceChildren();
    bots.forEach((b) => { const li = document.createElement("li");
      li.textContent = b.bot + " (" + b.author + "): " + b.status + (b.message ? ", " + b.message : "") + " ";
      const verbs = b.status === "active" ? ["retire", "remove"]
        : (b.status === "retired" || b.status === "failed") ? ["remove"] : [];
      verbs.forEach((verb) => {
        const button = document.createElement("button"); button.textContent = verb;
        button.className = verb; button.dataset.bot = b.bot;
        button.addEventListener("click", () => act("/api/bots/" + encodeURIComponent(b.bot) + "/" + verb));
        li.append(button, " ");
      });
      list.append(li); });
  });
}
let chosen = null;
function fill(id, rows) {
  const body = $(id); body.replaceChildren();
  rows.forEach((values) => { const tr = document.createElement("tr");
    values.forEach((v) => cell(tr, v)); body.append(tr); });
  $(id + "-table").hidden = rows.length === 0;
}
function show(label) {
  chosen = label;
  document.querySelectorAll("#board tr").forEach((tr) => {
    tr.className = tr.dataset.bot === label ? "chosen" : ""; });
  fetch("/api/bots/" + encodeURIComponent(label)).then((r) => r.json()).then((bot) => {
    const share = (a) => Math.round(100 * (a.ahead + a.level / 2) / (a.games || 1)) + "% of " +
      a.games;  // the share of games it finished ahead of that bot (a draw: half), and of how many
    fill("against", (bot.against || []).map((a) => [a.bot, share(a), a.ahead, a.level, a.behind]));
    fill("versions", (bot.versions || []).map((v) => [v.bot, v.status, v.games,
      v.sprt ? v.sprt.words : "the first version", v.sprt && v.sprt.against ? v.sprt.llr +
      " in [" + v.sprt.lower + ", " + v.sprt.upper + "]" : "-"]));
    fill("seats", (bot.by_seat || []).map((s) => [s.seat + 1, s.games, s.mean_place, s.first]));
    const t = bot.sprt;
    $("detail-title").textContent = "Games of " + bot.bot + " (" + bot.think_ms_per_decision +
      " ms a decision, " + bot.failures.length + " failures)" + (t ? "; SPRT against " +
      t.against + ": LLR " + t.llr + " in [" + t.lower + ", " + t.upper + "], " + t.verdict : "");
    const list = $("detail"); list.replaceChildren();
    (bot.games || []).slice(-50).reverse().forEach((g) => {
      const li = document.createElement("li"); const a = document.createElement("a");
      a.href = "/replay/" + encodeURIComponent(g.game_id); a.textContent = g.game_id;
      li.append(a, " " + g.players.join(" v ") + ": " + g.reason); list.append(li);
    });
  });
}
function act(path) {
  fetch(path, {method: "POST", headers: {"Authorization": "Bearer " + $("token").value}})
    .then((r) => r.json()).then((answer) => {
      $("error").textContent = answer.error || (answer.bot + ": " + answer.status);
      fetch("/api/leaderboard").then((r) => r.json()).then(draw);
    });
}
$("send").addEventListener("click", () => {
  const file = $("archive").files[0];
  if (!file) { $("error").textContent = "Choose an archive first."; return; }
  if (file.size > __MAX_MIB__ * 1048576) {
    $("error").textContent = "The archive is " + (file.size / 1048576).toFixed(1) +
      " MiB; a bot archive may be at most __MAX_MIB__ MiB (leave out build outputs and data).";
    return;
  }
  fetch("/api/bots", {method: "POST", body: file,
    headers: {"Authorization": "Bearer " + $("token").value}})
    .then((r) => r.json()).then((answer) => {
      $("error").textContent = answer.error || ("Submitted " + answer.bot + ": " + answer.status);
    });
});
fetch("/api/leaderboard").then((r) => r.json()).then(draw);
new EventSource("/api/events").onmessage = (event) => draw(JSON.parse(event.data));
""".replace("__MAX_MIB__", str(MAX_UPLOAD_BYTES >> 20))

JOIN_STYLE = (
    """body{font-family:system-ui,sans-serif;margin:2em;max-width:50em}#answer{color:#036}"""
)

JOIN_SCRIPT = """
"use strict";
const $ = (id) => document.getElementById(id);
$("join").addEventListener("click", () => {
  fetch("/api/join", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({invite: location.hash.slice(1), name: $("name").value})})
    .then((r) => r.json()).then((answer) => {
      if (answer.error) { $("answer").textContent = answer.error; return; }
      $("answer").textContent = "Welcome, " + answer.author + ". Your token (shown once):";
      $("token").textContent = answer.token;
    });
});
"""

PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mandala Arena league</title>
<style>{PAGE_STYLE}</style></head><body>
<h1>League: __GAME__</h1>
<p>The leaderboard updates by itself as games finish. Click a bot to highlight it and see
how it fared against each other bot, from each seat, and its games.</p>
<table><thead><tr><th>#</th><th>bot</th><th>author</th><th>status</th><th>games</th>
<th>Elo (95%)</th><th>failures</th><th>mu</th><th>sigma</th><th>mu − 3σ</th></tr></thead>
<tbody id="board"></tbody></table>
<h2 id="detail-title"></h2>
<table id="against-table" hidden><thead><tr><th>against</th><th>score (of games met)</th>
<th>ahead of it</th><th>level</th><th>behind it</th></tr></thead><tbody id="against"></tbody></table>
<table id="seats-table" hidden><thead><tr><th>seat</th><th>games</th><th>mean place</th>
<th>first</th></tr></thead><tbody id="seats"></tbody></table>
<table id="versions-table" hidden><thead><tr><th>version</th><th>status</th><th>games</th>
<th>its test</th><th>LLR (bounds)</th></tr></thead><tbody id="versions"></tbody></table>
<ul id="detail"></ul>
<h2>Submit a bot</h2>
<p>A .zip or .tar.gz of your bot's folder (with its bot.toml). Your token stays in this page.</p>
<p><input id="token" type="password" placeholder="your token (to submit, retire or remove)" size="50">
<input id="archive" type="file" accept=".zip,.tar.gz,.tgz"> <button id="send">Submit</button></p>
<p id="error"></p><h2>Bots</h2><ul id="bots"></ul>
<p>The same from scripts: <code>curl http://HOST:PORT/api/leaderboard</code>; README, "A live league".</p>
<script>{PAGE_SCRIPT}</script></body></html>
"""

JOIN_PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Join the league</title>
<style>{JOIN_STYLE}</style>
</head><body>
<h1>Join the league</h1>
<p>Choose your author's name (letters, digits, '_', '.', '-'). You get a token: keep it, it is
shown once. Give it to <code>arena submit</code> (<code>--token</code> or <code>$ARENA_TOKEN</code>)
or paste it in the <a href="/">league's page</a> to submit bots.</p>
<p><input id="name" placeholder="your name" size="30"> <button id="join">Join</button></p>
<p id="answer"></p><p><code id="token"></code></p>
<script>{JOIN_SCRIPT}</script></body></html>
"""
