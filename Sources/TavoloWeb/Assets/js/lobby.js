// The lobby: this node, its peers, the tables it knows, invitations, and forms to host, automatch and join.
import { codes } from "./codes.js";
import { h, put } from "./dom.js";
import { gameTitle } from "./games.js";

let games = null; // the node's `games` result, fetched once
// A game with hidden cards is dealt sealed unless the box is cleared (PROTOCOL.md §14). Kept across redraws.
const form = { game: "spirits", players: "3", bots: true, sealed: true, grace: "120" };

export async function renderLobby(app) {
  if (!games) games = (await app.act({ op: "games" })) || [];
  if (app.route) return; // the user went to a table meanwhile
  const me = app.status?.id;
  const mine = (t) => t.seats.some((s) => s.owner === me);
  const open = app.tables.filter((t) => t.phase === "open");
  const running = app.tables.filter((t) => t.phase !== "open");
  put(
    app.view,
    h("div", { class: "lobby" },
      h("section", { class: "card node" }, h("h2", {}, "This node"), nodeInfo(app)),
      invitations(app),
      h("section", { class: "card host" }, h("h2", {}, "Play"), hostForm(app)),
      h("section", { class: "card tables" },
        h("h2", {}, "Open tables"),
        open.length ? tableList(app, open, mine) : h("p", { class: "dim" }, "No open table. Host one, or automatch."),
        h("h2", {}, "Running and recent tables"),
        running.length ? tableList(app, running, mine) : h("p", { class: "dim" }, "None yet.")),
      h("section", { class: "card peers" }, h("h2", {}, "Peers nearby"), peerList(app))));
}

function nodeInfo(app) {
  const st = app.status;
  if (!st) return h("p", {}, "…");
  return h("dl", { class: "facts" },
    h("dt", {}, "name"), h("dd", { id: "node-name" }, st.name),
    h("dt", {}, "id"), h("dd", { class: "mono" }, st.id.slice(0, 8)),
    h("dt", {}, "port"), h("dd", {}, `tcp/udp ${st.tcpPort}`),
    h("dt", {}, "peers"), h("dd", {}, `${st.connectedPeers} connected`));
}

function peerList(app) {
  if (!app.peers.length) return h("p", { class: "dim" }, "No other node found yet (they appear as they start).");
  return h("table", { class: "grid" },
    h("thead", {}, h("tr", {}, h("th", {}, "node"), h("th", {}, "state"), h("th", {}, "round trip"))),
    h("tbody", {}, app.peers.map((p) =>
      h("tr", { class: `peer ${p.state}` },
        h("td", {}, app.shown(p.name, p.id)),
        h("td", {}, h("span", { class: `pill ${p.state}` }, p.state), p.reason ? h("span", { class: "dim" }, ` ${p.reason}`) : null),
        h("td", { class: "num" }, p.rttMs === undefined ? "—" : `${p.rttMs.toFixed(1)} ms`)))));
}

const declined = new Set();

function invitations(app) {
  // From the events, and from the tables themselves (a seat reserved for this node), so a reload forgets none.
  const found = new Map(app.invitations);
  for (const t of app.tables) {
    if (t.phase !== "open") continue;
    for (const seat of t.seats) {
      if (!seat.owner && seat.invited === app.status?.name && !found.has(t.id))
        found.set(t.id, { seat: seat.seat, game: t.game, message: `${app.shown(t.hostName, t.host)} invites you to ${gameTitle(t.game)}, seat ${seat.seat}.` });
    }
  }
  const items = [...found.entries()].filter(([id]) => {
    const t = app.tables.find((x) => x.id === id);
    return !declined.has(id) && (!t || (t.phase === "open" && t.seats.some((s) => !s.owner)));
  });
  if (!items.length) return null;
  return h("section", { class: "card invitations" },
    h("h2", {}, "Invitations"),
    h("ul", {}, items.map(([id, inv]) =>
      h("li", { class: "invitation", dataset: { table: id } },
        h("span", {}, `${inv.message} `),
        h("button", { type: "button", class: "primary", onclick: async () => {
          app.invitations.delete(id);
          if (await app.act({ op: "join", table: id, seat: inv.seat })) app.go(id);
        } }, "Accept"),
        " ",
        h("button", { type: "button", onclick: () => { app.invitations.delete(id); declined.add(id); renderLobby(app); } }, "Decline")))));
}

function hostForm(app) {
  const game = games.find((g) => g.name === form.game) || games[0];
  if (!game) return h("p", {}, "This node plays no game.");
  if (!game.playerCounts.includes(Number(form.players))) form.players = String(game.playerCounts[0]);
  const gameSelect = h("select", { id: "host-game", onchange: (e) => { form.game = e.target.value; renderLobby(app); } },
    games.map((g) => h("option", { value: g.name, selected: g.name === game.name }, gameTitle(g.name))));
  const playersSelect = h("select", { id: "host-players", "aria-label": "number of players", onchange: (e) => { form.players = e.target.value; } },
    game.playerCounts.map((n) => h("option", { value: n, selected: String(n) === form.players }, `${n} players`)));
  const bots = h("input", { type: "checkbox", id: "host-bots", checked: form.bots, onchange: (e) => { form.bots = e.target.checked; } });
  // A sealed deck (PROTOCOL.md §14): no node, this one included, can read a hand its seat may not see.
  const sealed = game.sealable ? h("input", { type: "checkbox", id: "host-sealed", checked: form.sealed,
    onchange: (e) => { form.sealed = e.target.checked; } }) : null;
  // Seconds a player lost during play has to come back before a bot takes the seat (PROTOCOL.md §9.10).
  const grace = h("input", { type: "number", id: "host-grace", min: 1, max: 86400, step: 1, value: form.grace, class: "narrow",
    oninput: (e) => { form.grace = e.target.value; } });
  return h("div", { class: "host-form" },
    h("p", { class: "dim" }, game.summary),
    h("div", { class: "row" },
      h("label", {}, "Game ", gameSelect), " ",
      h("label", {}, playersSelect), " ",
      h("label", { title: `the node's ${game.defaultBot} bot takes every other seat` }, bots, " fill the other seats with bots"), " ",
      sealed ? h("label", { title: "the players shuffle and open the cards together: no node can read another hand; checked at the end" }, sealed, " sealed deck") : null, sealed ? " " : null,
      h("label", { title: "how long a player who drops out has to come back before a bot takes the seat" }, "grace period (s) ", grace)),
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", id: "host-button", onclick: () => host(app, game) }, "Host a table"),
      " ",
      h("button", { type: "button", id: "automatch-button", onclick: () => automatch(app, game),
        title: "join the oldest open table of this game with a free seat, or host one" }, `Any open ${gameTitle(game.name)} table`)));
}

/** `sealed: true` for a game with hidden cards unless the form's box is cleared. */
const sealedField = (game) => (game.sealable && form.sealed ? { sealed: true } : {});

async function host(app, game) {
  const table = await app.act({ op: "host", game: game.name, players: Number(form.players), ...graceField(),
    ...sealedField(game) });
  if (!table) return;
  await app.act({ op: "join", table: table.id, seat: 0 });
  if (form.bots) {
    await app.act({ op: "fill", table: table.id, bot: game.defaultBot });
    await app.act({ op: "start", table: table.id });
  }
  app.go(table.id);
}

async function automatch(app, game) {
  try {
    const { table } = await app.node.send({ op: "join", game: game.name });
    app.go(table);
  } catch (e) {
    if (e.code !== codes.tableNoneOpen) return app.act({ op: "join", game: game.name });
    // None open: host one with this node's user at seat 0 and wait for others to find it.
    const table = await app.act({ op: "host", game: game.name, players: Number(form.players), ...graceField(),
      ...sealedField(game) });
    if (!table) return;
    await app.act({ op: "join", table: table.id, seat: 0 });
    app.go(table.id);
  }
}

/** Who sits at a seat, as a short text: the node's words (`TableNotices.seatNames`: `bob`, `bot (greedy) for bob`)
 *  when it gave them, the same built here for the lobby's list; the owner's name as `shown` gives it (with its id
 *  when it looks like another node's, names.js). */
export function seatText(s, me, named, shown = (name) => name) {
  const owner = s.ownerName ? shown(s.ownerName, s.owner) : s.ownerName;
  if (s.owner === me && !s.bot) return `${owner} (you)`;
  if (named) return owner && owner !== s.ownerName ? named.replace(s.ownerName, owner) : named;
  if (!s.owner) return s.invited ? `reserved for ${s.invited}` : "free";
  return s.bot ? `bot (${s.bot}) for ${owner}` : owner;
}

function tableList(app, tables, mine) {
  const me = app.status?.id;
  return h("ul", { class: "table-list" }, tables.map((t) => {
    const amHost = t.host === me;
    const seated = mine(t);
    const free = t.seats.filter((s) => !s.owner);
    const buttons = [];
    if (t.phase === "open" && free.length && !seated)
      buttons.push(h("button", { type: "button", class: "primary join", onclick: async () => {
        if (await app.act({ op: "join", table: t.id })) app.go(t.id);
      } }, "Join"));
    if (amHost && t.phase === "open" && free.length)
      buttons.push(h("button", { type: "button", onclick: async () => {
        const g = games.find((x) => x.name === t.game);
        await app.act({ op: "fill", table: t.id, bot: g ? g.defaultBot : "random" });
      } }, "Fill with bots"));
    if (amHost && t.phase === "open" && !free.length)
      buttons.push(h("button", { type: "button", class: "primary start", onclick: async () => {
        if (await app.act({ op: "start", table: t.id })) app.go(t.id);
      } }, "Start"));
    if (seated || amHost || t.phase !== "open")
      buttons.push(h("button", { type: "button", class: "open", onclick: () => app.go(t.id) }, seated ? "Open" : "Watch"));
    return h("li", { class: `table-item ${t.phase}`, dataset: { table: t.id, game: t.game } },
      h("div", { class: "table-head" },
        h("strong", {}, gameTitle(t.game)), " ",
        h("span", { class: "mono dim" }, t.id), " ",
        h("span", { class: `pill ${t.phase}` }, t.phase), " ",
        h("span", { class: "dim" }, `host ${app.shown(t.hostName, t.host)}`)),
      h("ol", { class: "seats", start: 0 }, t.seats.map((s) =>
        h("li", { class: s.owner ? "taken" : "free" }, `seat ${s.seat}: ${seatText(s, me, undefined, app.shown)}`))),
      h("div", { class: "row" }, buttons, amHost && t.phase === "open" && free.length ? inviteForm(app, t, free) : null));
  }));
}

function inviteForm(app, t, free) {
  const peers = app.peers.filter((p) => p.state === "connected");
  if (!peers.length) return null;
  const who = h("select", { "aria-label": "node to invite" }, peers.map((p) => h("option", { value: p.name }, app.shown(p.name, p.id))));
  const seat = h("select", { "aria-label": "seat" }, free.map((s) => h("option", { value: s.seat }, `seat ${s.seat}`)));
  return h("span", { class: "invite" }, " invite ", who, " to ", seat, " ",
    h("button", { type: "button", onclick: () => app.act({ op: "invite", table: t.id, seat: Number(seat.value), node: who.value }) }, "Invite"));
}

/** The host form's grace period, as the `host` request's `grace` (left out when the field is empty or not a number). */
function graceField() {
  const n = Number(form.grace);
  return form.grace !== "" && Number.isInteger(n) && n > 0 ? { grace: n } : {};
}
