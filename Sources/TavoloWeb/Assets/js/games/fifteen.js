// The Fifteen-puzzle race (PROTOCOL.md §10): the user's board large, the tiles that can slide clickable, arrow
// keys slide too (the direction the tile moves, as the game names its moves), moves made and the race's time;
// every opponent's board small, the newer of the one this node applied and the one heard live (§10.4).
// A race has no single turn: table.js lets the user move whenever the node's state gives the seat legal moves.
import { h, put, confirmDialog, counted } from "../dom.js";

const KEYS = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };

let current = null; // the last view drawn, for the arrow keys and the clock
let clock = null; // { baseMs, at, running }: the race's time, ticking between redraws

/** The move that slides the tile at `i` into the blank, or null when it is not next to the blank. */
function moveFor(cells, n, i) {
  const b = cells.indexOf(0);
  const [r, c, br, bc] = [Math.floor(i / n), i % n, Math.floor(b / n), b % n];
  if (c === bc && r === br + 1) return "up";
  if (c === bc && r === br - 1) return "down";
  if (r === br && c === bc + 1) return "left";
  if (r === br && c === bc - 1) return "right";
  return null;
}

/** A seat's board and moves to draw: the live one when it is newer than the one applied here. */
function shown(obs, live, seat) {
  const applied = { cells: obs.boards[seat], moves: obs.moves[seat], live: false };
  const heard = (live || []).find((l) => l.seat === seat);
  const cells = heard?.progress?.board;
  if (heard && heard.number > applied.moves && Array.isArray(cells) && cells.length === obs.n * obs.n)
    return { cells, moves: heard.number, live: true };
  return applied;
}

/** A board in words for a screen reader: `1 2 3 4, 5 6 7 8, …, 13 14 15 blank`. */
function rowsText(cells, n) {
  const rows = [];
  for (let r = 0; r < n; r++) rows.push(cells.slice(r * n, r * n + n).map((t) => (t ? String(t) : "blank")).join(" "));
  return rows.join(", ");
}

function seconds(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tick() {
  const el = document.getElementById("fifteen-time");
  if (!el || !clock) return;
  el.textContent = seconds(clock.baseMs + (clock.running ? performance.now() - clock.at : 0));
}
setInterval(tick, 500);

export function seatDetail(obs, seat) {
  return `${counted(obs.moves[seat], "move")} · ${obs.status[seat]}`;
}

export function render(board, view) {
  const { obs, state } = view;
  current = view;
  const n = obs.n;
  const me = view.seat ?? 0;
  const mine = shown(obs, null, me);
  const legal = new Set(view.legal);
  const racing = state.info.phase === "playing" && obs.status[me] === "racing";
  clock = { baseMs: state.wallMs || 0, at: performance.now(), running: state.info.phase === "playing" && racing };

  // Classes, not inline styles: the page's Content-Security-Policy allows no inline style.
  const grid = h("div", { class: `ff-board ff-n${n}`, id: "fifteen-board", role: "group", "aria-label": `your ${n}×${n} board` });
  mine.cells.forEach((t, i) => {
    const move = t ? moveFor(mine.cells, n, i) : null;
    const ok = move !== null && legal.has(move);
    const home = t === i + 1;
    grid.append(h("button", { type: "button", class: `ff-tile${t ? "" : " blank"}${home ? " home" : ""}${ok ? " legal" : ""}`,
      dataset: { tile: t, move: ok ? move : null }, disabled: !ok,
      "aria-label": t ? `tile ${t}${ok ? `, slides ${move}` : ""}` : "blank",
      onclick: () => view.play(move) }, t ? String(t) : ""));
  });

  const others = obs.boards.map((_, seat) => seat).filter((seat) => seat !== me || view.seat === undefined);
  const small = others.map((seat) => {
    const s = shown(obs, state.live, seat);
    return h("div", { class: "ff-opponent", dataset: { seat } },
      h("div", { class: "dim" }, `${view.names[seat]}: `, h("span", { class: "ff-moves" }, counted(s.moves, "move")), ` · ${obs.status[seat]}${s.live ? " · live" : ""}`),
      h("div", { class: `ff-mini ff-n${n}`, role: "img", "aria-label": `${view.names[seat]}'s board, row by row: ${rowsText(s.cells, n)}` },
        s.cells.map((t, i) => h("span", { class: `${t ? "" : "blank"}${t === i + 1 ? " home" : ""}` }, t ? String(t) : ""))));
  });

  const mineLine = view.seat === undefined ? null : h("p", { class: "ff-stats" },
    h("strong", { id: "fifteen-moves" }, counted(mine.moves, "move")), " · ",
    h("span", { id: "fifteen-time" }, seconds(clock.baseMs)), " · ",
    h("span", { id: "fifteen-status", class: obs.status[me] === "solved" ? "good" : "" }, obs.status[me]));
  put(board,
    h("div", { class: "ff-table" },
      view.seat === undefined ? null : h("div", { class: "ff-mine" },
        mineLine,
        grid,
        h("p", { class: "dim" }, "Click a tile next to the blank, or press an arrow key: ← slides the tile right of the blank to the left."),
        legal.has("give-up") ? h("button", { type: "button", class: "danger", id: "give-up-button", onclick: async () => {
          if (await confirmDialog("Give up the race? Your board stops here.", "Give up")) view.play("give-up");
        } }, "Give up") : null),
      small.length ? h("div", { class: "ff-others" }, small) : null));
}

document.addEventListener("keydown", (e) => {
  const move = KEYS[e.key];
  if (!move || !current || !document.getElementById("fifteen-board")) return;
  if (e.target.closest && e.target.closest("input, textarea, select, dialog")) return;
  if (!current.isLegal(move)) return;
  e.preventDefault();
  current.play(move);
});

// A race has no turns: the cue says so (table.js shows these instead of "Your turn" / "waiting for …").
export const turnCue = "Racing: slide!";
export const waitCue = "the others are still racing";
