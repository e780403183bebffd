import TavoloCore
import TavoloProtocol
import TavoloTable

/// The virtual clock: the next event is the earliest of every link's head and every timer (ties by the order they
/// were made), so a run is a pure function of the seed.
extension InMemoryTableNetwork {
    enum Next {
        case delivery(from: Int, to: Int)
        case timer(Int)
    }

    func next() -> (at: Int64, seq: UInt64, what: Next)? {
        var best: (at: Int64, seq: UInt64, what: Next)?
        func consider(_ at: Int64, _ seq: UInt64, _ what: Next) {
            if let b = best, (b.at, b.seq) <= (at, seq) { return }
            best = (at, seq, what)
        }
        for a in links.indices {
            for b in links[a].indices {
                if let head = links[a][b].first { consider(head.at, head.seq, .delivery(from: a, to: b)) }
            }
        }
        for (k, t) in timers.enumerated() { consider(t.at, t.seq, .timer(k)) }
        return best
    }

    /// When the next message, session change or timer is due; nil when nothing is left to happen.
    public var nextEventTime: Int64? { next()?.at }

    /// Moves the clock on to `time` (for an action of the test's own, due before the next event).
    public mutating func advance(to time: Int64) { now = max(now, time) }

    /// Handles the next event; false when there is none (the network is quiescent).
    @discardableResult
    public mutating func step() -> Bool {
        guard let (at, _, what) = next() else { return false }
        now = max(now, at)
        switch what {
        case .delivery(let a, let b):
            let item = links[a][b].removeFirst().item
            deliver(item, from: a, to: b)
        case .timer(let k):
            let t = timers.remove(at: k)
            input(t.node, "timer \(t.timer)") { $0.timerFired(t.timer) }
        }
        return true
    }

    /// Handles events until no message or session change is travelling (timers stay pending).
    public mutating func deliverAll(limit: Int = 1_000_000) {
        var n = 0
        while inFlight > 0, n < limit, step() { n += 1 }
    }

    mutating func deliver(_ item: Item, from a: Int, to b: Int) {
        let sender = nodes[a].id
        let name = nodes[a].name
        switch item {
        case .connected:
            input(b, "sees n\(a) connected") { $0.peerConnected(sender, name: name) }
        case .lost:
            input(b, "sees n\(a) lost") { $0.peerLost(sender) }
        case .message(var m):
            if overTheWire {
                do { m = try TableMessage.decode(wire: try m.wireBytes()) } catch {
                    problems.append("n\(a)>n\(b) \(m.typeName) does not survive its wire form: \(error)")
                    return
                }
            }
            input(b, "<n\(a) \(m.typeName)\(Self.detail(m))") { $0.received(m, from: sender) }
        }
    }

    static func detail(_ m: TableMessage) -> String {
        switch m {
        case .move(_, let number, let seat, _, _): " \(number) seat \(seat)"
        case .raceMove(_, let seat, let number, _, _): " seat \(seat) #\(number)"
        case .confirm(_, let number, _): " \(number)"
        case .sync(_, let moves, _): " \(moves)"
        case .takeover(_, _, let number, _), .forfeit(_, let number, _, _): " at \(number)"
        case .catchUp(_, _, let moves): " \(moves.first?.number ?? -1)+\(moves.count)"
        default: ""
        }
    }

    // MARK: Sessions

    /// Ends the session between `a` and `b` (if up): each side still gets a random prefix of what was travelling
    /// to it on that connection (a TCP stream breaks, it does not reorder), then notices the loss.
    mutating func tearDown(_ a: Int, _ b: Int) {
        guard up[a][b] else { return }
        for (from, to) in [(a, b), (b, a)] {
            up[from][to] = false
            // Only what was sent on this session can be lost: markers and messages of earlier ones stay.
            let start = (links[from][to].lastIndex { if case .message = $0.item { false } else { true } } ?? -1) + 1
            let sent = links[from][to].count - start
            let kept = sent == 0 ? 0 : rng.below(sent + 1)
            if kept < sent {
                trace.add(now, "n\(from)>n\(to): \(sent - kept) of \(sent) travelling lost")
                links[from][to].removeSubrange((start + kept)...)
            }
            enqueue(.lost, from: from, to: to, after: Int64.random(in: detection, using: &rng))
        }
    }

    /// Establishes a session between `a` and `b` when both run, the link is not cut and none is up.
    mutating func bringUp(_ a: Int, _ b: Int) {
        guard a != b, !up[a][b], nodes[a].isUp, nodes[b].isUp, blocked[Self.pair(a, b)] == nil else { return }
        for (from, to) in [(a, b), (b, a)] {
            up[from][to] = true
            enqueue(.connected, from: from, to: to, after: Int64.random(in: latency, using: &rng))
        }
    }

    static func pair(_ a: Int, _ b: Int) -> [Int] { [min(a, b), max(a, b)] }

    /// Cuts the link between `a` and `b`: the session breaks, and none forms again until this cut (and any other
    /// on the link) is healed.
    public mutating func cut(_ a: Int, _ b: Int) {
        trace.add(now, "cut n\(a)-n\(b)")
        blocked[Self.pair(a, b), default: 0] += 1
        tearDown(a, b)
    }

    /// Heals one cut of the link between `a` and `b`: a new session forms when it was the last and both run.
    public mutating func heal(_ a: Int, _ b: Int) {
        let p = Self.pair(a, b)
        guard let cuts = blocked[p] else { return }
        trace.add(now, "heal n\(a)-n\(b)\(cuts > 1 ? " (\(cuts - 1) cut\(cuts > 2 ? "s" : "") left)" : "")")
        blocked[p] = cuts > 1 ? cuts - 1 : nil
        bringUp(a, b)
    }

    /// Breaks the session between `a` and `b` and lets a new one form at once (a reconnection: both sides resend
    /// their syncs and votes, the duplicates the protocol allows).
    public mutating func reconnect(_ a: Int, _ b: Int) {
        trace.add(now, "reconnect n\(a)-n\(b)")
        tearDown(a, b)
        bringUp(a, b)
    }

    /// Cuts every link between the nodes in `side` and the rest.
    public mutating func partition(_ side: Set<Int>) {
        for a in side.sorted() { for b in nodes.indices where !side.contains(b) { cut(a, b) } }
    }

    /// Heals every cut link, every cut of it.
    public mutating func healAll() {
        for p in blocked.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            blocked[p] = 1
            heal(p[0], p[1])
        }
    }

    // MARK: Crashes

    /// Kills node `i` (`kill -9`): what it sent may still arrive, nothing reaches it, its timers and every table
    /// it did not persist are gone.
    public mutating func kill(_ i: Int) {
        guard nodes[i].isUp else { return }
        trace.add(now, "kill n\(i)")
        for b in nodes.indices where b != i {
            tearDown(i, b)
            links[b][i].removeAll()
        }
        nodes[i].directory = nil
        timers.removeAll { $0.node == i }
    }

    /// Restarts node `i` with the same id and its disk: each unfinished game it persisted is restored from its log
    /// (§9.11), then sessions form with every node it may reach. Returns the tables restored.
    @discardableResult
    public mutating func restart(_ i: Int) -> [TableID] {
        guard !nodes[i].isUp else { return [] }
        nodes[i].restarts += 1
        var d = makeDirectory(i)
        var restored: [TableID] = []
        for id in nodes[i].persisted.keys.sorted() {
            guard let log = nodes[i].persisted[id], log.jointSeed != nil, log.stopped == nil, log.finalHashes.isEmpty
            else { continue }
            switch d.restore(log) {
            case .success(let id): restored.append(id)
            case .failure(let e): keep("restore of \(id) refused: \(e.message)", at: i)
            }
        }
        trace.add(
            now,
            "restart n\(i): restored \(restored.map { "\($0)" }) at \(restored.map { nodes[i].persisted[$0]?.moves.count ?? 0 })"
        )
        let effects = d.takeRestoredEffects()
        nodes[i].directory = d
        apply(i, effects)
        for b in nodes.indices { bringUp(i, b) }
        return restored
    }
}

/// What a simulation did, step by step: a digest of every line (two runs of one seed must give the same), and the
/// last lines, printed when a check fails.
public struct SimulationTrace {
    public private(set) var digest: UInt64 = 0xcbf2_9ce4_8422_2325
    public private(set) var count = 0
    public private(set) var recent: [String] = []
    public private(set) var all: [String] = []
    let keepAll: Bool
    static let recentLines = 120

    init(keepAll: Bool) { self.keepAll = keepAll }

    mutating func add(_ time: Int64, _ line: @autoclosure () -> String) {
        let text = "\(time) \(line())"
        for byte in text.utf8 { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
        count += 1
        if keepAll { all.append(text) }
        recent.append(text)
        if recent.count > 2 * Self.recentLines { recent.removeFirst(Self.recentLines) }
    }

    /// The last `n` lines.
    public func tail(_ n: Int = 60) -> [String] { Array(recent.suffix(n)) }
}
