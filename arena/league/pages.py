"""The league's two HTML pages (no build step): the leaderboard page and the invite's join
page. Every text from a bot or an author is put in with `textContent`, never as HTML.

Each page's script and style are constants of their own: the Content-Security-Policy
(`arena.league.exposure`) allows exactly these texts by their SHA-256 hashes, so no other
inline script runs. A change to a script changes its hash, and the policy follows."""

from arena.league.uploads import MAX_UPLOAD_BYTES

PAGE_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}
table{border-collapse:collapse}td,th{padding:.3em .7em;border-bottom:1px solid #ddd;text-align:left}
tr,span.bot{cursor:pointer}#error{color:#036}tr.chosen{background:#fff3c4}
"""

LIVE_SCRIPT = """
function live(url, onData, later) {  // a live leaderboard that comes back after a refusal
  // A browser retries an event stream that ended, but gives up for good on one refused (429:
  // too many from this address, 503: the league is full or restarting): then it is opened
  // again after 1 s, 2 s, 4 s ... up to 60 s (a quarter more at random, so the pages of a
  // restarted league do not all come back at once), and back to 1 s once one is open.
  let wait = 1000;
  const open = () => {
    const source = new EventSource(url);
    source.onopen = () => { wait = 1000; };
    source.onmessage = (event) => onData(JSON.parse(event.data));
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED) return;  // the browser retries this one
      source.close();
      later(open, wait * (1 + Math.random() / 4));
      wait = Math.min(wait * 2, 60000);
    };
  };
  open();
}
"""
"""The league page's live leaderboard (`/api/events`), a function of its own so that a test
can run it under Node with a stand-in EventSource."""

PAGE_SCRIPT = (
    """
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
    [i + 1, r.bot, r.author ?? "-", r.status ?? "-", r.games, elo, r.failures || "-", f(r.mu), f(r.sigma), f(r.conservative)]
      .forEach((v) => cell(tr, v));
    tr.dataset.bot = r.bot;
    if (r.bot === chosen) tr.className = "chosen";
    tr.addEventListener("click", () => show(r.bot));
    body.append(tr);
  });
  fetch("/api/bots").then((r) => r.json()).then((bots) => {
    const list = $("bots"); list.replaceChildren();
    bots.forEach((b) => { const li = document.createElement("li"); const name = document.createElement("span");
      name.textContent = b.bot + " (" + b.author + "): " + b.status + (b.message ? ", " + b.message : "") + " ";
      name.className = "bot"; name.addEventListener("click", () => show(b.bot)); li.append(name);  // its page
      const mine = me !== null && (me.admin || me.author === b.author);  // the server checks too
      const verbs = !mine ? [] : b.status === "active" ? ["retire", "remove"]
        : b.status === "retired" ? (me.admin ? ["unretire", "remove"] : ["remove"])
        : b.status === "failed" ? ["remove"] : [];
      verbs.forEach((verb) => {
        const button = document.createElement("button"); button.textContent = verb;
        button.className = verb; button.dataset.bot = b.bot;
        button.addEventListener("click", () => act("/api/bots/" + encodeURIComponent(b.bot) + "/" + verb));
        li.append(button, " ");
      });
      list.append(li); });
  });
}
let chosen = null, me = null, page = 1;
$("token").addEventListener("change", () => {
  me = null; $("who").textContent = "";
  const token = $("token").value.trim();
  const redraw = () => fetch("/api/leaderboard").then((r) => r.json()).then(draw);
  if (!token) { redraw(); return; }
  fetch("/api/me", {headers: {"Authorization": "Bearer " + token}}).then((r) => r.json())
    .then((answer) => {
      if (answer.error) $("who").textContent = answer.error;
      else { me = answer; $("who").textContent = "You are " + me.author + (me.admin ? " (admin)." : "."); }
      redraw();
      if (chosen) show(chosen);
    });
});
const SVG = "http://www.w3.org/2000/svg";
function svg(kind, attributes) {
  const element = document.createElementNS(SVG, kind);
  Object.entries(attributes).forEach(([k, v]) => element.setAttribute(k, String(v)));
  return element;
}
function chart(points) {
  const box = $("chart"); box.replaceChildren();
  $("chart-box").hidden = points.length < 2;
  if (points.length < 2) return;
  const width = 600, height = 160, pad = 30;
  const last = points[points.length - 1].games || 1;
  const low = Math.min(...points.map((p) => p.mu - p.sigma)), high = Math.max(...points.map((p) => p.mu + p.sigma));
  const x = (g) => pad + (width - 2 * pad) * g / last;
  const y = (v) => height - pad - (height - 2 * pad) * (v - low) / ((high - low) || 1);
  const band = points.map((p) => x(p.games) + "," + y(p.mu + p.sigma))
    .concat(points.slice().reverse().map((p) => x(p.games) + "," + y(p.mu - p.sigma)));
  box.append(svg("polygon", {points: band.join(" "), fill: "#dde8f5"}),
    svg("polyline", {points: points.map((p) => x(p.games) + "," + y(p.mu)).join(" "),
      fill: "none", stroke: "#036", "stroke-width": 2}));
  [[low, height - pad], [high, pad]].forEach(([v, at]) => {
    const label = svg("text", {x: 2, y: at, "font-size": 11}); label.textContent = v.toFixed(1); box.append(label); });
  const games = svg("text", {x: width - pad, y: height - 8, "font-size": 11, "text-anchor": "end"});
  games.textContent = last + " games"; box.append(games);
}
function games(label) {
  fetch("/api/bots/" + encodeURIComponent(label) + "/games?page=" + page).then((r) => r.json())
    .then((answer) => {
      if (answer.error || label !== chosen) return;
      const body = $("games"); body.replaceChildren();
      answer.games.forEach((g) => {
        const tr = document.createElement("tr"); const td = document.createElement("td");
        const a = document.createElement("a"); a.href = "/replay/" + encodeURIComponent(g.game_id);
        a.textContent = g.game_id; td.append(a); tr.append(td);
        tr.addEventListener("click", () => { location.href = a.href; });  // the row opens it
        [g.finished_at.slice(0, 19).replace("T", " "), g.seat, g.place + " of " + g.seats,
         g.players.map((p) => p.bot + " " + p.place + ". (" + p.score + ")").join(", "), g.end]
          .forEach((v) => cell(tr, v));
        body.append(tr);
      });
      $("detail").hidden = answer.total === 0;
      $("page").textContent = "page " + answer.page + " of " + answer.pages + " (" + answer.total + " games, newest first)";
      $("newer").disabled = answer.page <= 1; $("older").disabled = answer.page >= answer.pages;
      $("download").href = "/api/bots/" + encodeURIComponent(label) + "/games.zip";
    });
}
$("newer").addEventListener("click", () => { page = Math.max(1, page - 1); games(chosen); });
$("older").addEventListener("click", () => { page += 1; games(chosen); });
function fill(id, rows) {
  const body = $(id); body.replaceChildren();
  rows.forEach((values) => { const tr = document.createElement("tr");
    values.forEach((v) => cell(tr, v)); body.append(tr); });
  $(id + "-table").hidden = rows.length === 0;
}
function timeLosses(t) {
  if (!t || !t.total) return "";
  return ", " + t.total + " lost on time" + (t.machine_loaded ? " (" + t.machine_loaded +
    " with the machine loaded)" : " (the machine not loaded)");
}
function show(label) {
  if (label !== chosen) page = 1;
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
    fill("seats", (bot.by_seat || []).map((s) => [s.seat, s.games, s.mean_place, s.first]));  // 0 first
    const t = bot.sprt;
    const thinks = bot.think_ms_per_decision;  // null before its first rated game
    $("detail-title").textContent = "Games of " + bot.bot + " (" + (thinks === null ||
      thinks === undefined ? "no game yet" : thinks + " ms a decision") + ", " + bot.failures.length + " failures" + timeLosses(bot.time_losses) + ")";
    $("verdict").textContent = "Its version: " + bot.verdict + (t ? " (LLR " + t.llr + " in [" +
      t.lower + ", " + t.upper + "] after " + t.games + " games)" : "");
    chart(bot.history || []);
    games(label);
    $("play-box").hidden = !(me !== null && bot.status === "active");  // the server checks too
    humanGames(label);
  });
}
function humanResult(g) {  // a human game's result, from the bot's side: the human's place
  const ranks = g.ranks || [], seat = g.human_seat, place = ranks[seat];
  if (place === undefined || place === null) return "no result";
  const firsts = ranks.filter((r) => r === 0).length;
  if (place === 0) return firsts > 1 ? "the human shared first place" : "the human won";
  return "the bot won" + (ranks.length > 2 ? " (the human placed " + (place + 1) + ")" : "");
}
function humanGames(label) {  // the games people played against it (not rated)
  fetch("/api/play/games?bot=" + encodeURIComponent(label)).then((r) => r.json()).then((rows) => {
    const list = $("human-games"); list.replaceChildren();
    rows.forEach((g) => { const li = document.createElement("li"); const a = document.createElement("a");
      a.href = g.replay; a.textContent = g.game_id;
      li.append(a, " " + g.author + ": " + humanResult(g) + (g.reason ? " (" + g.reason + ")" : ""));
      list.append(li); });
    $("human-box").hidden = rows.length === 0;
  });
}
$("play").addEventListener("click", () => {
  fetch("/api/play", {method: "POST", body: JSON.stringify({bot: chosen}),
    headers: {"Authorization": "Bearer " + $("token").value.trim(), "Content-Type": "application/json"}})
    .then((r) => r.json()).then((answer) => {
      if (answer.error) { $("play-answer").textContent = answer.error; return; }
      sessionStorage.setItem("arena-seat-key", answer.key);  // the seat's page reads it: in no address
      localStorage.setItem("arena-seat-key:" + answer.page, answer.key);  // a closed tab rejoins
      location.assign(answer.page);
    });
});
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
      if (answer.error) $("error").textContent = answer.error;
      else follow(answer.bot);
    });
});
function follow(label) {  // a submitted version's status, told until its check is done
  fetch("/api/bots/" + encodeURIComponent(label)).then((r) => r.json()).then((b) => {
    if (b.error) return;
    $("error").textContent = "Submitted " + b.bot + ": " + b.status + (b.message ? " (" + b.message + ")" : "");
    if (b.status === "building" || b.status === "checking") setTimeout(() => follow(label), 2000);
  });
}
fetch("/api/leaderboard").then((r) => r.json()).then(draw);
live("/api/events", draw, setTimeout);
""".replace("__MAX_MIB__", str(MAX_UPLOAD_BYTES >> 20))
    + LIVE_SCRIPT
)

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
<table id="against-table" hidden><thead><tr><th>other bot</th><th>score (of games met)</th>
<th>games this bot finished ahead</th><th>level</th><th>games the other bot finished ahead</th>
</tr></thead><tbody id="against"></tbody></table>
<table id="seats-table" hidden><thead><tr><th>seat</th><th>games</th><th>mean place</th>
<th>first</th></tr></thead><tbody id="seats"></tbody></table>
<p id="verdict"></p>
<p id="play-box" hidden><button id="play">play this bot</button> in your browser (not rated;
one game at a time; closing its page loses the game) <span id="play-answer"></span></p>
<div id="human-box" hidden><p>Its games against people (not rated):</p><ul id="human-games"></ul></div>
<table id="versions-table" hidden><thead><tr><th>version</th><th>status</th><th>games</th>
<th>its test</th><th>LLR (bounds)</th></tr></thead><tbody id="versions"></tbody></table>
<div id="chart-box" hidden><p>TrueSkill mu after each of its games (the band: ± sigma)</p>
<svg id="chart" width="600" height="160" role="img" aria-label="rating history"></svg></div>
<div id="detail" hidden><table><thead><tr><th>game</th><th>finished (UTC)</th><th>seat</th>
<th>place</th><th>players: place (score)</th><th>end</th></tr></thead><tbody id="games"></tbody>
</table><p><button id="newer">newer</button> <span id="page"></span> <button id="older">older</button>
<a id="download" href="">download its games (.zip for arena report)</a></p></div>
<h2>Submit a bot</h2>
<p>A .zip or .tar.gz of your bot's folder (with its bot.toml), in one of the
<a href="/languages">languages this league builds</a>. Your token stays in this page.</p>
<p><input id="token" type="password" placeholder="your token (to submit, retire or remove)" size="50">
<span id="who"></span>
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
