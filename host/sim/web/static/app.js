"use strict";
// The page draws what the server sends (the board from its file, the pixel
// frames the firmware produced, what stands where) and sends back what the
// player does to the board. It holds no rules of any game.

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const PIPS = [[0, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [2, 2]]; // app.die's pip order
const KEYS = { a: 0, l: 1 };
const SEAT_NAMES = { human: "A person", random: "Computer: random", greedy: "Computer: greedy", search: "Computer: thinks ahead" };
const PHASES = { roll: "Roll", decide: "Move", wheel: "Turn a wheel", popoff: "Pop-off", over: "Game over" };
const PRINTED = { red: "#c0392b", blue: "#2e6fd8", green: "#25a244", yellow: "#d6a400", white: "#59636e" };
const SPOTS = { spot_red: "#c0392b", spot_yellow: "#d6a400", spot_green: "#25a244", spot_mauve: "#9b59b6",
  spot_blue: "#2e6fd8", spot_pink: "#e58fb1", spot_black: "#0b0b0b", pocket: "#06120c" };

let catalogue = null;
let chosen = null; // the game set up next: the first one offered, until another is clicked
let id = null;
let stream = null;
let board = null; // the layout of the board being shown
let state = null;
let record = null;
let lenses = []; // per pixel: the elements showing its colour
let halos = [];
let shown = [];
let discs = []; // per wheel: {spin, angle}
let piecesDrawn = "";
let held = [false, false]; // buttons held down on this page
let lastFrame = null;

// -- small helpers ---------------------------------------------------------------

function svg(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function tag(name, attrs, parent, text) {
  const e = document.createElement(name);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

async function post(url, body) {
  const answer = await fetch(url, { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error || answer.statusText);
  return data;
}

// One action after the other: a button's release must never overtake its press.
let pending = Promise.resolve();
let lastNote = ""; // the log line #notes shows when no refusal is shown
function act(body) {
  if (document.body.classList.contains("live")) return pending; // the board itself: the page only watches
  const to = `/api/sessions/${id}`;
  $("notes").textContent = lastNote;
  pending = pending.then(() => post(to, body)).catch((err) => showError(err.message));
  return pending;
}

function showError(message) {
  if (!$("setup").hidden) $("setup-error").textContent = message;
  else $("notes").textContent = message;
}

function colourOf(owner) {
  if (owner >= 0) return board.palette[owner % board.palette.length];
  return owner === -2 ? board.lion : "#9aa3ad";
}

// -- setting up a game -----------------------------------------------------------

async function openSetup(message) {
  if (!catalogue) catalogue = await (await fetch("/api/games")).json();
  chosen = chosen || catalogue.games[0].name;
  $("setup").hidden = false;
  $("play").hidden = true;
  $("cancel").hidden = !id;
  $("setup-error").textContent = message || "";
  renderGames();
}

function gameInfo(name) {
  return catalogue.games.find((g) => g.name === name);
}

function renderGames() {
  const list = $("games");
  list.textContent = "";
  for (const g of catalogue.games) {
    const b = tag("button", { class: "game", role: "radio", "aria-checked": String(g.name === chosen), "data-game": g.name }, list);
    tag("strong", {}, b, g.display);
    tag("span", {}, b, g.blurb);
    b.onclick = () => { chosen = g.name; renderGames(); };
  }
  const g = gameInfo(chosen);
  const players = $("players");
  const keep = Number(players.value) || 2;
  players.textContent = "";
  for (let n = g.min_players; n <= g.max_players; n++) tag("option", { value: n }, players, String(n));
  players.value = String(Math.min(Math.max(keep, g.min_players), g.max_players));
  renderSeats();
  const options = $("options");
  options.textContent = "";
  for (const o of g.options) {
    const row = tag("label", { class: "option" }, options);
    const name = tag("span", {}, row);
    tag("code", {}, name, o.name.replace(/_/g, " "));
    const right = tag("span", {}, row);
    let input;
    if (typeof o.default === "boolean") {
      input = tag("input", { type: "checkbox" }, right);
      input.checked = o.default;
    } else {
      input = tag("input", { type: typeof o.default === "number" ? "number" : "text", value: o.default }, right);
    }
    input.dataset.option = o.name;
    tag("span", { class: "note" }, right, " " + o.note);
  }
}

function renderSeats() {
  const seats = $("seats");
  const before = [...seats.querySelectorAll("select")].map((s) => s.value);
  seats.textContent = "";
  const n = Number($("players").value);
  for (let p = 0; p < n; p++) {
    const row = tag("label", { class: "seat" }, seats);
    chipMark(tag("span", { class: "chip", style: `background:${catalogue.palette[p]}` }, row), p);
    tag("span", {}, row, `${p + 1}`);
    const pick = tag("select", { "aria-label": `Player ${p + 1}` }, row);
    for (const kind of catalogue.seats) tag("option", { value: kind }, pick, SEAT_NAMES[kind] || kind);
    pick.value = before[p] || (p === 0 ? "human" : "search");
  }
}

function chosenOptions() {
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    if (input.type === "checkbox") options[name] = input.checked;
    else if (input.type === "number") options[name] = Number(input.value);
    else options[name] = input.value;
  }
  return options;
}

async function startGame() {
  try {
    const seats = [...$("seats").querySelectorAll("select")].map((s) => s.value);
    const made = await post("/api/sessions", { game: chosen, players: Number($("players").value), seats, options: chosenOptions(),
      sensors: $("sensors").value === "sensors", speed: speedChosen });
    connect(made.id);
  } catch (err) {
    showError(err.message);
  }
}

async function loadRecord(file) {
  try {
    const made = await post("/api/replay", await file.text());
    connect(made.id);
  } catch (err) {
    showError(`${file.name}: ${err.message}`);
  }
}

// -- following a board -----------------------------------------------------------

function connect(newId) {
  if (stream) stream.close();
  id = newId;
  history.replaceState(null, "", `#board=${id}`);
  $("setup").hidden = true;
  $("play").hidden = false;
  $("new").hidden = false;
  $("pause").hidden = false;
  $("download").href = `/api/sessions/${id}/record`;
  window.scrollTo(0, 0);
  stream = new EventSource(`/api/sessions/${id}/events`);
  stream.addEventListener("board", (e) => drawBoard(JSON.parse(e.data)));
  stream.addEventListener("record", (e) => showRecord(JSON.parse(e.data)));
  stream.addEventListener("state", (e) => showState(JSON.parse(e.data)));
  stream.addEventListener("frame", (e) => showFrame(JSON.parse(e.data)));
  stream.onerror = async () => {
    const answer = await fetch(`/api/sessions/${id}/record`).catch(() => null);
    if (answer && answer.status === 404) {
      stream.close();
      id = null;
      openSetup("That board is gone (the server was restarted). Set up a new game.");
    }
  };
}

function addLed(i, lens, halo) {
  lens.classList.add("lens");
  lens.dataset.led = i;
  lenses[i] = lens;
  if (halo) halos[i] = halo;
  shown[i] = undefined;
  if (lastFrame) paint(i, lastFrame.pixels);
}

function paint(i, pixels) {
  const c = "#" + pixels.substr(6 * i, 6);
  if (shown[i] === c || !lenses[i]) return;
  shown[i] = c;
  lenses[i].setAttribute("fill", c);
  if (halos[i]) {
    halos[i].setAttribute("fill", c);
    halos[i].setAttribute("opacity", c === "#000000" ? 0 : 0.45);
  }
}

function drawBoard(b) {
  board = b;
  lastFrame = null;
  lenses = [];
  halos = [];
  shown = [];
  piecesDrawn = "";
  const u = b.unit;
  const xs = b.spaces.map((s) => s.x);
  const ys = b.spaces.map((s) => s.y);
  const pad = u * (b.wheels.length ? 1.0 : 0.8);
  const x0 = Math.min(...xs) - pad;
  const y0 = Math.min(...ys) - pad;
  const w = Math.max(...xs) - x0 + pad + u * b.look.room;
  const h = Math.max(...ys) - y0 + pad;
  const root = $("board");
  root.textContent = "";
  $("waiting").textContent = "";
  root.setAttribute("viewBox", `${x0} ${y0} ${w} ${h}`);
  root.style.aspectRatio = `${w} / ${h}`; // where the page is narrow, the board takes its whole width
  root.dataset.game = b.game;
  svg("rect", { x: x0, y: y0, width: w, height: h, rx: u * 0.5, fill: b.look.surface }, root);
  if (b.look.frame) svg("rect", { x: x0 + u * 0.3, y: y0 + u * 0.3, width: w - u * 0.6, height: h - u * 0.6, rx: u * 0.4, fill: "none", stroke: b.look.frame, "stroke-width": u * 0.35 }, root);
  const links = svg("g", {}, root);
  for (const [x1, y1, x2, y2] of b.links) svg("line", { x1, y1, x2, y2, class: "link", "stroke-width": u * 0.3 }, links);
  discs = b.wheels.map((wheel) => {
    const g = svg("g", { transform: `translate(${wheel.x} ${wheel.y})` }, root);
    svg("circle", { r: u * 1.56, class: "disc", "stroke-width": u * 0.06 }, g);
    const spin = svg("g", { class: "spin" }, g);
    for (const [x1, y1, x2, y2] of wheel.route) svg("line", { x1: x1 * u, y1: y1 * u, x2: x2 * u, y2: y2 * u, class: "route", "stroke-width": u * 0.3 }, spin);
    svg("circle", { cx: u * 1.25, cy: -u * 1.25, r: u * 0.2, fill: "#111", stroke: "#8797a8", "stroke-width": u * 0.04 }, g);
    svg("text", { x: u * 1.25, y: -u * 1.25, class: "mark", "font-size": u * 0.26 }, g).textContent = wheel.id;
    return { spin, angle: null };
  });
  const spaces = svg("g", {}, root);
  b.spaces.forEach((s, i) => {
    const g = svg("g", { class: "space", "data-space": i, "data-id": s.id, transform: `translate(${s.x} ${s.y})` }, spaces);
    // a click anywhere in the space's cell reaches it; a pocket stands apart, its cell is larger
    const reach = s.kind === "pocket" ? u * 1.2 : u / 2;
    svg("rect", { x: -reach, y: -reach, width: 2 * reach + (s.kind === "trademark" ? u : 0), height: 2 * reach, fill: "transparent" }, g);
    tile(g, s, u);
    const r = s.kind === "pocket" ? u * 0.4 : u * 0.3;
    const halo = svg("circle", { r: r * 1.45, class: "halo", fill: "#000", opacity: 0 }, g);
    addLed(s.led, svg("circle", { r, fill: "#000", "stroke-width": u * 0.03 }, g), halo);
    if (s.mark && s.kind !== "trademark") svg("text", { x: -u * 0.3, y: -u * 0.29, class: "mark", "font-size": u * 0.22 }, g).textContent = s.mark;
    if (s.kind === "trademark") svg("text", { x: u * 0.72, y: 0, class: "mark", "font-size": u * 0.3 }, g).textContent = s.mark;
    svg("title", {}, g).textContent = `${s.id} (${s.kind.replace("_", " ")})`;
  });
  svg("g", { id: "pieces" }, root);
  // over the pieces, at the top of each space (where the terminal puts a spiral square's number), small enough to leave the ring's colour
  const names = svg("g", { class: "names", "aria-hidden": "true" }, root);
  for (const s of b.spaces) {
    const size = u * Math.min(0.25, Math.max(0.18, 0.66 / s.id.length)); // a long name smaller, within its space
    const x = s.x + (s.mark && s.kind !== "trademark" ? u * 0.1 : 0); // beside the START, FINISH or star mark
    svg("text", { x, y: s.y - u * 0.34, "font-size": size, "stroke-width": u * 0.05 }, names).textContent = s.id;
  }
  drawExtras(b);
  showInputs(b);
  showLegend(b);
  $("title").textContent = `${b.title} · ${b.players} player${b.players > 1 ? "s" : ""}`;
  if (state) showState(state);
}

function tile(g, s, u) {
  const printed = PRINTED[s.colour];
  if (board.look.tiles === "spot") {
    svg("circle", { r: s.kind === "pocket" ? u * 0.62 : u * 0.36, class: "tile", fill: SPOTS[s.kind], stroke: "#0a2016", "stroke-width": u * 0.05 }, g);
  } else if (board.look.tiles === "disc") {
    svg("circle", { r: u * 0.46, class: "tile", "stroke-width": u * 0.04, fill: s.kind === "track" ? "#4a3b28" : "#6a4f2c", stroke: "#7d6443" }, g);
  } else if (s.kind === "wheel" || s.kind === "wheel_star") {
    // on the disc: the route printed on it shows, the disc turns under the fixed LEDs
    svg("circle", { r: u * 0.45, fill: "transparent" }, g);
  } else {
    const wide = s.kind === "trademark" ? u : 0;
    const fill = s.kind === "start" || s.kind === "finish" || s.kind === "home" ? "#2f3a44" : "#242a31";
    svg("rect", { x: -u * 0.41, y: -u * 0.41, width: u * 0.82 + wide, height: u * 0.82, rx: u * 0.14, class: "tile", fill,
      stroke: printed && s.colour !== "white" ? printed : "#39424c", "stroke-width": u * (printed && s.colour !== "white" ? 0.08 : 0.04) }, g);
  }
}

// The extra pixels: die faces above each button, throw sticks, score bars.
function drawExtras(b) {
  const rollers = $("rollers");
  rollers.textContent = "";
  const names = Object.keys(b.extras);
  const dice = names.filter((n) => n.startsWith("die")).sort();
  $("buttons-title").textContent = dice.length ? "Die rollers" : b.extras.sticks ? "Throw sticks" : "Buttons";
  const buttons = tag("div", { class: "rollers" }, rollers);
  if (b.extras.sticks) {
    const box = tag("div", { class: "roller sticks" }, buttons); // above the buttons; beside them on a phone
    const s = svg("svg", { viewBox: "0 0 100 60" }, box);
    b.extras.sticks.forEach((led, k) => {
      svg("rect", { x: 8 + k * 32, y: 4, width: 20, height: 52, rx: 10, class: "stick-bg" }, s);
      addLed(led, svg("rect", { x: 11 + k * 32, y: 8, width: 14, height: 44, rx: 7, fill: "#000" }, s));
    });
  }
  for (let i = 0; i < 2; i++) {
    const box = tag("div", { class: "roller" }, buttons);
    if (dice[i]) {
      const face = svg("svg", { viewBox: "0 0 100 100" }, box);
      svg("rect", { x: 3, y: 3, width: 94, height: 94, rx: 18, class: "face-bg" }, face);
      b.extras[dice[i]].forEach((led, k) => {
        addLed(led, svg("circle", { cx: 22 + PIPS[k][0] * 28, cy: 22 + PIPS[k][1] * 28, r: 10.5, fill: "#000", "stroke-width": 1 }, face));
      });
    }
    const press = tag("button", { class: "press", "data-button": i }, box, `Button ${i + 1} `);
    tag("kbd", {}, press, i ? "L" : "A");
    press.addEventListener("pointerdown", (e) => { press.setPointerCapture(e.pointerId); hold(i, true); });
    for (const up of ["pointerup", "pointercancel"]) press.addEventListener(up, () => hold(i, false));
  }
  rollers.style.flexDirection = "column";
  // the board's own buttons, where it has some: each says what happened, as on the board
  if (b.buttons.length) {
    const panel = tag("div", { class: "panel" }, rollers);
    b.buttons.forEach((name, i) => {
      const key = tag("button", { class: "press panel-key", "data-panel": name }, panel, name.replace("foul_", "foul: "));
      key.addEventListener("pointerdown", (e) => { key.setPointerCapture(e.pointerId); key.classList.add("down"); act({ do: "panel", n: i, down: true }); });
      for (const up of ["pointerup", "pointercancel"]) {
        key.addEventListener(up, () => { key.classList.remove("down"); act({ do: "panel", n: i, down: false }); });
      }
    });
  }
  const wheels = $("wheels");
  wheels.textContent = "";
  b.wheels.forEach((wheel, w) => {
    const row = tag("div", { class: "wheel-ctl" }, wheels);
    tag("span", {}, row, `Wheel ${wheel.id}`);
    const turns = tag("span", {}, row);
    for (const [by, text, title] of [[-1, "\u27F2", "a quarter turn anticlockwise"], [1, "\u27F3", "a quarter turn clockwise"]]) {
      const b2 = tag("button", { class: "ghost", "data-wheel": w, "data-by": by, title: `Turn wheel ${wheel.id} ${title}` }, turns, text);
      b2.onclick = () => act({ do: "turn", n: w, by });
    }
  });
  $("hand-card").hidden = !b.look.pieces;
  $("help").textContent = b.look.help
    || "Click a piece to lift it, click a space to put it down. Holding a piece, click another piece to take it off and put yours there.";
}

function hold(i, down) {
  if (held[i] === down) return;
  held[i] = down;
  document.querySelector(`.press[data-button="${i}"]`)?.classList.toggle("down", down);
  act({ do: "button", n: i, down });
}

function showFrame(f) {
  lastFrame = f;
  for (let i = 0; i < lenses.length; i++) paint(i, f.pixels);
  $("board").dataset.frame = f.n;
  $("ma").textContent = `LEDs draw about ${f.ma} mA of ${f.budget} mA`;
  $("meter-fill").style.width = `${Math.min(100, (100 * f.ma) / f.budget)}%`;
  $("limited").hidden = !f.limited;
  if (document.activeElement !== $("brightness")) $("brightness").value = f.brightness;
  $("brightness-value").textContent = `${f.brightness}%`;
}

function showState(s) {
  state = s;
  $("waiting").textContent = board ? "" : s.say; // make live before any board answered: where it is looked for
  if (!board) return;
  const over = s.phase === "over";
  const lead = over && s.winners.length ? s.winners[0] : s.actor;
  $("who-chip").style.background = colourOf(lead);
  chipMark($("who-chip"), over && !s.winners.length ? -1 : lead);
  $("who").textContent = over ? (s.winners.length ? `Player ${s.winners.map((w) => w + 1).join(" & ")}` : "A tie") : `Player ${s.actor + 1}`;
  $("phase").textContent = PHASES[s.phase] || s.phase;
  $("say").textContent = s.say;
  $("picked").textContent = s.picked;
  $("picked-row").hidden = !s.picked;
  const note = s.notes.length ? `Board log: ${s.notes[s.notes.length - 1]}` : "";
  if (note !== lastNote) $("notes").textContent = lastNote = note; // a refusal shown there stays until the next act
  $("dice-text").textContent = s.dice ? `Thrown: ${s.dice}` : "";
  s.buttons.forEach((down, i) => document.querySelector(`.press[data-button="${i}"]`)?.classList.toggle("down", down || held[i]));
  s.wheels.forEach((pos, w) => {
    const disc = discs[w];
    if (!disc) return;
    const target = pos * 90;
    disc.angle = disc.angle === null ? target : disc.angle + ((((target - disc.angle) % 360) + 540) % 360) - 180;
    disc.spin.style.transform = `rotate(${disc.angle}deg)`;
  });
  showHand(s.hand);
  showPlayers(s);
  showSpeed(s);
  $("pause").textContent = s.paused ? "Resume" : "Pause";
  $("paused-tag").hidden = !s.paused;
  const drawn = JSON.stringify(s.pieces);
  if (drawn !== piecesDrawn) drawPieces(s.pieces, (piecesDrawn = drawn));
  labelSpaces(s);
  showLog(s.notes);
}

// Pieces: one in the middle of its space, a stack as a small cluster.
const CLUSTER = [[-0.23, -0.23], [0.23, -0.23], [-0.23, 0.23], [0.23, 0.23]];

function drawPieces(pieces) {
  const layer = $("pieces");
  layer.textContent = "";
  const u = board.unit;
  for (const [space, stack] of pieces) {
    const s = board.spaces[space];
    const g = svg("g", { class: "piece", transform: `translate(${s.x} ${s.y})`, "data-piece": space, "data-count": stack.length }, layer);
    const one = stack.length === 1;
    stack.slice(0, 4).forEach((piece, k) => {
      const at = one ? [0, 0] : CLUSTER[k];
      const p = svg("g", { transform: `translate(${at[0] * u} ${at[1] * u}) scale(${one ? 1 : 0.5})`, "data-owner": piece[0] }, g);
      drawPiece(p, piece, u);
    });
    markPieces(g, u);
    if (stack.length > 4) {
      svg("circle", { cx: u * 0.3, cy: -u * 0.3, r: u * 0.16, class: "count-bg", "stroke-width": u * 0.03 }, g);
      svg("text", { x: u * 0.3, y: -u * 0.3, class: "count", "font-size": u * 0.17 }, g).textContent = stack.length;
    }
  }
}

// A piece is a ring around the light of its space, which shows through it:
// breathing, hints and warnings stay readable under a piece. An arrow piece
// points its heading with a tab on the ring; the letter sits on the light,
// outlined so that it reads on any colour.
function drawPiece(g, [owner, label, heading], u) {
  const colour = colourOf(owner);
  if (heading >= 0) {
    svg("polygon", { points: [0, -0.58, 0.19, -0.33, -0.19, -0.33].map((v) => v * u).join(" "), class: "tab", fill: colour,
      "stroke-width": u * 0.03, "stroke-linejoin": "round", transform: `rotate(${heading * 90})` }, g);
  }
  const ring = owner === -2
    ? (cls, width) => svg("rect", { x: -u * 0.36, y: -u * 0.36, width: u * 0.72, height: u * 0.72, rx: u * 0.1, class: cls, "stroke-width": width }, g)
    : (cls, width) => svg("circle", { r: u * 0.37, class: cls, "stroke-width": width }, g);
  ring("edge", u * 0.14);
  ring("body", u * 0.1).setAttribute("stroke", colour);
  const text = owner === -2 ? "L" : label;
  if (text) svg("text", { "font-size": u * 0.34, "stroke-width": u * 0.07 }, g).textContent = text;
}

function showHand(hand) {
  const box = $("hand");
  box.textContent = "";
  if (!hand.length) tag("span", { class: "small muted" }, box, "nothing");
  hand.forEach(([owner, label, , from], i) => {
    const token = tag("button", { class: "token" + (i === hand.length - 1 ? " active" : ""), style: `background:${colourOf(owner)}`,
      title: from >= 0 ? `taken from ${board.spaces[from].id}` : "from the box" }, box, owner === -2 ? "L" : label);
    token.setAttribute("aria-label", `${pieceWords([owner, label, -1])}, ${token.title}`);
    token.onclick = () => act({ do: "hand", n: i });
  });
  $("put-away").hidden = !hand.length;
}

function showPlayers(s) {
  const list = $("players-list");
  list.textContent = "";
  s.standings.forEach((standing, p) => {
    const now = s.phase !== "over" && (p === s.actor || s.duel.includes(p));
    const item = tag("li", { class: now ? "now" : "" }, list);
    chipMark(tag("span", { class: "chip", style: `background:${colourOf(p)}` }, item), p);
    const name = tag("span", { class: "name" }, item, `Player ${p + 1} `);
    tag("span", { class: "seat-kind", title: SEAT_NAMES[s.seats[p]] || s.seats[p] }, name, s.seats[p] === "human" ? "person" : "computer");
    tag("span", { class: "standing" }, item, standing);
    const bar = board.extras[`score${p + 1}`];
    if (bar) scoreBar(item, bar);
  });
  // score bars of seats nobody sits in are still pixels on the board: small, in one row
  if (board.extras[`score${s.standings.length + 1}`]) {
    const item = tag("li", { class: "unused" }, list);
    tag("span", { class: "small muted" }, item, "Unused bars");
    for (let p = s.standings.length; board.extras[`score${p + 1}`]; p++) scoreBar(item, board.extras[`score${p + 1}`]);
  }
}

function scoreBar(item, bar) {
  const s = svg("svg", { class: "bar-leds", viewBox: `0 0 ${bar.length * 20} 14`, preserveAspectRatio: "xMinYMid meet" }, item);
  bar.forEach((led, k) => {
    addLed(led, svg("circle", { cx: 10 + k * 20, cy: 7, r: 6, fill: "#000", "stroke-width": 1 }, s));
  });
}

// How fast the computer seats act; step by step, they wait for "Next step".
// A speed chosen here is kept for the next game set up.
let speedChosen;
function showSpeed(s) {
  $("speed-card").hidden = s.seats.every((seat) => seat === "human");
  if (document.activeElement !== $("speed")) $("speed").value = s.speed;
  $("next-step").hidden = s.speed !== "step" || s.phase === "over";
}
$("speed").onchange = (e) => act({ do: "speed", to: (speedChosen = e.target.value) });
$("next-step").onclick = () => act({ do: "next" });

function showRecord(r) {
  record = r;
  const list = $("record");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  list.textContent = "";
  if (!r.steps.length) tag("li", { class: "empty" }, list, "No steps yet.");
  const at = r.replay ? r.replay.at : r.steps.length; // the steps the board stands after
  r.steps.forEach((step, n) => {
    const item = tag("li", { "data-step": n + 1 }, list);
    if (n + 1 === at) item.setAttribute("aria-current", "step");
    if (n >= at) item.className = "ahead";
    if (r.replay) item.tabIndex = 0; // a replay goes to the step clicked
    tag("span", { class: "n" }, item, String(n + 1));
    const chip = tag("span", { class: "chip" }, item);
    if (step.who >= 0) chipMark(chip, step.who).style.background = colourOf(step.who);
    tag("span", { class: "step" }, item, step.step);
    tag("span", { class: "says" }, item, step.says.join("; "));
  });
  const current = list.querySelector("[aria-current]");
  if (r.replay) list.scrollTop = current ? current.offsetTop - list.clientHeight / 2 : 0; // at step 0: the first step whole
  else if (atEnd) list.scrollTop = list.scrollHeight;
  $("replay").hidden = !r.replay;
  if (r.replay) $("replay-at").textContent = `Step ${r.replay.at} of ${r.replay.of}`;
}

// -- for every player: a shape beside each colour, the legend, labels, the log ----------

// each player's shape, drawn beside their colour for players who cannot tell the colours apart
const MARKS = [
  ["disc", "M0-.55A.55 .55 0 1 1 0 .55A.55 .55 0 1 1 0-.55Z"],
  ["triangle", "M0-.62L.62 .5H-.62Z"],
  ["square", "M-.48-.48H.48V.48H-.48Z"],
  ["diamond", "M0-.68L.62 0L0 .68L-.62 0Z"],
  ["plus", "M-.2-.62H.2V-.2H.62V.2H.2V.62H-.2V.2H-.62V-.2H-.2Z"],
  ["cross", "M-.62-.34L-.34-.62L0-.28L.34-.62L.62-.34L.28 0L.62 .34L.34 .62L0 .28L-.34 .62L-.62 .34L-.28 0Z"],
];
const HEADINGS = ["north", "east", "south", "west"];
// the README's colour language: how the swatch moves, its colour, what it means; only what the board has
function signals(b) {
  const wheels = b.wheels.length ? ", turn this wheel back" : "";
  const thrown = b.extras.sticks ? [["breathe dim", "player", "the throw sticks glow in a player's colour: their turn to throw"]]
    : b.extras.die1 ? [["breathe dim", "player", "the die glows in a player's colour: their turn to press it"]] : [];
  return [
    ["breathe", "player", "breathing in a player's colour: a piece that may move"],
    ["", "white", "white: where the lifted piece may go"],
    ["flash", "white", "white, quick flashes: the move on offer (button 1), or made"],
    ["slow", "white", "white, slow blink: a suggested move (hold button 1 for one)"],
    ["blink", "amber", "amber, blinking: put a piece here"],
    ["fast", "red", `red, fast blink: wrong here (no piece belongs here${wheels})`],
    ...thrown,
  ];
}

function markOf(owner) {
  return MARKS[owner % MARKS.length];
}

// A chip (a player's colour) gets the player's shape on it; -1: none.
function chipMark(chip, owner) {
  chip.textContent = "";
  if (owner >= 0) svg("path", { d: markOf(owner)[1], class: "mark-shape" }, svg("svg", { viewBox: "-1 -1 2 2", "aria-hidden": "true" }, chip));
  return chip;
}

// Every piece of a player carries their shape on a dark badge at its edge,
// on the ring and off the light it shows.
function markPieces(g, u) {
  for (const p of g.querySelectorAll("[data-owner]")) {
    const owner = Number(p.dataset.owner);
    if (owner < 0) continue;
    const badge = svg("g", { class: "owner-mark", transform: `translate(${u * 0.31} ${u * 0.31}) scale(${u * 0.13})` }, p);
    svg("circle", { r: 1 }, badge);
    svg("path", { d: markOf(owner)[1], class: "mark-shape" }, badge);
  }
}

function showLegend(b) {
  const list = $("legend");
  list.textContent = "";
  for (let p = 0; p < b.players; p++) {
    const item = tag("li", {}, list);
    chipMark(tag("span", { class: "chip", style: `background:${colourOf(p)}` }, item), p);
    tag("span", {}, item, `Player ${p + 1}: the ${markOf(p)[0]} ${b.look.pieces ? "on their pieces and " : ""}in the panel`);
  }
  if (b.look.lions) {
    const item = tag("li", {}, list);
    tag("span", { class: "chip", style: `background:${b.lion}` }, item);
    tag("span", {}, item, "A lion (L): nobody's piece");
  }
  for (const [moves, colour, words] of signals(b)) {
    const item = tag("li", {}, list);
    tag("span", { class: `swatch ${moves}`, style: `background:${colour === "player" ? colourOf(0) : b.signals[colour]}` }, item);
    tag("span", {}, item, words);
  }
}

function showInputs(b) {
  // the wheel and replay buttons show a symbol: a screen reader says what they do
  for (const button of document.querySelectorAll("[data-wheel], [data-go]")) button.setAttribute("aria-label", button.title);
  if (b.sensors !== false) return;
  $("hand-card").hidden = true;
  $("help").textContent = "This board has no sensors: button 1 steps through what may happen now (the lights show each), "
    + "a long press makes the one shown. Nothing put on the board is read: the pieces follow the game, as players move them by hand.";
}

function pieceWords([owner, label, heading]) {
  const who = owner === -2 ? "a lion" : owner >= 0 ? `player ${owner + 1}'s piece${label ? " " + label : ""}` : "a piece from the box";
  return heading >= 0 ? `${who} pointing ${HEADINGS[heading]}` : who;
}

// Each space says to a screen reader its name, what lies on it and what its light means.
function labelSpaces(s) {
  const on = new Map(s.pieces);
  const lit = new Map(s.lights);
  for (const g of document.querySelectorAll("#board .space")) {
    const n = Number(g.dataset.space);
    const space = board.spaces[n];
    const stack = on.get(n);
    const label = `${space.id}, ${space.kind.replace("_", " ")}: ${stack ? stack.map(pieceWords).join(", ") : "empty"}`
      + (lit.has(n) ? `; light: ${lit.get(n)}` : "");
    if (g.getAttribute("aria-label") === label) continue;
    g.setAttribute("aria-label", label);
    g.setAttribute("role", "button");
    g.setAttribute("tabindex", "0");
  }
}

function showLog(notes) {
  const list = $("log");
  const text = notes.join("\n");
  if (list.dataset.text === text) return;
  list.dataset.text = text;
  list.textContent = "";
  if (!notes.length) tag("li", { class: "empty" }, list, "Nothing yet. The controller logs here what a Pico prints: a new game, a win, a fault it survived.");
  for (const note of notes) tag("li", {}, list, note);
  list.scrollTop = list.scrollHeight;
}

// -- the keyboard ---------------------------------------------------------------------

const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
const REPLAY_KEYS = { ArrowLeft: "back", ArrowRight: "next", Home: "first", End: "last" };

// The nearest space in the direction of the arrow, ahead rather than aside.
function nextSpace(from, [dx, dy]) {
  const a = board.spaces[from];
  let best = -1;
  let bestCost = Infinity;
  board.spaces.forEach((b, n) => {
    const ahead = (b.x - a.x) * dx + (b.y - a.y) * dy;
    const aside = Math.abs((b.x - a.x) * dy - (b.y - a.y) * dx);
    const cost = ahead + 2 * aside;
    if (ahead > 0.01 && cost < bestCost) [best, bestCost] = [n, cost];
  });
  return best;
}

// Esc: the piece in the hand goes back where it was taken from (one from the box, into the box).
function putBack() {
  const hand = state ? state.hand : [];
  if (!hand.length) return;
  const from = hand[hand.length - 1][3];
  act(from >= 0 ? { do: "space", n: from } : { do: "put_away" });
}

document.addEventListener("keydown", (e) => {
  if (typing(e) || !id || $("play").hidden || e.ctrlKey || e.metaKey || e.altKey) return;
  const space = e.target.closest ? e.target.closest("#board .space") : null;
  const wheel = /^Digit([1-9])$/.exec(e.code);
  const go = REPLAY_KEYS[e.key];
  if (space && (e.key === "Enter" || e.key === " ")) {
    act({ do: "space", n: Number(space.dataset.space) });
  } else if (space && ARROWS[e.key]) {
    const n = nextSpace(Number(space.dataset.space), ARROWS[e.key]);
    if (n >= 0) document.querySelector(`#board .space[data-space="${n}"]`).focus();
  } else if (e.key === "Escape") {
    putBack();
  } else if (wheel && !e.repeat && document.querySelector(`[data-wheel="${wheel[1] - 1}"]`)) {
    document.querySelector(`[data-wheel="${wheel[1] - 1}"][data-by="${e.shiftKey ? -1 : 1}"]`).click();
  } else if (go && !$("replay").hidden) {
    document.querySelector(`[data-go="${go}"]`).click();
  } else if (e.key.toLowerCase() === "n" && !$("next-step").hidden) {
    $("next-step").click();
  } else {
    return;
  }
  e.preventDefault();
});

// -- input -------------------------------------------------------------------------

$("board").addEventListener("click", (e) => {
  const space = e.target.closest(".space");
  if (space) act({ do: "space", n: Number(space.dataset.space) });
});

function typing(e) {
  return ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) && e.target.type !== "range";
}
document.addEventListener("keydown", (e) => {
  const i = KEYS[e.key.toLowerCase()];
  if (i === undefined || e.repeat || typing(e) || !id || $("play").hidden) return;
  e.preventDefault();
  hold(i, true);
});
document.addEventListener("keyup", (e) => {
  const i = KEYS[e.key.toLowerCase()];
  if (i !== undefined && held[i]) hold(i, false);
});
window.addEventListener("blur", () => held.forEach((down, i) => down && hold(i, false)));

// A button that switches a class of the page on and off.
function toggle(button, name, on) {
  document.body.classList.toggle(name, on);
  button.setAttribute("aria-pressed", String(on));
  return on;
}
// The spaces' names, as the page's sentences name them: the choice is kept for the next visit.
const named = () => document.body.classList.contains("space-names");
$("names").onclick = () => localStorage.setItem("spaceNames", toggle($("names"), "space-names", !named()) ? "1" : "");
toggle($("names"), "space-names", localStorage.getItem("spaceNames") === "1");
// On a phone a space is smaller than a finger: zoomed in, the board scrolls inside its card, from its middle.
$("zoom").onclick = () => {
  toggle($("zoom"), "zoomed", !document.body.classList.contains("zoomed"));
  const box = $("board-scroll");
  box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
  box.scrollTop = (box.scrollHeight - box.clientHeight) / 2;
};

$("players").onchange = renderSeats;
$("start").onclick = startGame;
$("new").onclick = () => openSetup();
$("cancel").onclick = () => { $("setup").hidden = true; $("play").hidden = false; };
$("pause").onclick = () => act({ do: "pause", on: !(state && state.paused) });
$("put-away").onclick = () => act({ do: "put_away" });
$("set-up").onclick = () => act({ do: "set_up" });
$("brightness").onchange = (e) => act({ do: "brightness", n: Number(e.target.value) });
$("load").onchange = (e) => e.target.files[0] && loadRecord(e.target.files[0]).then(() => (e.target.value = ""));
$("load-setup").onchange = (e) => e.target.files[0] && loadRecord(e.target.files[0]).then(() => (e.target.value = ""));
$("record").addEventListener("click", (e) => {
  const item = e.target.closest("li[data-step]");
  if (item && record.replay) act({ do: "goto", n: Number(item.dataset.step) });
});
$("record").addEventListener("keydown", (e) => {
  if (e.key === "Enter") e.target.closest("li[data-step]")?.click();
});
for (const b of document.querySelectorAll("[data-go]")) {
  b.onclick = () => {
    const { at, of } = record.replay;
    const to = { first: 0, back: at - 1, next: at + 1, last: of }[b.dataset.go];
    act({ do: "goto", n: Math.max(0, Math.min(of, to)) });
  };
}

// make live serves the board itself, followed over USB: every page watches it, read-only;
// make vpico serves the emulated Pico's board the same way, and the clicks act on its parts
fetch("/api/live").then((answer) => (answer.ok ? answer.json() : null)).catch(() => null).then((live) => {
  if (live) {
    document.body.classList.add(live.played ? "pico" : "live");
    document.title = $("brand").textContent = live.played ? "Emulated Pico" : "Live board";
    connect(live.id);
    return;
  }
  const resume = /board=([0-9a-f]+)/.exec(location.hash);
  if (resume) connect(resume[1]);
  else openSetup();
});
