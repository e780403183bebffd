// The page: one connection to the node, two views (the lobby and a table), the chat beside them.
import { Node } from "./node.js";
import { banner, put, h } from "./dom.js";
import { renderLobby } from "./lobby.js";
import { TableView } from "./table.js";
import { Chat } from "./chat.js";
import { nameMarker } from "./names.js";

const app = {
  node: new Node(),
  status: null,
  peers: [],
  tables: [],
  /** Invitations received and not answered: table id → {seat, message, game}. */
  invitations: new Map(),
  tableView: null,
  chat: null,
  /** `shown(name, node)`: the name, with its node's id beside it when it looks like another known node's. */
  shown: (name) => name,
  knownKey: "",
  view: document.getElementById("view"),

  /** Where the user is: null (the lobby) or a table id, from the URL's fragment. */
  get route() {
    const m = location.hash.match(/^#\/table\/([A-Za-z0-9-]{1,64})$/);
    return m ? m[1] : null;
  },

  go(tableId) {
    location.hash = tableId ? `#/table/${tableId}` : "#/";
  },

  async refresh() {
    const n = this.node;
    try {
      const [status, peers, tables] = await Promise.all([
        n.send({ op: "status" }), n.send({ op: "peers" }), n.send({ op: "tables" }),
      ]);
      this.status = status;
      this.peers = peers;
      this.tables = tables;
      this.learnNames();
      document.getElementById("me").textContent = `${status.name} · ${status.connectedPeers} peer${status.connectedPeers === 1 ? "" : "s"}`;
      if (!this.route) {
        document.title = this.titleBase();
        renderLobby(this);
      }
    } catch (e) {
      if (n.open) banner(e.message, "error");
    }
  },

  /** The nodes this page knows by name: itself, its peers, the tables' hosts and seat owners. */
  knownNames() {
    const known = [{ name: this.status?.name, node: this.status?.id }];
    for (const p of this.peers) known.push({ name: p.name, node: p.id });
    for (const t of this.tables) {
      known.push({ name: t.hostName, node: t.host });
      for (const s of t.seats) known.push({ name: s.ownerName, node: s.owner });
    }
    return known;
  },

  /** Rebuilds `shown` from the names known now; the chat is redrawn only when they changed (a redraw scrolls it). */
  learnNames() {
    const known = this.knownNames();
    this.shown = nameMarker(known);
    const key = known.map((k) => `${k.node}:${k.name}`).sort().join("|");
    if (key !== this.knownKey) {
      this.knownKey = key;
      this.chat?.draw();
    }
  },

  titleBase() {
    return this.status ? `Tavolo — ${this.status.name}` : "Tavolo";
  },

  /** Runs a request for a button: errors become a banner, not an exception. */
  async act(request) {
    try {
      return await this.node.send(request);
    } catch (e) {
      banner(`${e.message}${e.code ? ` [${e.code}]` : ""}`, "error");
      return undefined;
    }
  },

  show() {
    const id = this.route;
    if (this.tableView && this.tableView.id !== id) {
      this.tableView.close();
      this.tableView = null;
    }
    if (id) {
      if (!this.tableView) this.tableView = new TableView(this, id);
      this.tableView.load();
    } else {
      document.title = this.titleBase();
      renderLobby(this);
    }
    this.chat?.setRoom(id || "lobby");
  },
};

app.chat = new Chat(app, document.getElementById("chat"));

/** The node went away under the page: the words of `tavolo play` and `tavolo watch` (TableNotices.ownNodeStopped,
 *  checked by WebAssetsTests), then the page's own way back. */
export const OWN_NODE_STOPPED =
  "Your node stopped. Your seats wait for you for the table's grace period: start tavolod again";
let nodeStoppedBanner = null;

app.node.on("open", () => {
  put(document.getElementById("link"), "connected");
  document.getElementById("link").className = "link ok";
  nodeStoppedBanner?.();
  nodeStoppedBanner = null;
  app.refresh().then(() => app.show());
});
app.node.on("close", (wasOpen) => {
  put(document.getElementById("link"), "node unreachable — retrying…");
  document.getElementById("link").className = "link bad";
  // Once, when a link that was up goes down; it stays until the node answers again (its page keeps its port).
  if (wasOpen && !nodeStoppedBanner)
    nodeStoppedBanner = banner(`${OWN_NODE_STOPPED}; this page comes back by itself when it answers.`, "error", 0);
});
app.node.on("event", (e) => {
  if (e.kind === "invited") {
    const table = app.tables.find((t) => t.id === e.table);
    app.invitations.set(e.table, { seat: e.seat, message: e.message, game: e.game });
    banner(h("span", {}, `${e.message} `, h("a", { href: "#/" }, "see the lobby")), "info", 10000);
    void table;
  }
  if (e.kind === "seat-refused") banner(e.message, "error");
  if (["offered", "updated", "invited", "started", "finished", "stopped", "seat-refused"].includes(e.kind)) {
    clearTimeout(app.refreshTimer);
    app.refreshTimer = setTimeout(() => app.refresh(), 100);
  }
  app.tableView?.event(e);
});
app.node.on("chat", (entry, old) => app.chat.add(entry, old));

window.addEventListener("hashchange", () => app.show());
document.getElementById("home").addEventListener("click", (ev) => {
  ev.preventDefault();
  app.go(null);
});
const notifyButton = document.getElementById("notify");
if (!("Notification" in window)) notifyButton.hidden = true;
notifyButton.addEventListener("click", async () => {
  const answer = await Notification.requestPermission();
  notifyButton.textContent = answer === "granted" ? "Notifications on" : "Notify me";
});
// Peers' round trips change without events.
setInterval(() => { if (app.node.open && !app.route) app.refresh(); }, 3000);

window.tavolo = app; // for the browser tests and the curious
app.node.connect();
