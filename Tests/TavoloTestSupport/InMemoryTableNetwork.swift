import TavoloCore
import TavoloProtocol
import TavoloSealed
import TavoloTable

/// A whole mesh of table directories in one thread, over a pure in-memory network with a virtual clock: the
/// simulator of PROTOCOL.md §9–§10 the way FoundationDB's simulation and TigerBeetle's VOPR run real state
/// machines. Every node is a `TableDirectory`; every directed link is a FIFO queue (a TCP connection never
/// reorders or duplicates), so messages reorder only across links, as each message's latency is drawn from the
/// seeded RNG; timers fire when the virtual clock reaches them; links are cut and healed, and nodes killed and
/// restarted from the last log they persisted. The same seed gives the same run, step for step (`trace`).
public struct InMemoryTableNetwork {
    /// One node: its directory while it runs, and what it did, kept across its restarts.
    public struct Node {
        public let id: NodeID
        public let name: String
        /// Nil while the node is down.
        public internal(set) var directory: TableDirectory?
        public internal(set) var restarts = 0
        public internal(set) var events: [TableEvent] = []
        /// The last log the node persisted, by table: what its disk holds (a journal or the complete log).
        public internal(set) var persisted: [TableID: GameLog] = [:]
        /// Messages it dropped because their sender had no say (PROTOCOL.md §9.1).
        public internal(set) var refused: [String] = []
        /// Its operator's log lines, the newest last (at most `keptLines`).
        public internal(set) var lines: [String] = []
        public var isUp: Bool { directory != nil }
    }

    enum Item {
        case message(TableMessage)
        /// The receiver's session with the sender was established (`peerConnected`).
        case connected
        /// The receiver's session with the sender was lost (`peerLost`).
        case lost
    }

    struct InFlight {
        var at: Int64
        var seq: UInt64
        var item: Item
    }

    struct PendingTimer {
        var node: Int
        var timer: TableTimer
        var at: Int64
        var seq: UInt64
    }

    public internal(set) var nodes: [Node] = []
    public let catalog: GameCatalog
    let sealedCheats: [Int: Set<SealedCheat>]
    public let seed: UInt64
    /// Virtual time in milliseconds since the start.
    public internal(set) var now: Int64 = 0
    /// The network's own random stream: latencies, what a broken connection still delivers.
    public var rng: TavoloRNG
    /// Each message goes through its wire form (compact for the hot kinds, short hashes: §13), as between nodes.
    public var overTheWire = true
    /// A message's latency in ms, drawn per message.
    public var latency: ClosedRange<Int64> = 1...20
    /// Percent of messages held up by `spike` ms more (still in order on their link).
    public var spikeChance = 0
    public var spike: ClosedRange<Int64> = 200...3_000
    /// How long a side takes to notice a broken connection, in ms.
    public var detection: ClosedRange<Int64> = 1...500
    /// Links cut by the test (unordered pairs of node indices), with how many cuts each is under (a node cut off
    /// and a partition overlap): no session forms across a link until each of its cuts is healed.
    public internal(set) var blocked: [[Int]: Int] = [:]
    public internal(set) var trace: SimulationTrace
    /// Inputs handled so far (messages, peer changes, timers).
    public internal(set) var steps = 0
    /// What the wire could not carry (a message that does not survive its encoding): always a failure.
    public internal(set) var problems: [String] = []
    /// Whether to keep every message in its wire form as its sender posts it (`captured`): a packet log's view.
    public var capturing = false
    /// A test's filter on what a node sends: (message, from, to) → false to lose it (a node that never sends it).
    public var delivers: (TableMessage, Int, Int) -> Bool = { _, _, _ in true }
    /// With `capturing`, each message once (whatever the number of its targets), in the order they were posted.
    public internal(set) var captured: [(from: NodeID, body: [UInt8])] = []

    var links: [[[InFlight]]] = []
    var lastArrival: [[Int64]] = []
    /// Whether `from` can send to `to` now: a session is up between them.
    var up: [[Bool]] = []
    var timers: [PendingTimer] = []
    var seq: UInt64 = 0
    static let keptLines = 40

    /// `count` nodes n0, n1, …, all connected. Their ids are a seeded permutation, so which node has the lowest id
    /// (the heir of §9.12, the successor of §9.13) changes with the seed.
    /// `sealedCheats`: the lies each node tells at sealed tables, by node index (`tavolod --test-sealed-cheat`).
    public init(
        nodes count: Int, seed: UInt64, catalog: GameCatalog, keepTrace: Bool = false,
        sealedCheats: [Int: Set<SealedCheat>] = [:]
    ) {
        self.catalog = catalog
        self.sealedCheats = sealedCheats
        self.seed = seed
        rng = TavoloRNG(seed: seed, stream: 0x6e_6574)
        trace = SimulationTrace(keepAll: keepTrace)
        var lastBytes = (1...count).map { UInt8($0) }
        rng.shuffle(&lastBytes)
        for i in 0..<count {
            guard let id = NodeID(bytes: [UInt8](repeating: 0x5a, count: 15) + [lastBytes[i]]) else { continue }
            nodes.append(Node(id: id, name: "n\(i)"))
        }
        links = Array(repeating: Array(repeating: [], count: count), count: count)
        lastArrival = Array(repeating: Array(repeating: 0, count: count), count: count)
        up = Array(repeating: Array(repeating: false, count: count), count: count)
        for a in 0..<count {
            var d = makeDirectory(a)
            for b in 0..<count where a != b {
                up[a][b] = true
                apply(a, d.peerConnected(nodes[b].id, name: nodes[b].name))
            }
            nodes[a].directory = d
        }
    }

    public subscript(_ i: Int) -> NodeID { nodes[i].id }
    public var count: Int { nodes.count }
    public func index(of node: NodeID) -> Int? { nodes.firstIndex { $0.id == node } }

    /// Node `i`'s machine of table `id`, while the node runs and knows it.
    public func table(_ i: Int, _ id: TableID) -> TableMachine? { nodes[i].directory?.tables[id] }

    /// Whether any message or session change is still travelling.
    public var inFlight: Int { links.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } } }

    func makeDirectory(_ i: Int) -> TableDirectory {
        var context = TableContext(me: nodes[i].id, myName: nodes[i].name, catalog: catalog)
        context.sealedCheats = sealedCheats[i] ?? []
        let restarts = UInt64(nodes[i].restarts)
        var d = TableDirectory(
            context: context, nonces: .reproducible(seed: seed, nodeIndex: UInt64(i) + 1_000 * restarts))
        // A restarted node never hosts an id it used before (§9.9): its epoch moves on.
        d.tableEpoch = String(restarts + 1, radix: 36)
        return d
    }

    // MARK: Local requests

    /// Node `i`'s user asks something of its directory; nil when the node is down.
    @discardableResult
    public mutating func request(
        _ i: Int, _ r: (inout TableDirectory) -> (Result<TableInfo, TableError>, [TableEffect])
    ) -> Result<TableInfo, TableError>? {
        guard var d = nodes[i].directory else { return nil }
        nodes[i].directory = nil
        let (result, effects) = r(&d)
        nodes[i].directory = d
        trace.add(now, "n\(i) request: \(result.map { "\($0.phase.rawValue)" })")
        apply(i, effects)
        return result
    }

    /// Adds a line of the test's own to the trace (a fault, a user's decision).
    public mutating func note(_ line: String) { trace.add(now, line) }

    /// Fires node `i`'s timer now, by hand (it is forgotten if it was pending).
    public mutating func fire(_ i: Int, _ timer: TableTimer) {
        timers.removeAll { $0.node == i && $0.timer == timer }
        input(i, "timer \(timer)") { $0.timerFired(timer) }
    }

    /// Node `i`'s pending timers and when they fire (virtual ms), earliest first.
    public func pendingTimers(_ i: Int) -> [(timer: TableTimer, at: Int64)] {
        timers.filter { $0.node == i }.sorted { ($0.at, $0.seq) < ($1.at, $1.seq) }.map { ($0.timer, $0.at) }
    }

    /// Runs `change` on node `i`'s directory (if it is up) and performs the effects.
    mutating func input(_ i: Int, _ what: @autoclosure () -> String, _ change: (inout TableDirectory) -> [TableEffect])
    {
        guard var d = nodes[i].directory else { return }
        nodes[i].directory = nil
        steps += 1
        trace.add(now, "n\(i) \(what())")
        let effects = change(&d)
        nodes[i].directory = d
        apply(i, effects)
    }

    // MARK: Effects

    mutating func apply(_ i: Int, _ effects: [TableEffect]) {
        for effect in effects {
            switch effect {
            case .send(let m, let to):
                if capturing { capture(m, from: i) }
                // The order of one message's targets means nothing (a machine may list them from a `Set`): a run
                // must not depend on it, so latencies are drawn in the order of the targets' ids.
                for t in to.sorted() { send(m, from: i, to: t) }
            case .emit(let event):
                nodes[i].events.append(event)
                if ![.moved, .yourTurn, .dealt, .updated, .offered].contains(event.kind) {
                    trace.add(now, "n\(i) event \(event.kind.rawValue) \(event.message ?? "")")
                }
            case .persist(let log): nodes[i].persisted[log.table.id] = log
            case .startTimer(let timer, let after): start(timer, after: after, at: i)
            case .cancelTimer(let timer): timers.removeAll { $0.node == i && $0.timer == timer }
            case .log(_, let line): keep(line, at: i)
            case .refused(let what, let from):
                nodes[i].refused.append("\(what) from \(index(of: from).map { "n\($0)" } ?? from.short)")
            case .moveSent, .moveConfirmed: break
            }
        }
    }

    mutating func capture(_ m: TableMessage, from i: Int) {
        do { captured.append((nodes[i].id, try m.wireBytes())) } catch {
            problems.append("n\(i) \(m.typeName) has no wire form: \(error)")
        }
    }

    mutating func keep(_ line: String, at i: Int) {
        nodes[i].lines.append("[\(now) ms] \(line)")
        if nodes[i].lines.count > Self.keptLines { nodes[i].lines.removeFirst() }
    }

    mutating func start(_ timer: TableTimer, after: Duration, at i: Int) {
        // A table that is over stays listed here for good: the checks read it at the end.
        if case .expire = timer { return }
        timers.removeAll { $0.node == i && $0.timer == timer }
        let (seconds, attoseconds) = after.components
        seq += 1
        timers.append(
            PendingTimer(
                node: i, timer: timer, at: now + seconds * 1_000 + attoseconds / 1_000_000_000_000_000, seq: seq))
    }

    mutating func send(_ m: TableMessage, from a: Int, to target: NodeID) {
        guard let b = index(of: target), b != a else { return }
        guard delivers(m, a, b) else {
            trace.add(now, "n\(a)>n\(b) \(m.typeName) held back by the test")
            return
        }
        guard up[a][b] else {
            trace.add(now, "n\(a)>n\(b) \(m.typeName) lost: no session")
            return
        }
        var delay = Int64.random(in: latency, using: &rng)
        if spikeChance > 0, rng.below(100) < spikeChance { delay += Int64.random(in: spike, using: &rng) }
        enqueue(.message(m), from: a, to: b, after: delay)
    }

    mutating func enqueue(_ item: Item, from a: Int, to b: Int, after delay: Int64) {
        // In order on its link, as on one TCP connection.
        let at = max(now + delay, lastArrival[a][b])
        lastArrival[a][b] = at
        seq += 1
        links[a][b].append(InFlight(at: at, seq: seq, item: item))
    }
}
