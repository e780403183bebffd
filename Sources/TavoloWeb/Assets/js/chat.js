// Chat beside the lobby and each table (PROTOCOL.md §12). Messages are shown with textContent: text, never markup.
import { h, put } from "./dom.js";
import { nameMarker } from "./names.js";

const MAX_BYTES = 500;

export class Chat {
  constructor(app, el) {
    this.app = app;
    this.el = el;
    this.room = "lobby";
    this.entries = [];
    this.seen = new Set();
    this.title = h("h2", {}, "Lobby chat");
    this.list = h("ol", { class: "messages", id: "chat-messages", "aria-live": "polite" });
    this.input = h("input", { type: "text", id: "chat-input", maxlength: MAX_BYTES, placeholder: "Say something…", autocomplete: "off", "aria-label": "message" });
    this.counter = h("span", { class: "dim counter" }, "");
    this.input.addEventListener("input", () => {
      const n = new TextEncoder().encode(this.input.value).length;
      this.counter.textContent = n > MAX_BYTES - 100 ? `${n}/${MAX_BYTES}` : "";
    });
    const form = h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.send(); } },
      this.input, h("button", { type: "submit", id: "chat-send" }, "Send"), this.counter);
    put(el, this.title, this.list, form);
  }

  setRoom(room) {
    this.room = room;
    this.title.textContent = room === "lobby" ? "Lobby chat" : "Table chat";
    this.draw();
  }

  /** A message from the node: `old` ones come from the history when the page (re)connects. */
  add(entry, old) {
    const key = `${entry.at}|${entry.fromId}|${entry.room}|${entry.text}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.entries.push(entry);
    if (this.entries.length > 500) this.entries.shift();
    if (entry.room === this.room) this.draw();
    else if (!old && !entry.mine) this.title.textContent = `${this.room === "lobby" ? "Lobby chat" : "Table chat"} · new in ${entry.room}`;
  }

  draw() {
    const shown = this.entries.filter((e) => e.room === this.room);
    // The writers of these lines count as known names too, like the CLI's `chat` (a look-alike need not be a peer).
    const name = nameMarker([...this.app.knownNames(), ...shown.map((e) => ({ name: e.from, node: e.fromId }))]);
    put(this.list, shown.map((e) =>
      h("li", { class: e.mine ? "mine" : "" },
        h("span", { class: "who" }, name(e.from, e.fromId)), " ",
        h("span", { class: "text" }, e.text),
        h("time", { class: "dim", datetime: new Date(e.at).toISOString() }, ` ${new Date(e.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`))));
    if (!shown.length) this.list.append(h("li", { class: "dim" }, this.room === "lobby" ? "Nobody has said anything yet." : "Say hello to the table."));
    this.list.scrollTop = this.list.scrollHeight;
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    const r = await this.app.act({ op: "chat", room: this.room, text });
    if (r !== undefined) this.input.value = "";
  }
}
