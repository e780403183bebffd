// Spirits! for one seat: the Fear total against 7, the pile, the direction, the draw pile, the seat's hand.
import { h, s, put } from "../dom.js";

const MAX_FEAR = 7;
const COLOURS = {
  R: ["red", "#d7263d"], O: ["orange", "#f46036"], Y: ["yellow", "#e2b007"],
  G: ["green", "#2e9e4f"], B: ["blue", "#1b65c9"], P: ["purple", "#7b3fa8"],
};

/** A card as SVG: its colour, its value, and the colour's letter for colour-blind players. */
export function card(code, extra = "") {
  const [name, fill] = COLOURS[code[0]] || ["?", "#888"];
  const value = code.slice(1);
  return s("svg", { class: `sp-card ${extra}`, viewBox: "0 0 60 84", width: 60, height: 84, role: "img", "aria-label": `${name} ${value}` },
    s("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 7, fill, stroke: "#222", "stroke-width": 1.5 }),
    s("circle", { cx: 30, cy: 44, r: 17, fill: "#fff", opacity: 0.92 }),
    s("text", { x: 30, y: 52, "text-anchor": "middle", "font-size": 24, "font-weight": 700, fill: "#222" }, value),
    s("text", { x: 8, y: 17, "font-size": 13, "font-weight": 700, fill: "#fff" }, code[0]),
    s("text", { x: 52, y: 78, "text-anchor": "end", "font-size": 13, "font-weight": 700, fill: "#fff" }, code[0]));
}

function fearMeter(fear) {
  const w = 30;
  return s("svg", { class: "fear-meter", viewBox: `0 0 ${w * MAX_FEAR + 2} 34`, width: w * MAX_FEAR + 2, height: 34, role: "img", "aria-label": `Fear ${fear} of ${MAX_FEAR}` },
    Array.from({ length: MAX_FEAR }, (_, i) =>
      s("rect", { x: 1 + i * w, y: 1, width: w - 3, height: 32, rx: 4,
        fill: i < fear ? (fear >= 6 ? "#d7263d" : "#f4a259") : "#eee", stroke: "#999" })),
    Array.from({ length: MAX_FEAR }, (_, i) =>
      s("text", { x: 1 + i * w + (w - 3) / 2, y: 22, "text-anchor": "middle", "font-size": 12, fill: i < fear ? "#fff" : "#999" }, i + 1)));
}

/**
 * The pile in the order played, the top last. The observation lists the pile by card; every move puts one card
 * on it (a flee clears it and opens), so the pile is the cards of the table's last `pile.length` moves
 * (`state.played`). Should those not match (too few known), the pile by card with the top moved last.
 */
export function pileInPlayOrder(obs, played) {
  const n = obs.pile.length;
  const cards = (played || []).map((p) => p.move.play || p.move.flee).filter(Boolean);
  const last = n > 0 && cards.length >= n ? cards.slice(-n) : [];
  const sorted = (list) => [...list].sort().join(" ");
  if (last.length === n && sorted(last) === sorted(obs.pile) && last[n - 1] === obs.top) return last;
  const rest = [...obs.pile];
  const i = obs.top ? rest.indexOf(obs.top) : -1;
  if (i < 0) return rest;
  rest.splice(i, 1);
  return [...rest, obs.top];
}

export function seatDetail(obs, seat) {
  const taken = obs.roundGhosts[seat];
  return `hand ${obs.handSizes[seat]} · ghosts ${obs.ghosts[seat]}${taken ? ` (${taken} this round)` : ""}`;
}

export function render(board, view) {
  const { obs } = view;
  if (obs.phase === "over") return put(board, h("p", {}, "All 3 rounds are played."));
  const order = Array.from({ length: obs.players }, (_, i) => i).join(obs.clockwise ? " → " : " ← ");
  const flee = view.legal.length > 0 && view.legal.every((m) => m.flee);
  const playable = new Set(view.legal.map((m) => m.play || m.flee));
  const hand = h("div", { class: "hand", id: "hand", role: "group", "aria-label": "your hand" },
    obs.hand.map((code) => {
      const legal = playable.has(code);
      return h("button", { type: "button", class: `card-button${legal ? " legal" : ""}`, disabled: !legal,
        dataset: { card: code }, title: legal ? (flee ? `flee, then open with ${code}` : `play ${code}`) : "not playable now",
        onclick: () => view.play(flee ? { flee: code } : { play: code }) }, card(code));
    }));
  put(board,
    h("div", { class: "sp-table" },
      h("div", { class: "sp-status" },
        h("div", {}, h("span", { class: "label" }, "Round "), `${obs.round} of 3`),
        h("div", {}, h("span", { class: "label" }, "Direction "),
          h("span", { class: "direction", id: "direction" }, obs.clockwise ? "↻ clockwise" : "↺ counter-clockwise"),
          h("span", { class: "dim" }, ` (${order})`)),
        h("div", {}, h("span", { class: "label" }, "Fear "), h("strong", { id: "fear" }, `${obs.fear} / ${MAX_FEAR}`), " ", fearMeter(obs.fear)),
        h("div", {}, h("span", { class: "label" }, "Draw pile "), `${obs.drawPileSize} cards · out this round ${obs.removed.length}`)),
      h("div", { class: "pile", id: "pile" },
        h("span", { class: "label" }, "Pile"),
        obs.pile.length ? pileInPlayOrder(obs, view.state.played).map((c, i, all) => card(c, i === all.length - 1 ? "top" : "under"))
          : h("span", { class: "dim" }, "empty — the next player opens a challenge with any card"),
        obs.top ? h("p", { class: "dim" }, "same colour as the top card: a mirror (reverses the direction); another colour adds its value, up to 7") : null),
      flee ? h("p", { class: "alert" }, "No card of yours is legal: you flee (take a ghost) and open a new challenge with the card you choose.") : null,
      h("div", { class: "label" }, "Your hand"),
      hand));
}
