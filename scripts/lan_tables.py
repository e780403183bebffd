"""Tables played at once by tavolod nodes, through their control sockets (PROTOCOL.md §7, §9.7): `scripts/lan-mesh
--tables T` plays T tables on disjoint groups of nodes at the same time, then one of those tables alone, so the
two are compared in one run on the same machine (issue 36: each table at once within 1.5x the latency alone).

A table: its first node hosts, every node of the group takes a seat with a bot, the host starts; the table is over
when every member reported `finished` or one reported `stopped`. It agreed when every member finished with the same
final state hash. Latencies are the members' own (`state`'s `confirmLatencyMs`: a move to every confirmation).
"""
import json, socket, threading, time


class ControlError(Exception):
    pass


class Control:
    """One JSON-lines connection to a node's control socket."""

    def __init__(self, path, timeout=20):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(timeout)
        self.s.connect(path)
        self.buf = b""
        self.next_id = 0

    def line(self):
        while b"\n" not in self.buf:
            chunk = self.s.recv(1 << 20)
            if not chunk:
                raise ControlError("the node closed its control socket")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def call(self, op, **params):
        self.next_id += 1
        self.s.sendall((json.dumps(dict(params, id=self.next_id, op=op)) + "\n").encode())
        r = self.line()
        if not r.get("ok"):
            raise ControlError("%s: %s" % (op, r.get("error")))
        return r.get("result")

    def close(self):
        self.s.close()


def call(path, op, **params):
    c = Control(path)
    try:
        return c.call(op, **params)
    finally:
        c.close()


def timed_call(path, op):
    """Seconds one request takes on a fresh connection, as `tavolo peers` would see it."""
    start = time.time()
    call(path, op)
    return time.time() - start


class Ends:
    """`finished` and `stopped` events of every node, by table, then by node (its socket path), read by one thread
    per node: a node at several tables reports each table's end once."""

    def __init__(self, paths):
        self.cond = threading.Condition()
        self.by_table = {}
        self.conns = []
        for p in dict.fromkeys(paths):
            c = Control(p, timeout=None)
            c.call("events", kinds=["finished", "stopped"])
            self.conns.append(c)
            threading.Thread(target=self.read, args=(p, c), daemon=True).start()

    def read(self, i, c):
        while True:
            try:
                e = c.line().get("event")
            except Exception:
                return
            if not e:
                continue
            with self.cond:
                self.by_table.setdefault(e["table"], {})[i] = e
                self.cond.notify_all()

    def wait(self, table, members, timeout):
        """The end events of `table` once every one of `members` (socket paths) reported, or one stopped."""
        deadline = time.time() + timeout
        with self.cond:
            while True:
                got = {p: e for p, e in self.by_table.get(table, {}).items() if p in members}
                if len(got) == len(members) or any(e["kind"] == "stopped" for e in got.values()):
                    return dict(got)
                left = deadline - time.time()
                if left <= 0:
                    return dict(got)
                self.cond.wait(left)

    def close(self):
        for c in self.conns:
            c.close()


def wait_until(what, timeout, check):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if check():
                return
        except (OSError, ControlError, ValueError):
            pass
        time.sleep(0.05)
    raise ControlError("timed out waiting until " + what)


def play_one(paths, ends, game, bot, timeout):
    """One game at one table; its figures."""
    host = paths[0]
    table = call(host, "host", game=game, players=len(paths))["id"]
    wait_until("every member sees %s" % table, 60,
               lambda: all(any(t["id"] == table for t in call(p, "tables")) for p in paths))
    for seat, p in enumerate(paths):
        call(p, "join", table=table, seat=seat, bot=bot)
    wait_until("every seat of %s taken" % table, 60,
               lambda: all(s.get("owner") for t in call(host, "tables") if t["id"] == table for s in t["seats"]))
    start = time.time()
    call(host, "start", table=table)
    got = ends.wait(table, set(paths), timeout)
    wall = time.time() - start
    finished = [e for e in got.values() if e["kind"] == "finished"]
    hashes = {e.get("stateHash") for e in finished}
    latencies = []
    for p in paths:
        try:
            latencies += call(p, "state", table=table).get("confirmLatencyMs") or []
        except (OSError, ControlError):
            pass
    moves = finished[0].get("moveNumber", 0) if finished else 0
    return {"table": table, "agreed": len(finished) == len(paths) and len(hashes) == 1, "moves": moves,
            "wallSeconds": wall, "latencyMs": latencies,
            "stopped": [e.get("message") for e in got.values() if e["kind"] == "stopped"]}


def percentile(xs, q):
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def summarize(games):
    moves = sum(g["moves"] for g in games)
    wall = sum(g["wallSeconds"] for g in games)
    lat = [x for g in games for x in g["latencyMs"]]
    return {"agreed": all(g["agreed"] for g in games), "games": len(games), "moves": moves,
            "movesPerSecond": moves / wall if wall > 0 else 0, "latencyP50Ms": percentile(lat, 0.5),
            "latencyP99Ms": percentile(lat, 0.99), "stopped": [s for g in games for s in g["stopped"]]}


def play_tables(groups, game="spirits", bot="heuristic", games=2, timeout=300):
    """Plays `games` games one after another at each group's table, all groups at once; per-table summaries."""
    ends = Ends([p for g in groups for p in g])
    results = [None] * len(groups)

    def run(k):
        try:
            results[k] = summarize([play_one(groups[k], ends, game, bot, timeout) for _ in range(games)])
        except Exception as e:  # a table that could not be played is reported, not hidden
            results[k] = {"agreed": False, "error": str(e), "moves": 0, "movesPerSecond": 0,
                          "latencyP50Ms": None, "latencyP99Ms": None}

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(groups))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ends.close()
    return results


def compare(groups, game="spirits", bot="heuristic", games=2, timeout=300, settle=10):
    """The first table alone, then all at once: `{"atOnce": [...], "alone": {...}, "worstP50Ratio"}`. Between
    the two, `settle` seconds: the records of the first games travel to every node (§11), and the tables at once
    should not pay for that."""
    alone = play_tables(groups[:1], game, bot, games, timeout)[0]
    time.sleep(settle)
    at_once = play_tables(groups, game, bot, games, timeout)
    ratios = [t["latencyP50Ms"] / alone["latencyP50Ms"] for t in at_once
              if alone.get("latencyP50Ms") and t.get("latencyP50Ms") is not None]
    worst = max(ratios) if ratios else None  # a table without latencies is reported as not agreed
    return {"tables": len(groups), "players": len(groups[0]), "game": game, "bot": bot, "gamesPerTable": games,
            "atOnce": at_once, "alone": alone, "worstP50Ratio": worst}


def report_lines(r):
    """The comparison for people."""
    at = r["atOnce"]
    lat50 = [t["latencyP50Ms"] for t in at if t["latencyP50Ms"] is not None]
    lat99 = [t["latencyP99Ms"] for t in at if t["latencyP99Ms"] is not None]
    a = r["alone"]
    lines = ["  %d %d-player %s tables at once, %s bots, %d game(s) each: %d/%d agreed; moves/s per table median %.0f "
             "(min %.0f), all tables %.0f" % (
                 r["tables"], r["players"], r["game"], r["bot"], r["gamesPerTable"],
                 sum(1 for t in at if t["agreed"]), len(at), percentile([t["movesPerSecond"] for t in at], 0.5),
                 min(t["movesPerSecond"] for t in at), sum(t["movesPerSecond"] for t in at)),
             "    latency per table: p50 median %s ms (worst %s ms), p99 median %s ms (worst %s ms)" % (
                 fmt(percentile(lat50, 0.5)), fmt(max(lat50) if lat50 else None), fmt(percentile(lat99, 0.5)),
                 fmt(max(lat99) if lat99 else None)),
             "  one table alone, same nodes: agreed %s, %.0f moves/s, p50 %s ms, p99 %s ms" % (
                 "yes" if a["agreed"] else "NO", a["movesPerSecond"], fmt(a["latencyP50Ms"]), fmt(a["latencyP99Ms"])),
             "  worst table's p50 at once / alone: %s (goal <= 1.5)" % fmt(r["worstP50Ratio"], "%.2f")]
    for k, t in enumerate(at):
        if not t["agreed"]:
            lines.append("    table %d: NOT agreed: %s" % (k, t.get("error") or t.get("stopped")))
    return lines


def fmt(x, f="%.2f"):
    return "-" if x is None else f % x
