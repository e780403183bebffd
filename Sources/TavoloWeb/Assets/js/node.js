// The page's connection to its node: a WebSocket that carries control requests (PROTOCOL.md §7) and their
// responses, and the node's event and chat streams.
export class Node {
  constructor() {
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = { event: [], chat: [], open: [], close: [] };
    this.open = false;
  }

  connect() {
    const token = new URLSearchParams(location.search).get("token") || "";
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?token=${encodeURIComponent(token)}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.open = true;
      // Streams first: nothing that happens after the page draws itself is missed.
      this.send({ op: "events" });
      this.send({ op: "chat-log", follow: true }).then((entries) => {
        for (const e of entries || []) this.emit("chat", e, true);
      });
      this.emit("open");
    };
    ws.onmessage = (m) => this.receive(m.data);
    ws.onclose = () => {
      const wasOpen = this.open;
      this.open = false;
      for (const { reject } of this.pending.values()) reject(new Error("connection to the node lost"));
      this.pending.clear();
      this.emit("close", wasOpen);
      setTimeout(() => this.connect(), wasOpen ? 500 : 2000);
    };
  }

  receive(text) {
    let line;
    try { line = JSON.parse(text); } catch { return; }
    if (line.event) return this.emit("event", line.event);
    if (line.chat) return this.emit("chat", line.chat, false);
    const waiter = this.pending.get(line.id);
    if (!waiter) return;
    this.pending.delete(line.id);
    if (line.ok) waiter.resolve(line.result);
    else waiter.reject(Object.assign(new Error(line.error?.message || "failed"), { code: line.error?.code }));
  }

  /** Sends a request; resolves with its result, rejects with the node's error (message and code). */
  send(request) {
    if (!this.open) return Promise.reject(new Error("not connected to the node"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...request, id }));
    });
  }

  on(kind, f) { this.listeners[kind].push(f); }

  emit(kind, ...args) {
    for (const f of this.listeners[kind]) {
      try { f(...args); } catch (e) { console.error(e); }
    }
  }
}
