// A spectator's page of a league's human game: the game's public view (never a seat's) drawn by
// the replay viewer's drawing (viewer.js), the last move and the moves so far as a seat of none
// hears them, asked of BASE/api/watch one request at a time; the replay's link once it is over.
"use strict";
(function () {
  const page = JSON.parse(document.getElementById("watch-data").textContent);
  const drawing = window.ArenaDrawing(page.players, page.cards || {});
  const { el, add, drawTree } = drawing;
  let told = [];  // the narrated lines so far (the server sends the new ones)
  let shown = "";  // the last position drawn (as JSON text)
  let more = false;  // lines are left to ask for
  let done = false;  // over, and its replay written: nothing more will come

  function say(text, error) {
    const status = document.getElementById("status");
    status.textContent = text;
    status.className = "sub" + (error ? " error" : "");
  }
  function drawBoard(data) {
    const board = document.getElementById("board");
    board.replaceChildren();
    if (data.last) add(board, el("p", "last-move", "Last move: " + drawing.who(data.last.seat) + ", " + data.last.text));
    if (data.view === null) return add(board, el("p", "none", "The game has not begun."));
    let drawn = null;
    try { drawn = drawing.draw[page.game](data.view, [], []); } catch (error) { drawn = null; }
    add(board, drawn || drawTree(data.view));
  }
  function drawEnd(data) {
    const box = document.getElementById("asked");
    box.replaceChildren();
    if (!data.over) return add(box, el("p", "none", "Only what every player sees is shown here: no seat's hand."));
    const outcome = data.outcome || {};
    add(box, el("h2", null, "Game over"), el("p", "reason", outcome.reason || ""));
    (outcome.scores || []).forEach((score, s) => add(box, el("div", null,
      drawing.who(s) + ": " + score + " points, place " + ((outcome.ranks || [])[s] + 1))));
    if (data.replay) {
      const link = add(box, el("a", "replay", "The whole game's replay, every seat's view and hand")).lastChild;
      link.href = page.base + "/replay";
    }
  }
  function render(data) {
    told = told.slice(0, data.told).concat(data.narration);
    const list = document.getElementById("narration");
    for (let i = list.childNodes.length; i < told.length; i++) add(list, el("li", null, told[i]));
    more = data.told + data.narration.length < data.lines;
    done = Boolean(data.over && data.replay);
    const text = JSON.stringify([data.view, data.last, data.over, data.replay]);
    if (text === shown) return;
    shown = text;
    drawBoard(data);
    drawEnd(data);
    const turn = data.view && data.view.deciding_seat !== undefined && data.view.deciding_seat !== null
      ? drawing.who(data.view.deciding_seat) + " to play." : "";
    say(data.over ? "The game is over." : "Watching the game. " + turn);
  }
  function poll() {
    return fetch(page.base + "/api/watch?told=" + told.length, { cache: "no-store" })
      .then((response) => response.json().then((data) => {
        if (!response.ok) say(data.error || "The league refused this page.", true);
        else render(data);
      }))
      .catch(() => say("The league did not answer; it may have stopped.", true));
  }
  function keepAsking() {
    if (done) return;
    window.setTimeout(() => poll().finally(keepAsking), more ? 100 : 1000);
  }
  poll().finally(keepAsking);
})();
