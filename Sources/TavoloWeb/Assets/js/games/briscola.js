// Briscola for one seat: the trump, the trick on the table, the hand, the points each side has taken.
import { h, s, put } from "../dom.js";

const SUITS = { C: ["Coppe", "#c0392b"], D: ["Denari", "#c99a06"], S: ["Spade", "#2c5aa0"], B: ["Bastoni", "#2e7d32"] };
const RANKS = ["Asso", "Due", "Tre", "Quattro", "Cinque", "Sei", "Sette", "Fante", "Cavallo", "Re"];
const LABELS = ["A", "2", "3", "4", "5", "6", "7", "F", "C", "R"];
const POINTS = [11, 0, 10, 0, 0, 0, 0, 2, 3, 4];

const parse = (code) => ({ rank: Number(code.slice(0, -1)), suit: code.slice(-1) });
export const points = (code) => POINTS[parse(code).rank - 1];
export const cardName = (code) => { const c = parse(code); return `${RANKS[c.rank - 1]} di ${SUITS[c.suit][0]}`; };

function suitMark(suit, x, y, r) {
  const colour = SUITS[suit][1];
  switch (suit) {
    case "C": return s("path", { d: `M${x - r} ${y - r * 0.6} h${2 * r} q0 ${r * 1.2} ${-r} ${r * 1.2} q${-r} 0 ${-r} ${-r * 1.2} z M${x - r * 0.25} ${y + r * 0.6} h${r * 0.5} v${r * 0.5} h${r * 0.3} v${r * 0.3} h${-r * 1.1} v${-r * 0.3} h${r * 0.3} z`, fill: colour });
    case "D": return s("g", {}, s("circle", { cx: x, cy: y, r, fill: colour }), s("circle", { cx: x, cy: y, r: r * 0.55, fill: "none", stroke: "#fff8", "stroke-width": 2 }));
    case "S": return s("path", { d: `M${x} ${y - r * 1.2} l${r * 0.3} ${r * 1.5} h${r * 0.5} v${r * 0.25} h${-r * 0.55} v${r * 0.6} h${-r * 0.5} v${-r * 0.6} h${-r * 0.55} v${-r * 0.25} h${r * 0.5} z`, fill: colour });
    default: return s("path", { d: `M${x - r * 0.35} ${y + r * 1.1} l${r * 0.1} ${-r * 1.9} q${r * 0.25} ${-r * 0.5} ${r * 0.5} 0 l${r * 0.1} ${r * 1.9} z`, fill: colour });
  }
}

/** A card as SVG: rank letter, suit drawn and named, points in the corner. */
export function card(code, extra = "") {
  const { rank, suit } = parse(code);
  const [suitName, colour] = SUITS[suit] || ["?", "#555"];
  const label = LABELS[rank - 1];
  const p = POINTS[rank - 1];
  return s("svg", { class: `br-card ${extra}`, viewBox: "0 0 64 96", width: 64, height: 96, role: "img", "aria-label": cardName(code) },
    s("title", {}, `${cardName(code)}${p ? `, ${p} points` : ""}`),
    s("rect", { x: 1.5, y: 1.5, width: 61, height: 93, rx: 6, fill: "#fffdf5", stroke: colour, "stroke-width": 2 }),
    s("text", { x: 7, y: 20, "font-size": 17, "font-weight": 700, fill: colour }, label),
    s("text", { x: 57, y: 89, "text-anchor": "end", "font-size": 17, "font-weight": 700, fill: colour }, label),
    suitMark(suit, 32, 46, 12),
    s("text", { x: 32, y: 76, "text-anchor": "middle", "font-size": 9, fill: "#333" }, suitName),
    p ? s("text", { x: 57, y: 16, "text-anchor": "end", "font-size": 9, fill: "#777" }, `${p}pt`) : null);
}

export function seatDetail(obs, seat) {
  const taken = obs.captured[seat].reduce((sum, c) => sum + points(c), 0);
  return `hand ${obs.handCounts[seat]} · ${taken} points`;
}

export function render(board, view) {
  const { obs, names } = view;
  const trumpSuit = obs.trumpCard.slice(-1);
  const legal = new Set(view.legal.map((m) => m.card));
  const sides = obs.players === 4 ? [[0, 2], [1, 3]] : [[0], [1]];
  const sideName = (side) => side.map((i) => names[i]).join(" + ");
  const sidePoints = (side) => side.reduce((sum, i) => sum + obs.captured[i].reduce((a, c) => a + points(c), 0), 0);
  const trick = obs.table.map((code, i) => {
    const seat = (obs.leader + i) % obs.players;
    return h("figure", { class: "played" }, card(code), h("figcaption", {}, names[seat]));
  });
  put(board,
    h("div", { class: "br-table" },
      h("div", { class: "br-side" },
        h("div", { class: "label" }, "Trump (briscola)"),
        h("div", { id: "trump", class: "trump" }, obs.trumpFaceUp ? card(obs.trumpCard, "trump-card") : h("span", {}, "drawn"),
          h("p", {}, h("strong", {}, SUITS[trumpSuit][0]), " are trump")),
        h("p", { id: "pile-count" }, `Pile: ${obs.pileCount} card${obs.pileCount === 1 ? "" : "s"}`),
        h("table", { class: "grid points", id: "points" },
          h("tbody", {}, sides.map((side) => h("tr", {}, h("td", {}, sideName(side)), h("td", { class: "num" }, `${sidePoints(side)} pts`)))))),
      h("div", { class: "br-main" },
        h("div", { class: "label" }, "Trick"),
        h("div", { class: "trick", id: "trick" }, trick.length ? trick : h("span", { class: "dim" }, view.myTurn ? "You lead: play any card." : "empty")),
        h("div", { class: "label" }, "Your hand"),
        h("div", { class: "hand", id: "hand", role: "group", "aria-label": "your hand" },
          obs.hand.map((code) => {
            const ok = legal.has(code);
            return h("button", { type: "button", class: `card-button${ok ? " legal" : ""}`, disabled: !ok, dataset: { card: code },
              title: ok ? `play ${cardName(code)}` : cardName(code), onclick: () => view.play({ card: code }) }, card(code));
          })))));
}
