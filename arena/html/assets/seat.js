// The human seat's page: the seat's view drawn by the replay viewer's drawing (viewer.js), the
// legal moves clickable on the board and in the list, the clock, the moves so far narrated.
// It knows only what the server sends: the view and legal moves a bot would receive.
"use strict";
(function () {
  const page = JSON.parse(document.getElementById("seat-data").textContent);
  const drawing = window.ArenaDrawing(page.players, page.cards || {});
  const { el, add, drawTree } = drawing;
  const KEY_NAME = "arena-seat-key";
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get("key");
  if (fromHash) {
    window.sessionStorage.setItem(KEY_NAME, fromHash);
    window.history.replaceState(null, "", window.location.pathname);  // the key off the address bar
  }
  const key = window.sessionStorage.getItem(KEY_NAME) || "";
  const base = page.base || "";  // the table's address: "" on `arena play`'s own server
  let shown = "";  // the last state drawn (as JSON text, without its clock)
  let state = null;
  let askedAt = 0;  // when the state's clock was read
  let selected = [];  // the board's targets clicked so far in this decision
  let sending = false;
  let quick = 0;  // after a move: ask again soon this many times, for the next decision

  // Takenoko's moves of these keys alone are buttons above the board: an action, a deck, a
  // weather face, a chip kind from the clouds.
  const BUTTON_KEYS = ["action", "deck", "face", "kind"];
  // What a move may be chosen by on the board (the targets the drawing marks).
  function targets(move) {
    const colour = move.colour || move.color;
    const keys = Object.keys(move);
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
      if (!found.length && keys.every((k) => BUTTON_KEYS.includes(k))) found.push("action:" + JSON.stringify(move));
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
    if (sending || !state || !state.asked) return;
    sending = true;
    document.body.setAttribute("data-sent", state.asked.request);
    const body = JSON.stringify({ request: state.asked.request, move: index });
    fetch(base + "/api/move", { method: "POST", headers: { "X-Seat-Key": key, "Content-Type": "application/json" }, body })
      .then((response) => response.json().then((data) => {
        if (!response.ok) say(data.error || "The move was not taken.", true);
        else say("Move sent; waiting for the other seats...");
      }))
      .catch(() => say("The table did not answer; is `arena play` still running?", true))
      .finally(() => { sending = false; quick = 20; });
  }
  function choose(target) {
    let chosen = [...selected, target];
    if (!matching(chosen).length) chosen = [target];
    const found = matching(chosen);
    selected = chosen;
    if (found.length === 1) send(found[0]);
    else mark();
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
    if (state.view === null) return add(board, el("p", "none", "Your first decision has not come yet."));
    let drawn = null;
    try { drawn = drawing.draw[page.game](state.view, spots(asked), sides(asked)); } catch (error) { drawn = null; }
    add(board, drawn || drawTree(state.view));
  }
  function drawInfo() {
    const box = document.getElementById("asked");
    box.replaceChildren();
    const asked = state.asked;
    if (state.over) {
      const outcome = state.outcome || {};
      add(box, el("h2", null, "Game over"), el("p", "reason", outcome.reason || ""));
      (outcome.scores || []).forEach((score, s) => add(box, el("div", null,
        drawing.who(s) + ": " + score + " points, place " + (outcome.ranks[s] + 1))));
      if (state.replay) {
        const link = add(box, el("a", "replay", "The whole game's replay, every seat's view")).lastChild;
        link.href = base + "/replay";
        link.id = "replay-link";
      }
    } else if (asked) {
      add(box, el("h2", null, "Your " + asked.kind + " decision: click a move on the board or in the list"));
      const list = el("ol");
      list.id = "legal";
      list.start = 0;
      list.setAttribute("data-request", asked.request);
      asked.legal.forEach(({ move, text }, i) => {
        const item = add(list, el("li", null, text)).lastChild;
        item.setAttribute("data-targets", targets(move).join(" "));
        item.onclick = () => send(i);
      });
      add(box, list);
    } else add(box, el("p", "none", "The other seats are playing..."));
    const told = document.getElementById("narration");
    told.replaceChildren(...state.narration.map((line) => el("li", null, line)));
    told.scrollTop = told.scrollHeight;
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
    const { asked, ...rest } = data;
    const text = JSON.stringify([rest, asked && asked.request]);
    if (text !== shown) {
      shown = text;
      selected = [];
      drawBoard();
      drawInfo();
      mark();
      if (data.over) say("The game is over.");
      else say(asked ? "Your move, " + drawing.who(page.seat) + "." : "Waiting for the other seats...");
    }
    tick();
  }
  function poll() {  // one request at a time: the next is asked once this one is answered
    return fetch(base + "/api/state", { headers: { "X-Seat-Key": key }, cache: "no-store" })
      .then((response) => response.json().then((data) => {
        if (!response.ok) say(data.error || "The table refused this page.", true);
        else {
          if (data.asked || data.over) quick = 0;
          render(data);
        }
      }))
      .catch(() => say("The table is gone (the game ended, or `arena play` was stopped).", true));
  }
  function keepAsking() {
    const wait = quick > 0 ? 100 : 700;
    quick = Math.max(0, quick - 1);
    window.setTimeout(() => poll().finally(keepAsking), wait);
  }
  document.getElementById("board").addEventListener("click", (event) => {
    for (let node = event.target; node && node.id !== "board"; node = node.parentNode) {
      const target = node.getAttribute && node.getAttribute("data-target");
      if (target && node.classList.contains("clickable")) { choose(target); return; }
    }
  });
  poll().finally(keepAsking);
  window.setInterval(tick, 250);
})();
