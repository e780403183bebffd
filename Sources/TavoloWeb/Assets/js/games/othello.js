// Othello: the board (rank 8 at the top), the legal squares marked and clickable, the disc count.
import { h, s, put } from "../dom.js";

const FILES = "abcdefgh";
const DISC = { X: ["black", "#111"], O: ["white", "#f7f7f7"] };

function disc(ch) {
  return s("svg", { viewBox: "0 0 40 40", width: "100%", height: "100%", "aria-hidden": "true" },
    ch === "." ? null : s("circle", { cx: 20, cy: 20, r: 16, fill: DISC[ch][1], stroke: "#333", "stroke-width": 1.5 }));
}

export function seatDetail(obs, seat) {
  return `${seat === 0 ? "black" : "white"} · ${obs.discs[seat]} discs`;
}

export function render(board, view) {
  const { obs } = view;
  const legal = new Set(view.legal.filter((m) => m !== "pass"));
  // A group of labelled buttons ("d3, legal", "e4 black"), not an ARIA grid: a grid needs rows and cells, which
  // would hide the buttons' role from a screen reader.
  const grid = h("div", { class: "ot-board", id: "othello-board", role: "group", "aria-label": "board, rank 8 at the top" });
  obs.board.forEach((row, r) => {
    const rank = 8 - r;
    [...row].forEach((ch, c) => {
      const square = `${FILES[c]}${rank}`;
      const ok = legal.has(square);
      grid.append(h("button", { type: "button", class: `sq${ok ? " legal" : ""}${ch !== "." ? ` ${DISC[ch][0]}` : ""}`,
        dataset: { square }, disabled: !ok, "aria-label": ch === "." ? `${square}${ok ? ", legal" : ""}` : `${square} ${DISC[ch][0]}`,
        onclick: () => view.play(square) }, disc(ch)));
    });
  });
  const colour = view.seat === 0 ? "black" : "white";
  put(board,
    h("div", { class: "ot-table" },
      h("div", { class: "ot-files", "aria-hidden": "true" }, [...FILES].map((f) => h("span", {}, f))),
      h("div", { class: "ot-wrap" },
        h("div", { class: "ot-ranks", "aria-hidden": "true" }, [8, 7, 6, 5, 4, 3, 2, 1].map((n) => h("span", {}, n))),
        grid),
      h("p", { id: "discs", class: "discs" },
        h("span", { class: "chip black" }, `● black ${obs.discs[0]}`), "  ",
        h("span", { class: "chip white" }, `○ white ${obs.discs[1]}`),
        view.seat !== undefined ? h("span", { class: "dim" }, ` — you play ${colour}`) : null),
      view.legal.includes("pass") ? h("button", { type: "button", class: "primary legal", id: "pass-button", onclick: () => view.play("pass") }, "No move: pass") : null));
}
