// The human seat's page: the seat's view drawn by the replay viewer's drawing (viewer.js), the
// legal moves clickable on the board and in the list, the clock, the moves so far narrated.
// It knows only what the server sends: the view and legal moves a bot would receive, and the
// view as the game stands after each move (the board follows every seat's move).
"use strict";
(function () {
  const page = JSON.parse(document.getElementById("seat-data").textContent);
  const drawing = window.ArenaDrawing(page.players, page.cards || {});
  const { el, add, drawTree } = drawing;
  const KEY_NAME = "arena-seat-key";
  const base = page.base || "";  // the table's address: "" on `arena play`'s own server
  const KEPT_NAME = KEY_NAME + ":" + (base || window.location.host);  // a closed tab rejoins
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get("key");
  if (fromHash) {
    window.sessionStorage.setItem(KEY_NAME, fromHash);
    window.localStorage.setItem(KEPT_NAME, fromHash);
    window.history.replaceState(null, "", window.location.pathname);  // the key off the address bar
  }
  const key = window.sessionStorage.getItem(KEY_NAME) || window.localStorage.getItem(KEPT_NAME) || "";
  const title = document.title;
  let shown = "";  // the last state drawn (as JSON text, without its clock)
  let state = null;
  let told = [];  // the narrated lines so far (the server sends the new ones)
  let askedAt = 0;  // when the state's clock was read
  let selected = [];  // the board's targets clicked so far in this decision
  let proposed = null;  // the move the board's clicks chose, waiting for Confirm (its index)
  let sending = false;
  let resignAsked = 0;  // when Resign was clicked once (a second click within 5 s resigns)
  let quick = 0;  // after a move: ask again soon this many times, for the next decision
  let closed = false;  // Done was clicked after the game: the table is gone, nothing to ask

  // The your-turn signal: the header turns green, the title begins "(Your move)", and a short
  // beep made here (WebAudio: no file) when the turn comes, unless muted (kept in
  // localStorage). Browsers let a page sound only after a click or a key on it: until then the
  // sound is "locked". The body's data-sound (on, off, locked) and data-beeps say which.
  const SOUND_NAME = "arena-seat-sound";
  let audio = null;  // the AudioContext, made at the first click or key
  let beeps = 0;
  function sound() {
    if (window.localStorage.getItem(SOUND_NAME) === "off") return "off";
    return audio ? "on" : "locked";
  }
  function showSound() {
    const now = sound();
    const button = document.getElementById("sound");
    button.textContent = { on: "Sound: on", off: "Sound: off", locked: "Sound: on at your first click" }[now];
    button.setAttribute("aria-pressed", String(now !== "off"));
    document.body.setAttribute("data-sound", now);
  }
  function unlock() {  // a click or a key: the page may now sound
    if (audio || !window.AudioContext) return;
    try { audio = new window.AudioContext(); } catch (error) { audio = null; }
    showSound();
  }
  function beep() {
    if (sound() !== "on") return;
    try {
      if (audio.state === "suspended") audio.resume();
      const start = audio.currentTime;
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = 880;
      volume.gain.setValueAtTime(0.0001, start);
      volume.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, start + 0.25);
      tone.connect(volume).connect(audio.destination);
      tone.start(start);
      tone.stop(start + 0.3);
      beeps += 1;
      document.body.setAttribute("data-beeps", beeps);
    } catch (error) { /* no sound here: the title and the header still say it */ }
  }
  function toggleSound() {
    window.localStorage.setItem(SOUND_NAME, sound() === "off" ? "on" : "off");
    unlock();
    showSound();
  }

  // Takenoko's moves with nothing to click on the board are buttons above it: an action, a
  // deck, a weather face, a chip kind from the clouds, the order of plots put back...
  // What a move may be chosen by on the board (the targets the drawing marks).
  function targets(move) {
    const colour = move.colour || move.color;
    if (page.game === "mandala") {
      if (move.action === "build_mountain") return ["hand:" + colour, "mountain:" + move.mandala];
      if (move.action === "grow_field") return ["hand:" + colour, "field:" + move.mandala];
      if (move.action === "discard_redraw") return ["hand:" + colour, "discard"];
      if (move.action === "claim") return ["claim:" + colour];
    } else if (page.game === "flowers") {
      if (move.action === "play") return ["hand:" + colour, "mandala:" + move.mandala];
      if (move.action === "take") return ["tile:" + colour];
    } else if (page.game === "takenoko") {
      const found = [];
      if (move.plot) found.push("plot:" + move.plot);
      if (typeof move.card === "string") found.push("card:" + move.card);
      if (Array.isArray(move.to)) found.push("hex:" + move.to.join(","));
      if (Array.isArray(move.edge)) found.push("edge:" + move.edge.map((c) => c.join(",")).join("|"));
      if (!found.length) found.push("action:" + JSON.stringify(move));  // a button above the board
      return found;
    }
    return [];
  }
  function matching(chosen) {
    const legal = state.asked ? state.asked.legal : [];
    return legal.map((m, i) => i).filter((i) => chosen.every((t) => targets(legal[i].move).includes(t)));
  }
  function sides(asked) {  // Takenoko: the sides a channel may go on
    if (!asked || page.game !== "takenoko") return [];
    return asked.legal.map(({ move }) => move.edge).filter((edge) => Array.isArray(edge));
  }
  function spots(asked) {  // Takenoko: the empty cells a plot may go to
    if (!asked || page.game !== "takenoko") return [];
    const tiles = new Set(asked.view.board.tiles.map((t) => t.at.join(",")));
    const cells = new Map();
    for (const { move } of asked.legal) {
      if (move.action === "place" && Array.isArray(move.to) && !tiles.has(move.to.join(","))) cells.set(move.to.join(","), move.to);
    }
    return [...cells.values()];
  }

  function say(text, error) {
    const status = document.getElementById("status");
    status.textContent = text;
    status.className = "sub" + (error ? " error" : "");
  }
  function send(index) {
    if (!state || !state.asked) return;
    if (sending) { say("Your move is on its way; wait for the table's answer."); return; }
    sending = true;
    proposed = null;
    document.body.setAttribute("data-sent", state.asked.request);
    document.body.classList.add("pending");
    say("Sending your move: " + state.asked.legal[index].text + "...");
    const body = JSON.stringify({ request: state.asked.request, move: index });
    fetch(base + "/api/move", { method: "POST", headers: { "X-Seat-Key": key, "Content-Type": "application/json" }, body })
      .then((response) => response.json().then((data) => {
        if (!response.ok) say(data.error || "The move was not taken.", true);
        else say("Move sent; the other seats are playing...");
      }))
      .catch(() => say("The table did not answer; is `arena play` still running?", true))
      .finally(() => { sending = false; quick = 20; document.body.classList.remove("pending"); });
  }
  function resign() {
    const now = Date.now();
    if (now - resignAsked > 5000) {
      resignAsked = now;
      say("Click Resign again within 5 seconds to give the game up.", true);
      return;
    }
    fetch(base + "/api/resign", { method: "POST", headers: { "X-Seat-Key": key } })
      .then(() => say("You resigned."))
      .catch(() => say("The table did not answer.", true));
  }
  function finish() {  // Done, after the game: the command serving this page ends
    fetch(base + "/api/done", { method: "POST", headers: { "X-Seat-Key": key } })
      .then((response) => response.json().then((data) => {
        if (!response.ok) { say(data.error || "The table did not close.", true); return; }
        closed = true;
        const done = document.getElementById("done");
        if (done) done.remove();
        say("Done: `arena play` has ended; the record and its replay stay where it printed them.");
      }))
      .catch(() => say("The table is gone already.", true));
  }
  // The board's clicks narrow the legal moves; one left is proposed (Confirm or Undo); several
  // that the board cannot tell apart (how many cards, which order, which colour) are offered
  // as buttons above the board.
  function choose(target) {
    let chosen = [...selected, target];
    if (!matching(chosen).length) {
      chosen = [target];
      if (selected.length) say("That does not go with your earlier click: a new choice begins with it.");
    }
    selected = chosen;
    const found = matching(chosen);
    proposed = found.length === 1 ? found[0] : null;
    prompt();
    mark();
  }
  function undo() {
    selected = [];
    proposed = null;
    prompt();
    mark();
  }
  function narrowable(found) {  // whether a further click on the board can still tell `found` apart
    const legal = state.asked.legal;
    return found.some((i) => targets(legal[i].move).some((t) => !selected.includes(t)));
  }
  function prompt() {
    const box = document.getElementById("prompt");
    box.replaceChildren();
    if (!state || !state.asked || state.over) return;
    const legal = state.asked.legal;
    const button = (text, cls, action) => {
      const node = add(box, el("button", cls, text)).lastChild;
      node.onclick = action;
      return node;
    };
    if (proposed !== null) {
      add(box, el("span", "question", "Play: " + legal[proposed].text + "?"));
      button("Confirm", "confirm", () => send(proposed)).focus();
      button("Undo", "undo", undo);
      return;
    }
    const found = selected.length ? matching(selected) : [];
    if (found.length > 1 && !narrowable(found)) {
      add(box, el("span", "question", "Which one?"));
      found.forEach((i) => button(legal[i].text, "choice", () => send(i)).setAttribute("data-move", i));
      button("Undo", "undo", undo);
    } else if (found.length > 1) {
      add(box, el("span", "question", found.length + " moves fit: click on the board to choose among them."));
      button("Undo", "undo", undo);
    }
  }
  function mark() {  // which board targets and list moves fit the clicks so far
    const found = new Set(matching(selected));
    const clickable = new Set();
    if (state.asked) state.asked.legal.forEach(({ move }) => targets(move).forEach((t) => clickable.add(t)));
    for (const node of document.querySelectorAll("#board [data-target]")) {
      const target = node.getAttribute("data-target");
      node.classList.toggle("clickable", clickable.has(target));
      node.classList.toggle("selected", selected.includes(target));
    }
    document.querySelectorAll("#legal li").forEach((item, i) => {
      item.classList.toggle("candidate", selected.length > 0 && found.has(i));
    });
  }
  function markLast() {  // where the last move was made, on the board
    const last = state.last;
    const mine = last && last.seat === page.seat;  // a Field marked on the board is this seat's
    const where = last && last.move ? targets(last.move).filter((t) => !t.startsWith("hand:") && !t.startsWith("action:")
      && (mine || !t.startsWith("field:"))) : [];
    for (const node of document.querySelectorAll("#board [data-target]")) {
      node.classList.toggle("last", where.includes(node.getAttribute("data-target")));
    }
  }

  function drawBoard() {
    const board = document.getElementById("board");
    board.replaceChildren();
    const asked = state.asked;
    if (asked) {
      const actions = el("div", "actions");
      asked.legal.forEach(({ move, text }) => {
        if (!targets(move).some((t) => t.startsWith("action:"))) return;
        const button = add(actions, el("button", "action", text)).lastChild;
        button.setAttribute("data-target", targets(move)[0]);
      });
      if (actions.childNodes.length) add(board, actions);
    }
    if (state.last) add(board, el("p", "last-move", "Last move: " + drawing.who(state.last.seat) + ", " + state.last.text));
    if (state.view === null) return add(board, el("p", "none", "Your first decision has not come yet."));
    let drawn = null;
    try { drawn = drawing.draw[page.game](state.view, spots(asked), sides(asked)); } catch (error) { drawn = null; }
    add(board, drawn || drawTree(state.view));
  }
  function verdict(outcome) {  // the end screen's first line: who won, from this seat's side
    const ranks = outcome.ranks || [];
    if (!ranks.length) return "Game over";
    const firsts = ranks.map((r, s) => (r === 0 ? s : -1)).filter((s) => s >= 0);
    if (ranks[page.seat] === 0) return firsts.length > 1 ? "Game over: you share first place" : "Game over: you won";
    return "Game over: you lost; " + firsts.map((s) => drawing.who(s)).join(" and ") + (firsts.length > 1 ? " share first place" : " won");
  }
  function drawInfo() {
    const box = document.getElementById("asked");
    box.replaceChildren();
    const asked = state.asked;
    if (state.over) {
      const outcome = state.outcome || {};
      add(box, el("h2", null, verdict(outcome)), el("p", "reason", outcome.reason || ""));
      (outcome.scores || []).forEach((score, s) => add(box, el("div", null,
        (s === page.seat ? "You, " : "") + drawing.who(s) + ": " + score + " points, place " + (outcome.ranks[s] + 1))));
      if (state.replay) {
        const text = "The whole game's replay, every seat's view and hand" + (page.done ? " (a new tab)" : "");
        const link = add(box, el("a", "replay", text)).lastChild;
        link.href = base + "/replay";
        link.id = "replay-link";
        if (page.done) { link.target = "_blank"; link.rel = "noopener"; }  // this page stays: the table
      }
      if (page.done && state.replay) {
        const done = add(box, el("button", "done", "Done: close the table")).lastChild;
        done.id = "done";
        done.title = "Ends `arena play` (the record and its replay are kept)";
        done.onclick = finish;
      }
    } else if (asked) {
      add(box, el("h2", null, "Your " + asked.kind + " decision: click a move on the board or in the list (keys: Tab, Enter)"));
      const list = el("ol");
      list.id = "legal";
      list.start = 0;
      list.setAttribute("data-request", asked.request);
      asked.legal.forEach(({ move, text }, i) => {
        const item = add(list, el("li", null, text)).lastChild;
        item.setAttribute("data-targets", targets(move).join(" "));
        item.tabIndex = 0;
        item.setAttribute("role", "button");
        item.onclick = () => send(i);
        item.onkeydown = (event) => {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); send(i); }
          else if (event.key === "ArrowDown" && item.nextSibling) { event.preventDefault(); item.nextSibling.focus(); }
          else if (event.key === "ArrowUp" && item.previousSibling) { event.preventDefault(); item.previousSibling.focus(); }
        };
      });
      add(box, list);
      const active = document.activeElement;
      if (!active || active === document.body || !document.body.contains(active)) list.firstChild.focus({ preventScroll: true });
    } else add(box, el("p", "none", "The other seats are playing..."));
  }
  function drawNarration(data) {
    told = told.slice(0, data.told).concat(data.narration);
    const list = document.getElementById("narration");
    const end = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    for (let i = list.childNodes.length; i < told.length; i++) add(list, el("li", null, told[i]));
    if (end) list.scrollTop = list.scrollHeight;
  }
  function tick() {
    const clock = document.getElementById("clock");
    if (!state || !state.asked) { clock.textContent = ""; return; }
    const left = Math.max(0, state.asked.ms_left - (Date.now() - askedAt)) / 1000;
    clock.textContent = "Your clock: " + Math.floor(left / 60) + ":" + String(Math.floor(left % 60)).padStart(2, "0");
    clock.classList.toggle("short", left < 30);
  }
  function render(data) {
    state = data;
    askedAt = Date.now();
    drawNarration(data);
    const { asked, narration, told: from, lines, ...rest } = data;
    const text = JSON.stringify([rest, asked && asked.request]);
    if (text !== shown) {
      const turnCame = asked && !JSON.parse(shown || "[null, null]")[1];
      shown = text;
      selected = [];
      proposed = null;
      drawBoard();
      drawInfo();
      mark();
      markLast();
      prompt();
      document.body.classList.toggle("your-turn", Boolean(asked) && !data.over);
      document.getElementById("resign").hidden = Boolean(data.over);
      document.title = (data.over ? "(Game over) " : asked ? "(Your move) " : "") + title;
      if (data.over) window.localStorage.removeItem(KEPT_NAME);  // no seat to come back to
      if (data.over) say("The game is over.");
      else if (asked) say((turnCame ? "Your turn has come, " : "Your move, ") + drawing.who(page.seat) + ".");
      else say("Waiting for the other seats...");
      if (turnCame && !data.over) beep();
    }
    tick();
  }
  function poll() {  // one request at a time: the next is asked once this one is answered
    return fetch(base + "/api/state?told=" + told.length, { headers: { "X-Seat-Key": key }, cache: "no-store" })
      .then((response) => response.json().then((data) => {
        if (!response.ok) say(data.error || "The table refused this page.", true);
        else {
          if (data.asked || data.over) quick = 0;
          render(data);
          if (data.told + data.narration.length < data.lines) quick = Math.max(quick, 1);
        }
      }))
      .catch(() => closed || say("The table is gone (the game ended, or `arena play` was stopped).", true));
  }
  function keepAsking() {
    if (closed) return;
    const waiting = state && !state.asked && !state.over;  // the others play: the board follows them
    const wait = quick > 0 ? 100 : waiting ? 300 : 700;
    quick = Math.max(0, quick - 1);
    window.setTimeout(() => poll().finally(keepAsking), wait);
  }
  document.getElementById("board").addEventListener("click", (event) => {
    for (let node = event.target; node && node.id !== "board"; node = node.parentNode) {
      const target = node.getAttribute && node.getAttribute("data-target");
      if (target && node.classList.contains("clickable")) { choose(target); return; }
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && (selected.length || proposed !== null)) undo();
  });
  document.getElementById("resign").onclick = resign;
  document.getElementById("sound").onclick = toggleSound;
  document.addEventListener("click", unlock, true);
  document.addEventListener("keydown", unlock, true);
  showSound();
  if (!key && page.watch) { window.location.replace(page.watch); return; }  // a spectator's page
  if (!key) {  // a visitor at someone else's seat: nothing of the seat is shown, the replay later
    document.getElementById("resign").hidden = true;
    document.getElementById("sound").hidden = true;
    say("This page is the seat of the player who started the game: only they see its board.");
    const box = document.getElementById("asked");
    add(box, el("h2", null, "A game in progress"),
      el("p", null, "A seat's view is its player's alone. The whole game's replay opens here once the game is over:"));
    const link = add(box, el("a", "replay", "the game's replay (once it is over)")).lastChild;
    link.href = base + "/replay";
    return;
  }
  poll().finally(keepAsking);
  window.setInterval(tick, 250);
})();
