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

const RANK_BIDS = [1, 3, 10, 9, 8, 7, 6, 5, 4, 2];
const bidName = (n) => (n <= 10 ? RANKS[n - 1] : `Due at ${n}`);
const bidTarget = (n) => (n <= 10 ? 61 : n);
/** The trump suit's letter: the face-up card's, or (chiamata) the called card's; null during the auction. */
const trumpOf = (obs) => (obs.trumpCard || obs.calledCard || "").slice(-1) || null;

export function seatDetail(obs, seat) {
  const taken = obs.captured[seat].reduce((sum, c) => sum + points(c), 0);
  let role = "";
  if (obs.declarer === seat) role = " · declarer";
  else if (obs.partner === seat) role = " · partner";
  else if (obs.partner !== undefined && obs.declarer !== undefined) role = " · defender";
  return `hand ${obs.handCounts[seat]} · ${taken} points${role}`;
}

/** The sides whose points are shown: partnerships with 4; with 5 the declarer's side once this seat knows it. */
function sidesOf(obs) {
  const seats = [...Array(obs.players).keys()];
  if (obs.players === 4) return [[0, 2], [1, 3]];
  if (obs.players === 5 && obs.partner !== undefined && obs.declarer !== undefined) {
    const side = [...new Set([obs.declarer, obs.partner])];
    return [side, seats.filter((i) => !side.includes(i))];
  }
  return seats.map((i) => [i]);
}

/** Chiamata: the auction so far, the call, and what this seat may know of the partner. */
function auctionPanel(obs, names, view) {
  const entries = (obs.auction || []).map((e) => h("li", {}, `${names[e.seat]}: ${e.bid === undefined ? "passes" : `bids ${bidName(e.bid)}`}`));
  let partner = null;
  if (obs.calledCard) {
    const d = obs.declarer;
    let text = "secret until the called card is played";
    if (obs.partner !== undefined) {
      if (obs.partner === d) text = obs.seat === d ? "none: you called your own card and play alone" : `none: ${names[d]} plays alone`;
      else text = obs.partner === obs.seat ? "you (nobody else knows until you play the called card)" : names[obs.partner];
    }
    partner = h("div", { id: "called" },
      h("div", { class: "label" }, `Called by ${names[d]} — needs ${obs.target} points`), card(obs.calledCard, "trump-card"),
      h("p", { id: "partner" }, h("strong", {}, "Partner: "), text));
  }
  return h("div", { class: "auction", id: "auction" },
    h("div", { class: "label" }, "Auction"),
    entries.length ? h("ol", {}, entries) : h("p", { class: "dim" }, "no bid yet"),
    partner,
    obs.gamePoints ? h("p", { id: "game-points" }, "Game points: " + obs.gamePoints.map((g, i) => `${names[i]} ${g > 0 ? "+" : ""}${g}`).join(" · ")) : null,
    auctionButtons(obs, view));
}

/** The auction's moves for the seat to move: rank bids and the first points bids as buttons, the rest in a list. */
function auctionButtons(obs, view) {
  if (!view.myTurn || obs.phase === "playing") return null;
  const button = (move, label, title) => h("button", { type: "button", class: "legal auction-move", title, onclick: () => view.play(move) }, label);
  if (obs.phase === "calling") {
    return h("div", {}, h("div", { class: "label" }, "Call a card: its suit becomes trump, its holder your secret partner"),
      h("div", { class: "hand", id: "calls", role: "group", "aria-label": "call a card" },
      view.legal.map((m) => h("button", { type: "button", class: "card-button legal", dataset: { call: m.call }, title: `call the ${cardName(m.call)}`, onclick: () => view.play(m) }, card(m.call)))));
  }
  const bids = view.legal.filter((m) => m.bid !== undefined).map((m) => m.bid);
  const quick = bids.filter((n) => n <= 10 || n <= (bids.find((b) => b > 10) || 0) + 2);
  const rest = bids.filter((n) => !quick.includes(n));
  const select = rest.length ? h("select", { id: "points-bid", "aria-label": "bid points", onchange: (e) => e.target.value && view.play({ bid: Number(e.target.value) }) },
    h("option", { value: "" }, "more points…"), rest.map((n) => h("option", { value: n }, `Due at ${n}`))) : null;
  const canPass = view.legal.some((m) => m.pass);
  return h("div", { class: "auction-moves", id: "bids" },
    quick.map((n) => button({ bid: n }, `bid ${bidName(n)}`, `the declarer's side will need ${bidTarget(n)}`)),
    select,
    canPass ? button({ pass: true }, "pass", "leave the auction for good") : h("span", { class: "dim" }, " everyone else passed: you must bid"));
}

export function render(board, view) {
  const { obs, names } = view;
  const trumpSuit = trumpOf(obs);
  const legal = new Set(view.legal.filter((m) => m.card).map((m) => m.card));
  const sides = sidesOf(obs);
  const sideName = (side) => (side.length > 2 ? `the other ${side.length}` : side.map((i) => names[i]).join(" + "));
  const sidePoints = (side) => side.reduce((sum, i) => sum + obs.captured[i].reduce((a, c) => a + points(c), 0), 0);
  const trick = obs.table.map((code, i) => {
    const seat = (obs.leader + i) % obs.players;
    return h("figure", { class: "played" }, card(code), h("figcaption", {}, names[seat]));
  });
  const trumpBox = obs.trumpCard !== undefined
    ? h("div", { id: "trump", class: "trump" }, obs.trumpFaceUp ? card(obs.trumpCard, "trump-card") : h("span", {}, "drawn"),
      h("p", {}, h("strong", {}, SUITS[trumpSuit][0]), " are trump"))
    : h("div", { id: "trump", class: "trump" }, trumpSuit ? h("p", {}, h("strong", {}, SUITS[trumpSuit][0]), " are trump") : h("p", { class: "dim" }, "trump: named by the call"));
  put(board,
    h("div", { class: "br-table" },
      h("div", { class: "br-side" },
        h("div", { class: "label" }, "Trump (briscola)"),
        trumpBox,
        obs.phase ? null : h("p", { id: "pile-count" }, `Pile: ${obs.pileCount} card${obs.pileCount === 1 ? "" : "s"}`),
        h("table", { class: "grid points", id: "points" },
          h("tbody", {}, sides.map((side) => h("tr", {}, h("td", {}, sideName(side)), h("td", { class: "num" }, `${sidePoints(side)} pts`)))))),
      h("div", { class: "br-main" },
        obs.phase ? auctionPanel(obs, names, view) : null,
        h("div", { class: "label" }, "Trick"),
        h("div", { class: "trick", id: "trick" }, trick.length ? trick : h("span", { class: "dim" }, view.myTurn && obs.phase !== "bidding" && obs.phase !== "calling" ? "You lead: play any card." : "empty")),
        h("div", { class: "label" }, "Your hand"),
        h("div", { class: "hand", id: "hand", role: "group", "aria-label": "your hand" },
          obs.hand.map((code) => {
            const ok = legal.has(code);
            const note = code === obs.calledCard ? " (the called card)" : "";
            return h("button", { type: "button", class: `card-button${ok ? " legal" : ""}`, disabled: !ok, dataset: { card: code },
              title: (ok ? `play ${cardName(code)}` : cardName(code)) + note, onclick: () => view.play({ card: code }) }, card(code));
          })))));
}
