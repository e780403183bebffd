// One table: seats (the one to play highlighted), the game drawn for this user's seat by its screen module
// (games/<game>.js), the last moves, and the way out (quit, asked first) or on (rematch).
import { codes } from "./codes.js";
import { h, put, confirmDialog, banner } from "./dom.js";
import { screens, gameTitle } from "./games.js";
import { seatText } from "./lobby.js";

export class TableView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.state = null;
    this.loading = null;
    this.again = false;
    this.wasMyTurn = false;
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
  }

  close() {
    clearTimeout(this.tick);
    document.removeEventListener("keydown", this.onKey);
    document.title = this.app.titleBase();
  }

  /** Fetches the state and redraws; calls that come while one is under way make one more, not many. */
  async load() {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.again = false;
        try {
          this.state = await this.app.node.send({ op: "state", table: this.id });
        } catch (e) {
          if (e.code === codes.tableUnknown) {
            put(this.app.view, h("div", { class: "card" }, h("p", {}, `No table ${this.id} here (it may be over and forgotten).`),
              h("button", { type: "button", onclick: () => this.app.go(null) }, "Back to the lobby")));
            return;
          }
          banner(e.message, "error");
          return;
        }
        if (this.app.tableView !== this) return;
        this.draw();
      } while (this.again);
    })();
    try { await this.loading; } finally { this.loading = null; }
  }

  event(e) {
    if (e.table !== this.id) return;
    if (e.kind === "rejected") banner(e.message, "error");
    // Leaving stops this node's copy: the leave button says so in the node's words (leave()), not as a stop.
    if (e.kind === "stopped" && !this.leaving) banner(`The table stopped: ${e.message}`, "error", 0);
    this.load();
  }

  /** Leaves the table, then says what that did in the node's words (`TableNotices`: the same as `tavolo leave`
   *  and `tavolo play`) and goes back to the lobby. */
  async leave() {
    this.leaving = true;
    if (await this.app.act({ op: "leave", table: this.id }) === undefined) {
      this.leaving = false;
      return;
    }
    try {
      const after = await this.app.node.send({ op: "state", table: this.id });
      const said = (after.notices || []).find((n) => n.startsWith("You left"));
      if (said) banner(said, "info", 0);
    } catch { /* a table left before its start is gone: nothing more to say */ }
    this.app.go(null);
  }

  get me() { return this.app.status?.id; }

  draw() {
    const st = this.state;
    const info = st.info;
    const seat = st.mySeats[0];
    // Without a seat, a game that hides nothing is drawn from what every seat sees (publicObservation).
    const obs = st.observations[0] ?? st.publicObservation;
    const phase = info.phase;
    const myTurn = phase === "playing" && st.turn !== undefined && st.mySeats.includes(st.turn) && st.legalMoves.length > 0;
    const names = info.seats.map((s, i) => seatText(s, this.me, st.seatNames?.[i], this.app.shown));
    const screen = screens[info.game];
    const focused = focusKey(this.app.view);
    // Focusable, so a keyboard user whose card or square went away in a redraw stays on the board.
    const board = h("div", { class: `board ${info.game}`, id: "board", tabindex: "-1" });
    const view = {
      obs, state: st, seat, names, myTurn,
      legal: myTurn ? st.legalMoves : [],
      isLegal: (move) => myTurn && st.legalMoves.some((m) => JSON.stringify(m) === JSON.stringify(move)),
      play: (move) => this.play(move),
    };
    if (obs && screen) screen.render(board, view);
    else if (!obs && phase !== "open") put(board, h("p", { class: "dim" }, st.mySeats.length ? "Dealing…" : watching(st)));
    else if (!screen) put(board, h("p", {}, `This page cannot draw ${info.game} yet.`));

    put(this.app.view,
      h("div", { class: `table-view ${phase}${myTurn ? " my-turn" : ""}`, dataset: { table: info.id, game: info.game, phase } },
        h("div", { class: "table-title" },
          h("h2", {}, gameTitle(info.game), " ", h("span", { class: "mono dim" }, info.id)),
          h("span", { class: `pill ${phase}` }, phase),
          h("span", { id: "turn-cue", class: myTurn ? "cue on" : "cue", role: "status" },
            myTurn ? (screen?.turnCue || "Your turn") : phase === "playing" && st.turn !== undefined ? (screen?.waitCue || `waiting for ${names[st.turn]}`) : "")),
        this.notices(st),
        this.seatStrip(st, names, screen, obs),
        phase === "open" ? this.openControls(st) : null,
        board,
        this.ending(st, names),
        h("div", { class: "below" },
          // A node away from the table gets no move: no list that would stay empty.
          st.outsider ? null : h("details", { class: "moves", open: true }, h("summary", {}, "Last moves"),
            h("ol", { id: "last-moves" }, st.lastMoves.map((m) => h("li", {}, m)))),
          this.leaveControls(st))));
    refocus(this.app.view, focused);
    this.cue(myTurn);
    // A pause counts down to the bot's takeover: redraw every second while it lasts.
    clearTimeout(this.tick);
    if (phase === "paused") this.tick = setTimeout(() => this.load(), 1000);
  }

  /** Where the user stands (a pause and its countdown, takeovers, a stop), in the node's words: the same texts
   *  as `tavolo play` and `tavolo watch`. */
  notices(st) {
    const lines = (st.notices || []).filter((n) => st.info.phase !== "stopped" || !n.startsWith("The table stopped"));
    if (!lines.length) return null;
    return h("div", { class: "card notices", id: "notices", role: "status" }, lines.map((n) => h("p", {}, n)));
  }

  seatStrip(st, names, screen, obs) {
    return h("ol", { class: "seat-strip", start: 0 }, st.info.seats.map((s, i) =>
      h("li", { class: ["seat", st.turn === i && st.info.phase === "playing" ? "current" : "", st.mySeats.includes(i) ? "mine" : ""].join(" "),
        dataset: { seat: i }, "aria-current": st.turn === i ? "true" : null },
        h("span", { class: "seat-no" }, `seat ${i}`),
        h("span", { class: "seat-name" }, names[i]),
        obs && screen?.seatDetail ? h("span", { class: "seat-detail" }, screen.seatDetail(obs, i)) : null)));
  }

  openControls(st) {
    const info = st.info;
    const amHost = info.host === this.me;
    const free = info.seats.filter((s) => !s.owner);
    const seated = info.seats.some((s) => s.owner === this.me);
    const items = [h("p", {}, free.length ? `Waiting for ${free.length} more player${free.length === 1 ? "" : "s"}.` : "Every seat is taken.")];
    if (!seated && free.length) items.push(h("button", { type: "button", class: "primary", onclick: () => this.app.act({ op: "join", table: info.id }) }, "Take a seat"));
    if (amHost && free.length) items.push(h("button", { type: "button", onclick: async () => {
      const games = (await this.app.act({ op: "games" })) || [];
      const g = games.find((x) => x.name === info.game);
      await this.app.act({ op: "fill", table: info.id, bot: g ? g.defaultBot : "random" });
    } }, "Fill with bots"));
    if (amHost && !free.length) {
      if (this.app.autoStart?.has(info.id)) {
        this.app.autoStart.delete(info.id);
        this.app.act({ op: "start", table: info.id });
      }
      items.push(h("button", { type: "button", class: "primary", id: "start-button", onclick: () => this.app.act({ op: "start", table: info.id }) }, "Start"));
    }
    return h("div", { class: "card open-controls row" }, items);
  }

  leaveControls(st) {
    const phase = st.info.phase;
    const seated = st.info.seats.some((s) => s.owner === this.me);
    const back = h("button", { type: "button", onclick: () => this.app.go(null) }, "Lobby");
    if (!seated || phase === "finished" || phase === "stopped") return h("div", { class: "row" }, back);
    const quit = h("button", { type: "button", class: "danger", id: "quit-button", onclick: async () => {
      const started = phase !== "open";
      // The words of `tavolo leave --help` (TableNotices.leaveHelp).
      const ok = await confirmDialog(started
        ? "Quit this game? You forfeit: it counts as lost for you, and a bot of another player's node plays your seats to the end."
        : "Leave this table? Your seat is freed.", started ? "Quit the game" : "Leave");
      if (ok) await this.leave();
    } }, phase === "open" ? "Leave the table" : "Quit the game");
    return h("div", { class: "row" }, back, " ", quit);
  }

  ending(st, names) {
    const phase = st.info.phase;
    if (phase === "stopped") return h("div", { class: "card result stopped", id: "result" }, h("h3", {}, "Stopped"), h("p", {}, st.stopped || ""));
    if (phase !== "finished" || !st.scores) return null;
    const winners = st.winners || [];
    const mine = st.mySeats.some((s) => winners.includes(s));
    const headline = winners.length === 0 ? "A draw." : mine ? "You win!" : `${winners.map((w) => names[w]).join(" and ")} win${winners.length === 1 ? "s" : ""}.`;
    return h("div", { class: "card result", id: "result" },
      h("h3", {}, headline),
      h("table", { class: "grid scores" },
        h("thead", {}, h("tr", {}, h("th", {}, "seat"), h("th", {}, "player"), h("th", {}, "score"))),
        h("tbody", {}, st.scores.map((score, i) => h("tr", { class: winners.includes(i) ? "winner" : "" },
          h("td", {}, i), h("td", {}, names[i]), h("td", { class: "num" }, score))))),
      st.deck ? h("p", { class: st.deck === "deck verified" ? "deck verified" : "deck cheated", id: "deck" },
        st.deck.charAt(0).toUpperCase() + st.deck.slice(1) + ".") : null,
      h("button", { type: "button", class: "primary", id: "rematch-button", onclick: () => this.rematch(st) }, "Rematch, same seats"));
  }

  /** A new table of the same game: this node's user and bots back in their seats, the others invited to theirs. */
  async rematch(st) {
    const info = st.info;
    const app = this.app;
    const table = await app.act({ op: "host", game: info.game, players: info.players, ...(info.grace ? { grace: info.grace } : {}), ...(info.sealed ? { sealed: true } : {}) });
    if (!table) return;
    let invited = 0;
    for (const s of info.seats) {
      if (s.owner === this.me) await app.act({ op: "join", table: table.id, seat: s.seat, ...(s.bot ? { bot: s.bot } : {}) });
    }
    for (const s of info.seats) {
      if (s.owner === this.me) continue;
      if (s.bot) await app.act({ op: "join", table: table.id, seat: s.seat, bot: s.bot });
      else if (s.ownerName) {
        await app.act({ op: "invite", table: table.id, seat: s.seat, node: s.ownerName });
        invited += 1;
      }
    }
    app.autoStart = app.autoStart || new Set();
    if (invited === 0) await app.act({ op: "start", table: table.id });
    else app.autoStart.add(table.id); // starts when the invited players have taken their seats
    app.go(table.id);
  }

  async play(move) {
    const r = await this.app.act({ op: "move", table: this.id, move });
    if (r !== undefined) this.load();
  }

  /** Keys: 1–9 play the n-th legal move; Escape goes back to the lobby. */
  key(e) {
    if (e.target.closest && e.target.closest("input, textarea, select, dialog")) return;
    if (e.key === "Escape") return this.app.go(null);
    const n = Number(e.key);
    if (n >= 1 && n <= 9) {
      const buttons = [...document.querySelectorAll("#board .legal")];
      if (buttons[n - 1]) {
        e.preventDefault();
        buttons[n - 1].click();
      }
    }
  }

  /** The "your turn" cue: the title, a short tone, a notification when the page is not in front. */
  cue(myTurn) {
    const base = `${gameTitle(this.state.info.game)} — ${this.app.titleBase()}`;
    document.title = myTurn ? `▶ Your turn — ${base}` : base;
    if (myTurn && !this.wasMyTurn) {
      tone();
      if (document.hidden && "Notification" in window && Notification.permission === "granted") {
        new Notification("Tavolo: your turn", { body: `${gameTitle(this.state.info.game)} at ${this.state.info.id}`, tag: "tavolo-turn" });
      }
    }
    this.wasMyTurn = myTurn;
  }
}

/** Where a person without a seat stands: at a table its node plays (its bots, or voted out) the moves come as they
 *  are played; away from it (`outsider`, said in the notices in the node's words) none do. */
function watching(st) {
  if (st.outsider) return "Only the table's seats, its phase and its end reach your node.";
  return "You hold no seat here: watching. The moves show below as they are played; hands stay hidden.";
}

/** What has the keyboard's focus in the view, as a selector that finds it again after a redraw (the page redraws
 *  the whole table at every event: without this a keyboard user is sent back to the top at each move). */
function focusKey(view) {
  const el = document.activeElement;
  if (!el || el === view || !view.contains(el)) return null;
  for (const k of ["square", "card", "tile", "seat"]) {
    if (el.dataset?.[k] !== undefined) return { selector: `[data-${k}="${CSS.escape(el.dataset[k])}"]`, inBoard: !!el.closest("#board") };
  }
  return el.id ? { selector: `#${CSS.escape(el.id)}`, inBoard: !!el.closest("#board") } : null;
}

function refocus(view, key) {
  if (!key) return;
  const again = view.querySelector(key.selector);
  if (again && !again.disabled) return again.focus({ preventScroll: true });
  if (key.inBoard) document.getElementById("board")?.focus({ preventScroll: true });
}

let audio = null;
function tone() {
  try {
    audio = audio || new AudioContext();
    if (audio.state !== "running") return; // browsers allow sound only after the user touched the page
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch { /* no sound: the title still says it */ }
}
document.addEventListener("pointerdown", () => { if (audio && audio.state === "suspended") audio.resume(); });
