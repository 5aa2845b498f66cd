// The replay viewer and the drawing of each game's view (shared with the human seat's page).
// Every text from the record goes into the page with textContent, never as HTML.
"use strict";
// ArenaDrawing(names, cards) gives el, add, who, row, drawTree and draw[game](view, spots);
// `cards` are Takenoko's objective cards by id (Game.card_meanings: arena/games/takenoko/card_words.py).
window.ArenaDrawing = function (names, CARDS) {
  const COLOURS = {
    black: "#222", grey: "#8a8a8a", purple: "#7b3fa0", red: "#c62828",
    green: "#2e7d32", orange: "#ef6c00", yellow: "#e0b000", G: "#7cb342", Y: "#fdd835", P: "#f48fb1",
  };
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function add(parent, ...children) {
    for (const child of children) if (child) parent.appendChild(child);
    return parent;
  }
  function who(s) {
    return "seat " + s + " (" + (s < names.length ? names[s] : "?") + ")";
  }
  function row(label, ...content) {
    return add(el("div", "row"), el("span", "label", label), ...content);
  }
  function card(colour, count, down) {
    const node = el("span", "card" + (down ? " down" : ""), count > 1 ? count : "");
    node.style.background = COLOURS[colour] || "#555";
    node.title = (count > 1 ? count + " " : "") + colour + (down ? " (face down)" : "");
    return node;
  }
  // `target`: each card is marked data-target="TARGET:colour" (what the human seat clicks).
  function pile(cards, down, target) {
    const box = el("span", "pile");
    let any = false;
    for (const [colour, count] of Object.entries(cards || {})) {
      if (count <= 0) continue;
      const node = add(box, card(colour, count, down)).lastChild;
      if (target) node.dataset.target = target + ":" + colour;
      any = true;
    }
    if (!any) add(box, el("span", "none", "none"));
    return box;
  }
  function tile(name) {
    const [colour, value] = String(name).split(" ");
    const node = el("span", "tile", value);
    node.style.background = COLOURS[colour] || "#555";
    node.title = name;
    return node;
  }
  function backs(count) {
    const box = el("span", "hidden-hand", count + " cards ");
    for (let i = 0; i < Math.min(count, 12); i++) add(box, el("span", "back"));
    return box;
  }
  function handOf(view, s) {
    if (view.hands) return pile(view.hands[s]);
    if (view.seat === s) return pile(view.hand, false, "hand");
    return backs(view.players[s].hand_size);
  }

  function drawMandala(view) {
    const board = el("div");
    const discard = row("discard", pile(view.discard));
    discard.dataset.target = "discard";
    add(board, row("deck", el("span", null, view.deck_size + " cards")), discard);
    const mandalas = add(el("div", "grid3"));
    view.mandalas.forEach((m, i) => {
      const active = view.destroying && view.destroying.mandala === i;
      const box = add(el("div", "box mandala" + (active ? " active" : "")), el("h3", null, "Mandala " + i));
      const fields = [0, 1].map((s) => row("Field of " + who(s), pile(m.fields[s])));
      if (view.seat !== undefined && fields[view.seat]) fields[view.seat].dataset.target = "field:" + i;
      const mountain = row("Mountain", pile(m.mountain, false, active ? "claim" : null));
      mountain.dataset.target = "mountain:" + i;
      add(box, fields[1], mountain, fields[0]);
      add(mandalas, box);
    });
    add(board, mandalas);
    const players = el("div", "grid3");
    view.players.forEach((p, s) => {
      const box = add(el("div", "box player"), el("h3", null, who(s)));
      box.dataset.seat = s;
      const river = el("span");
      p.river.forEach((colour, slot) => add(river, card(colour, slot + 1)));
      if (!p.river.length) add(river, el("span", "none", "empty"));
      let cup;
      if (view.cups) cup = pile(view.cups[s]);
      else if (view.seat === s) cup = pile(view.cup);
      else cup = add(el("span"), pile(p.cup_claimed), el("span", "hidden-hand", " + " + p.cup_unknown + " unseen"));
      const hand = row("hand", handOf(view, s));
      hand.classList.add("hand");
      add(box, hand, row("River", river), row("Cup", cup));
      add(players, box);
    });
    return add(board, players);
  }

  function drawFlowers(view) {
    const board = el("div");
    add(board, row("deck", el("span", null, view.deck_size + " cards")), row("discard", pile(view.discard)),
      row("tile stacks", el("span", null, view.stacks.dark + " dark, " + view.stacks.light + " light")));
    const mandalas = el("div", "grid3");
    view.mandalas.forEach((m, i) => {
      const active = view.destroying && view.destroying.mandala === i;
      const box = add(el("div", "box mandala" + (active ? " active" : "")), el("h3", null, "Mandala " + i));
      box.dataset.target = "mandala:" + i;
      const tiles = el("span");
      m.tiles.forEach((t) => { add(tiles, tile(t)).lastChild.dataset.target = "tile:" + String(t).split(" ")[0]; });
      if (!m.tiles.length) add(tiles, el("span", "none", "no tiles"));
      add(box, row("tiles", tiles), row("marker", el("span", null, m.marker === null ? "centre" : who(m.marker))));
      m.sides.forEach((side, s) => {
        if (!side.cards) return;
        const cards = el("span");
        for (const [faces, down] of [[side.face_up, false], [side.face_down, true]]) {
          for (const [colour, count] of Object.entries(faces)) if (count > 0) add(cards, card(colour, count, down));
        }
        const label = row("seat " + s, cards);
        label.title = who(s) + ": " + side.cards + " cards (striped: face down)";
        add(box, label);
      });
      add(mandalas, box);
    });
    add(board, mandalas);
    const players = el("div", "grid3");
    view.players.forEach((p, s) => {
      const box = add(el("div", "box player"), el("h3", null, who(s) + ": " + p.score + " points"));
      box.dataset.seat = s;
      const hand = row("hand", handOf(view, s));
      hand.classList.add("hand");
      const singles = el("span");
      p.singles.forEach((t) => add(singles, tile(t)));
      if (!p.singles.length) add(singles, el("span", "none", "none"));
      const flowers = el("span");
      p.flowers.forEach((pair) => add(flowers, add(el("span", "flower"), tile(pair[0]), tile(pair[1]))));
      if (!p.flowers.length) add(flowers, el("span", "none", "none"));
      add(box, hand, row("tiles", singles), row("Flowers", flowers));
      add(players, box);
    });
    return add(board, players);
  }

  const SVG = "http://www.w3.org/2000/svg";
  const PLOT_COLOURS = { G: "#7cb342", Y: "#fdd835", P: "#f48fb1" };
  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  const TILE_FILLS = { pond: "#4fc3f7", kami_garden: "#ce93d8", cabin: "#a1887f" };
  function cardPicture(meaning) {
    const s = 5.5, hexAt = (q, r) => [s * Math.sqrt(3) * (q + r / 2), s * 1.5 * r];
    const hexPoints = (x, y, size) => [0, 1, 2, 3, 4, 5].map((i) => {
      const angle = Math.PI / 180 * (60 * i - 30);
      return `${x + size * Math.cos(angle)},${y + size * Math.sin(angle)}`;
    }).join(" ");
    const picture = svg("svg", { width: 34, height: 28, viewBox: "-9 -13 34 28", class: "card-shape" });
    if (meaning.kind === "plot") {
      for (const [q, r, colour] of meaning.cells) {
        const [x, y] = hexAt(q, r);
        picture.appendChild(svg("polygon", { points: hexPoints(x, y, s - 0.4), fill: PLOT_COLOURS[colour],
          stroke: "#555", "stroke-width": 0.6 }));
      }
    } else if (meaning.kind === "gardener") {
      picture.appendChild(svg("polygon", { points: hexPoints(3, 1, 11), fill: PLOT_COLOURS[meaning.colours[0]],
        stroke: "#555", "stroke-width": 0.6 }));
      picture.appendChild(svg("text", { x: 3, y: 5, "text-anchor": "middle", "font-size": 11, "font-weight": 700,
        fill: "#1b5e20" }, "|".repeat(meaning.height)));
    } else {
      meaning.colours.forEach((colour, i) => picture.appendChild(svg("circle", { cx: -3 + i * 9, cy: 1, r: 4,
        fill: PLOT_COLOURS[colour], stroke: "#555", "stroke-width": 0.6 })));
    }
    return picture;
  }
  function objective(id, met) {
    const meaning = CARDS[id];
    const node = el("span", "objective" + (met === true ? " met" : ""));
    node.dataset.card = id;
    node.dataset.target = "card:" + id;  // the human seat completes a card by clicking it
    if (!meaning) return add(node, el("span", null, id));
    node.title = id + ": " + meaning.kind + " card, " + meaning.text + ", " + meaning.points + " points";
    const head = add(el("span", "head"), el("b", null, id), el("span", "points", meaning.points + " pts"));
    if (met !== undefined) add(head, el("span", "met-or-not", met ? "met" : "not met"));
    return add(node, cardPicture(meaning), add(el("span", "words"), head, el("span", "meaning", meaning.text)));
  }
  function objectives(ids, metIds) {
    const box = el("span", "objectives");
    for (const id of ids) add(box, objective(id, metIds ? metIds.includes(id) : undefined));
    if (!ids.length) add(box, el("span", "none", "none"));
    return box;
  }
  function stomach(sections) {
    const box = el("span", "pile");
    for (const [colour, count] of Object.entries(sections || {})) {
      if (count <= 0) continue;
      const node = el("span", "card", count);
      node.style.background = COLOURS[colour] || "#555";
      node.title = count + " " + colour;
      add(box, node);
    }
    if (!box.childNodes.length) add(box, el("span", "none", "none"));
    return box;
  }
  const TILE_LABELS = { kami_garden: "Kami", cabin: "Cabin", sacred_hill: "hill" };

  // `spots`: empty cells to draw too (where the human seat may place a plot), [q, r] each;
  // `sides`: sides of hexes where it may place a channel, [[q, r], [q, r]] each.
  // Takenoko's turn as it stands: turn and round, the actions left and taken, the Emperor.
  function takenokoTurn(view) {
    const parts = [];
    if (view.turn !== undefined) parts.push("turn " + (view.turn + 1) + (view.round !== undefined ? ", round " + view.round : ""));
    if (view.deciding_seat !== undefined && view.deciding_seat !== null) parts.push(who(view.deciding_seat) + " to play");
    if (view.actions_left !== undefined) parts.push(view.actions_left + " action" + (view.actions_left === 1 ? "" : "s") + " left");
    if (view.actions_taken && view.actions_taken.length) parts.push("taken: " + view.actions_taken.join(", "));
    if (view.emperor !== undefined && view.emperor !== null) {
      parts.push("the Emperor went to " + who(view.emperor) + (view.final_turns ? "; final turns left: " + view.final_turns : ""));
    }
    return row("turn", el("span", "turn", parts.join("; ")));
  }
  function drawTakenoko(view, spots, sides) {
    const board = el("div");
    const size = 26;
    const centre = ([q, r]) => [size * Math.sqrt(3) * (q + r / 2), size * 1.5 * r];
    const hexCorners = (x, y) => [0, 1, 2, 3, 4, 5].map((i) => {
      const angle = Math.PI / 180 * (60 * i - 30);
      return `${x + size * Math.cos(angle)},${y + size * Math.sin(angle)}`;
    }).join(" ");
    const empty = spots || [];
    const points = [...view.board.tiles.map((t) => t.at), ...empty].map(centre);
    const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
    const pad = size + 6;
    const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
    const width = Math.max(...xs) - minX + pad, height = Math.max(...ys) - minY + pad;
    const picture = svg("svg", { viewBox: `${minX} ${minY} ${width} ${height}`, width: Math.min(620, width * 1.6),
      class: "hexes" });
    for (const tile of view.board.tiles) {
      const [x, y] = centre(tile.at);
      const fill = TILE_FILLS[tile.kind] || PLOT_COLOURS[tile.colour] || "#ccc";
      const hex = svg("polygon", { points: hexCorners(x, y), fill, stroke: tile.irrigated ? "#0277bd" : "#795548",
        "stroke-width": tile.irrigated ? 2.5 : 1, "data-kind": tile.kind, "data-target": "hex:" + tile.at.join(",") });
      hex.appendChild(svg("title", {}, `${tile.at.join(",")} ${tile.kind} ${tile.colour || ""} ${tile.improvement || ""} ` +
        `bamboo ${tile.bamboo}${tile.irrigated ? ", irrigated" : ""}`));
      picture.appendChild(hex);
      if (TILE_LABELS[tile.kind]) picture.appendChild(svg("text", { x, y: y + 12, "text-anchor": "middle",
        "font-size": 7, fill: "#333" }, TILE_LABELS[tile.kind]));
      picture.appendChild(svg("text", { x, y: y + 19.5, "text-anchor": "middle", "font-size": 6.5, fill: "#444",
        class: "coordinates" }, tile.at.join(",")));
      if (tile.stacks) {
        picture.appendChild(svg("text", { x, y: y + 4, "text-anchor": "middle", "font-size": 7.5, "font-weight": 700,
          fill: "#1b5e20" }, Object.entries(tile.stacks).map(([c, n]) => c + n).join(" ")));
      } else if (tile.bamboo) picture.appendChild(svg("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 15,
        "font-weight": 700, fill: "#1b5e20" }, "|".repeat(tile.bamboo)));
      if (tile.improvement) picture.appendChild(svg("text", { x, y: y - 10, "text-anchor": "middle", "font-size": 7,
        fill: "#333", class: "improvement" }, tile.improvement));
    }
    for (const at of empty) {
      const [x, y] = centre(at);
      const spot = svg("polygon", { points: hexCorners(x, y), fill: "#fff", "fill-opacity": 0.5, stroke: "#999",
        "stroke-dasharray": "3 2", "data-target": "hex:" + at.join(","), class: "spot" });
      spot.appendChild(svg("title", {}, `${at.join(",")} empty`));
      picture.appendChild(spot);
      picture.appendChild(svg("text", { x, y: y + 3, "text-anchor": "middle", "font-size": 7, fill: "#666",
        "pointer-events": "none" }, at.join(",")));
    }
    const edge = ([a, b], attrs) => {  // the side two hexes share
      const [ax, ay] = centre(a), [bx, by] = centre(b);
      const mx = (ax + bx) / 2, my = (ay + by) / 2, dx = (by - ay) / 2.2, dy = -(bx - ax) / 2.2;
      return svg("line", { x1: mx - dx / Math.sqrt(3), y1: my - dy / Math.sqrt(3),
        x2: mx + dx / Math.sqrt(3), y2: my + dy / Math.sqrt(3), ...attrs });
    };
    for (const channel of view.board.channels) picture.appendChild(edge(channel, { stroke: "#0288d1", "stroke-width": 4 }));
    const band = (side, attrs) => {  // the same side as a thin band: a target easy to click
      const line = edge(side, {});
      const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((k) => Number(line.getAttribute(k)));
      const length = Math.hypot(x2 - x1, y2 - y1) || 1, nx = -(y2 - y1) / length * 4, ny = (x2 - x1) / length * 4;
      const points = [[x1 + nx, y1 + ny], [x2 + nx, y2 + ny], [x2 - nx, y2 - ny], [x1 - nx, y1 - ny]];
      return svg("polygon", { points: points.map((p) => p.join(",")).join(" "), ...attrs });
    };
    for (const side of sides || []) {  // where the human seat may place a channel
      picture.appendChild(band(side, { fill: "#0288d1", "fill-opacity": 0.35, stroke: "#0288d1",
        "stroke-dasharray": "3 2", "data-target": "edge:" + side.map((c) => c.join(",")).join("|"), class: "side" }));
    }
    const figures = [["G", view.board.gardener, "#5d4037", -9, -4], ["P", view.board.panda, "#000", 9, 8]];
    if (view.board.miss_panda) figures.push(["M", view.board.miss_panda, "#d81b60", 0, -14]);
    for (const [who, at, colour, dx, dy] of figures) {
      const [x, y] = centre(at);
      picture.appendChild(svg("circle", { cx: x + dx, cy: y + dy, r: 7, fill: colour, class: "figure" }));
      picture.appendChild(svg("text", { x: x + dx, y: y + dy + 3, "text-anchor": "middle",
        "font-size": 8, fill: "#fff" }, who));
    }
    add(board, takenokoTurn(view), row("plots left", el("span", null, view.plot_deck)),
      row("weather", el("span", null, view.weather || "-")));
    if (view.objective_decks) {
      const decks = Object.entries(view.objective_decks).map(([kind, n]) => n + " " + kind);
      add(board, row("objective decks", el("span", null, decks.join(", "))));
    }
    const chibis = view.options && view.options.chibis;
    if (chibis) add(board, row("babies left", el("span", null, (view.baby_pool || []).join(" ") || "none")));
    if (view.baby) add(board, row("baby's bonus", el("span", "pending", "pending: " + JSON.stringify(view.baby))));
    if (view.cabin && view.cabin.length) add(board, row("the Cabin", objectives(view.cabin)));
    if (view.drawn && view.drawn.length) {  // the plots this seat drew, to place one
      const drawn = el("span", "pile");
      for (const id of view.drawn) {
        const plot = add(drawn, el("span", "card plot", id)).lastChild;
        plot.style.background = PLOT_COLOURS[String(id).charAt(1)] || "#555";
        plot.style.color = "#222";
        plot.dataset.target = "plot:" + id;
      }
      add(board, row("plots drawn", drawn));
    }
    add(board, picture);
    const players = el("div", "grid3");
    view.players.forEach((p, s) => {
      const box = add(el("div", "box player"), el("h3", null, who(s) + ": " + p.score + " points"));
      box.dataset.seat = s;
      const met = view.met_cards ? view.met_cards[s] : undefined;
      let hand;
      if (view.hands) hand = objectives(view.hands[s], met);
      else if (view.seat === s) hand = objectives(view.hand, met);
      else hand = el("span", "hidden-hand", p.hand_size + " cards");
      const handRow = row("hand", hand);
      handRow.classList.add("hand");
      const reserve = [p.channels + (p.channels === 1 ? " channel" : " channels")];
      for (const [kind, n] of Object.entries(p.chips)) if (n) reserve.push(n + " " + kind);
      add(box, handRow, row("completed", objectives(p.completed)),
        row("stomach", stomach(p.stomach)), row("reserve", el("span", "reserve", reserve.join(", "))));
      if (chibis) add(box, row("babies", el("span", null, (p.babies || []).join(" ") || "none")));
      add(players, box);
    });
    return add(board, players);
  }

  function drawTree(value, key) {
    if (typeof value === "string" && value.includes("\n")) {  // a game's own text view
      return add(el("div", "kv", key !== undefined ? key + ":" : ""), el("pre", null, value));
    }
    if (value === null || typeof value !== "object") {
      return el("div", "kv", (key !== undefined ? key + ": " : "") + JSON.stringify(value));
    }
    const node = add(el("details", "tree"), el("summary", null, key !== undefined ? key : "view"));
    node.open = true;
    for (const [k, v] of Object.entries(value)) add(node, drawTree(v, k));
    return node;
  }
  const draw = { mandala: drawMandala, flowers: drawFlowers, takenoko: drawTakenoko };
  return { el, add, who, row, drawTree, draw };
};

// The replay viewer: one record, embedded in this page as JSON, stepped through move by move.
(function () {
  const source = document.getElementById("replay-data");
  if (!source) return;  // the human seat's page uses the drawing only
  const data = JSON.parse(source.textContent);
  const steps = data.steps;
  const names = data.players;
  const drawing = window.ArenaDrawing(names, data.cards || {});
  const { el, add, who, drawTree } = drawing;
  const DRAW = drawing.draw;
  let at = 0; // the position shown: before decision at + 1; steps.length is the end
  let seat = -1; // -1: the spectator; otherwise what that seat was sent
  if (data.cards) {  // which cards of each hand are met, beside the views of that position
    for (const p of [...steps, data.final]) {
      if (!p.met) continue;
      if (p.spectator) p.spectator.met_cards = p.met;
      if (p.view) p.view.met_cards = p.met;
    }
  }

  function viewShown() {
    const position = at < steps.length ? steps[at] : data.final;
    if (seat < 0) return position.spectator;
    for (let i = Math.min(at, steps.length - 1); i >= 0; i--) {
      if (steps[i].seat === seat) return steps[i].view;
    }
    return null;
  }

  function render() {
    document.getElementById("counter").textContent =
      at < steps.length ? "Move " + (at + 1) + " / " + steps.length : "End (" + steps.length + " moves)";
    document.getElementById("slider").value = at;
    const board = document.getElementById("board");
    const view = viewShown();
    board.replaceChildren();
    if (view === null) {
      add(board, el("p", "none", who(seat) + " has not been asked anything yet."));
    } else {
      const draw = DRAW[data.game];
      let drawn = null;
      try { drawn = draw ? draw(view) : null; } catch (error) { drawn = null; }
      add(board, drawn || drawTree(view));
      if (seat >= 0) add(board, el("p", "none", "What " + who(seat) + " was sent at its last decision."));
    }
    const info = document.getElementById("info");
    info.replaceChildren();
    if (at >= steps.length) {
      const o = data.outcome || {};
      add(info, el("h2", null, "Game over"), el("p", null, o.reason || ""));
      (o.scores || []).forEach((score, s) => add(info, el("div", null, who(s) + ": " + score + " points, place " + (o.ranks[s] + 1))));
      return;
    }
    const step = steps[at];
    add(info, el("h2", null, "Decision " + (at + 1) + ", turn " + (step.turn + 1) + ": " + who(step.seat) + ", " +
      step.kind + " decision"));
    add(info, el("div", step.unanswered ? "unanswered" : null, (step.unanswered ? who(step.seat) + " " : "Chose: ") + step.text));
    if (step.think_ms !== undefined) add(info, el("div", null, "Thought " + step.think_ms + " ms"));
    add(info, el("div", null, "Scores: " + step.scores.join(" / ")));
    if (step.comment) add(info, el("div", "comment", "Comment: " + step.comment));
    if (step.stderr) add(info, el("div", "label", "stderr during this decision:"), el("pre", "stderr", step.stderr));
    add(info, el("div", "label", step.legal.length + " legal moves:"));
    const list = el("ol", null);
    list.id = "legal";
    list.start = 0;
    step.legal.forEach((text, i) => add(list, el("li", i === step.chosen ? "chosen" : null, text)));
    add(info, list);
  }

  function go(to) {
    at = Math.max(0, Math.min(steps.length, to));
    render();
  }
  document.getElementById("first").onclick = () => go(0);
  document.getElementById("prev").onclick = () => go(at - 1);
  document.getElementById("next").onclick = () => go(at + 1);
  document.getElementById("last").onclick = () => go(steps.length);
  const slider = document.getElementById("slider");
  slider.max = steps.length;
  slider.oninput = () => go(Number(slider.value));
  const select = document.getElementById("seat");
  names.forEach((name, s) => {
    const option = el("option", null, "What " + who(s) + " was sent");
    option.value = s;
    add(select, option);
  });
  select.onchange = () => { seat = Number(select.value); render(); };
  document.addEventListener("keydown", (event) => {
    if (event.target && event.target.tagName === "INPUT" && event.target.type !== "range") return;
    if (event.key === "ArrowRight") { go(at + 1); event.preventDefault(); }
    if (event.key === "ArrowLeft") { go(at - 1); event.preventDefault(); }
    if (event.key === "Home") go(0);
    if (event.key === "End") go(steps.length);
  });
  // A link may open a position: replay.html#move=12&seat=1 (move from 1; seat optional).
  const wanted = new URLSearchParams(window.location.hash.slice(1));
  if (wanted.has("seat") && Number(wanted.get("seat")) < names.length) {
    seat = Number(wanted.get("seat"));
    select.value = String(seat);
  }
  if (wanted.has("move")) at = Math.max(0, Math.min(steps.length, Number(wanted.get("move")) - 1 || 0));
  render();
})();
