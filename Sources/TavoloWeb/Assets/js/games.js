// One module per game screen. Each exports `render(board, view)`, where `board` is the element to draw in and
// `view` is { obs, state, seat, legal, myTurn, play(move), names } (see table.js). A new game adds its module
// here and in Sources/TavoloWeb/WebAssets.swift.
import * as spirits from "./games/spirits.js";
import * as briscola from "./games/briscola.js";
import * as othello from "./games/othello.js";
import * as fifteen from "./games/fifteen.js";

export const screens = { spirits, briscola, othello, fifteen, fifteen5: fifteen, fifteen6: fifteen };

const titles = { spirits: "Spirits!", briscola: "Briscola", othello: "Othello", fifteen: "Fifteen race", fifteen5: "Fifteen race 5×5", fifteen6: "Fifteen race 6×6" };

export function gameTitle(name) {
  return titles[name] || name;
}
