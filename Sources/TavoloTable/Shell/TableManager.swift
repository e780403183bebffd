import Foundation
import Logging
import TavoloCore
import TavoloProtocol
import TavoloSealed

/// Sends table messages to other nodes, in order, without waiting (the mesh's reliable channel, as messages of the
/// tables service, PROTOCOL.md §3.9).
public protocol TableTransport: Sendable {
    /// `form` says whether `body` is JSON or a compact body (§13): the frame it goes in.
    func post(_ body: [UInt8], form: MessageForm, to nodes: [NodeID])
    /// Sends on the unreliable channel (datagrams): live progress only (PROTOCOL.md §10.4).
    func postUnreliable(_ body: [UInt8], to nodes: [NodeID])
    /// Calls `fire` on the table manager's executor once `delay` has passed, unless cancelled first; nil when the
    /// transport has no clock on that executor (the manager then sleeps in a task). The daemon's transport runs
    /// it on the mesh's event loop, the manager's executor: the timers of every move (a confirmation's deadline,
    /// a peer bot's) then cost no task and no thread wake-up.
    func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> (any TableTimerHandle)?
    /// Runs `job` on the table manager's executor soon, from another thread; false when the transport cannot (the
    /// manager then hops back in a task). The daemon's transport hands it to the mesh's event loop: a finished journal
    /// write then costs one loop wake-up, not a task created on the global executor and moved to the loop.
    func hop(_ job: @escaping @Sendable () -> Void) -> Bool
}

/// A timer a transport scheduled for the table manager.
public protocol TableTimerHandle: Sendable {
    func cancel()
}

extension TableTransport {
    /// A transport without datagrams drops them: live progress is never needed for a table to finish.
    public func postUnreliable(_ body: [UInt8], to nodes: [NodeID]) {}
    public func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> (any TableTimerHandle)? {
        nil
    }
    public func hop(_ job: @escaping @Sendable () -> Void) -> Bool { false }
}

/// A timer as a sleeping task, for transports without their own clock.
struct TaskTimer: TableTimerHandle {
    let task: Task<Void, Never>
    func cancel() { task.cancel() }
}

/// The thin shell around this node's `TableDirectory`: feeds it mesh input, local requests and timers, and
/// carries its effects out to the mesh, the disk, the local clients and the clock. Every rule lives in the
/// machine; nothing here decides anything about a table.
public actor TableManager {
    public struct Options: Sendable {
        public var stateDirectory: String?
        /// Reproducible nonces (`tavolo simulate --seed`): derived from this seed and `nodeIndex`.
        public var nonceSeed: UInt64?
        public var nodeIndex: UInt64 = 0
        /// How long a finished or stopped table stays listed.
        public var overTableLifetime: Duration = .seconds(600)
        /// Called with the log of every table that ended (finished or stopped), on the disk's thread, after its file
        /// is written and before the end is told to local clients: the daemon records the game here (TavoloRecords).
        public var gameEnded: (@Sendable (GameLog) -> Void)?
        /// Signs this node's forfeits (§11.7): the daemon's record signer.
        public var signForfeit: (@Sendable (TableID, UInt64, Int) -> SignatureObject?)?
        /// Where game logs are written and `gameEnded` runs; nil: a serial queue of the manager's own.
        public var disk: (any TableDisk)?
        /// Flush game logs to disk (power-cut safe): journals by group commit, headers and complete logs at once;
        /// without it an append or a rename still survives kill -9 (PROTOCOL.md §9.9).
        public var logFsync = true
        /// The group commit's longest wait: a journal append is flushed at most this long after it was written.
        public var logFlushInterval: Duration = .milliseconds(50)
        /// Tests only (`tavolod --test-sealed-cheat`): the lies this node tells at sealed tables.
        public var sealedCheats: Set<SealedCheat> = []
        public init() {}
    }

    public let me: NodeID
    public let myName: String
    /// Where the actor runs: the mesh's event loop in the daemon, so table messages are handled where they
    /// arrive, with no thread hop (`assumeIsolated`), and sends are written in order at once.
    nonisolated let executor: any SerialExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    let transport: any TableTransport
    let options: Options
    let logger: Logger

    var directory: TableDirectory
    var subscribers: [UUID: (kinds: Set<TableEvent.Kind>?, continuation: AsyncStream<TableEvent>.Continuation)] = [:]
    var timers: [TableTimer: any TableTimerHandle] = [:]
    var timings: [TableID: TableTimings] = [:]
    /// Table messages dropped because their sender had no say in them, or they were too large or malformed.
    public internal(set) var refusedMessages = 0
    /// Lines about one peer's refused or rejected messages: a few per 10 s, the rest counted (PROTOCOL.md §3.4).
    var peerLog = LogRateLimiter(burst: 4)
    /// Live progress of simultaneous games, from datagrams (`TableManager+Live.swift`).
    var live: [TableID: LiveRace] = [:]
    var liveTask: Task<Void, Never>?
    /// The game logs on disk (journals, complete logs), with a state directory; their group commit.
    let logs: GameLogStore?
    nonisolated let logSync: JournalSync
    /// Every write of a game log, and the `gameEnded` hook, run here, off the actor's executor (the mesh's loop).
    nonisolated let disk: any TableDisk
    /// Effects in order, those after a write held until it is done (`TableManager+Effects.swift`).
    var outbox = EffectQueue()
    /// Readers waiting in `settled` for the effects asked before them, oldest first.
    var readers: [(target: Int, resume: CheckedContinuation<Void, Never>)] = []
    /// Offers of open tables held a moment so that seats taken together go out as one offer
    /// (`TableManager+HeldOffers.swift`).
    var heldOffers: [TableID: HeldOffer] = [:]
    /// Per open table, the nodes already sent an offer that seats them.
    var toldSeated: [TableID: Set<NodeID>] = [:]

    public init(
        me: NodeID, name: String, transport: any TableTransport, catalog: GameCatalog, options: Options, logger: Logger,
        executor: any SerialExecutor
    ) {
        self.me = me
        self.executor = executor
        myName = name
        self.transport = transport
        self.options = options
        self.logger = logger
        var context = TableContext(me: me, myName: name, catalog: catalog)
        context.overTableLifetime = options.overTableLifetime
        context.signForfeit = options.signForfeit
        context.sealedCheats = options.sealedCheats
        let nonces = options.nonceSeed.map { NonceSource.reproducible(seed: $0, nodeIndex: options.nodeIndex) }
        directory = TableDirectory(context: context, nonces: nonces ?? .random())
        let sync = JournalSync(enabled: options.logFsync, interval: options.logFlushInterval, logger: logger)
        logSync = sync
        disk = options.disk ?? SerialTableDisk()
        logs = options.stateDirectory.map { GameLogStore(stateDirectory: $0, sync: sync) }
        if let dir = options.stateDirectory {
            do { directory.tableEpoch = try TableEpoch.next(stateDirectory: dir) } catch {
                logger.error("cannot keep the table id counter in \(dir): \(error); table ids use a random part")
            }
        }
    }

    /// Picks up every unfinished game of this node's logs (a restart after a crash, PROTOCOL.md §9.11): from its
    /// journal (§9.9), or from a complete-format log still unfinished; returns the tables restored. Call before
    /// the mesh delivers events.
    @discardableResult
    public func restoreUnfinished() -> [TableID] {
        guard let dir = options.stateDirectory, let logs else { return [] }
        let (games, problems) = SavedGames.unfinished(stateDirectory: dir)
        for problem in problems { logger.error("\(problem)") }
        var restored: [TableID] = []
        for game in games {
            let log = game.log
            switch directory.restore(log) {
            case .success(let id):
                // Written whole again (a torn last line dropped) and opened: the next move appends to it. On the
                // disk's thread like every write of the store, waited for: no peer is connected yet.
                let failure = disk.run { () -> String? in
                    do { try logs.start(log) } catch { return "\(error)" }
                    return nil
                }
                if let failure { logger.error("\(failure)") }
                restored.append(id)
                let torn = game.tornTail ? " (a torn last line left out)" : ""
                logger.notice(
                    "table \(id): restored from \(game.file) at move \(log.moves.count)\(torn); waiting for its members"
                )
            case .failure(let error): logger.error("cannot restore \(game.file): \(error)")
            }
        }
        perform(directory.takeRestoredEffects())
        return restored
    }

    /// Waits for the writes asked for, then flushes every game journal to disk (shutdown: nothing a clean stop
    /// leaves is lost to a power cut).
    public nonisolated func flushLogs() {
        disk.run {}
        logSync.flushAndWait()
    }

    // MARK: Mesh input

    /// A peer connected: learn its name and tell it about the tables this node hosts.
    public func peerConnected(_ id: NodeID, name: String) { perform(directory.peerConnected(id, name: name)) }

    /// A peer was lost.
    public func peerLost(_ id: NodeID) { perform(directory.peerLost(id)) }

    /// A table message arrived from `from`, in `form`: decoded once, here, at the edge, if it is within the size
    /// every table message fits in (PROTOCOL.md §9.1).
    public func received(_ body: [UInt8], form: MessageForm, from: NodeID) {
        guard body.count <= TableMessage.maxBodyBytes else {
            return perform([.refused("a table message of \(body.count) bytes", from: from)])
        }
        let message: TableMessage
        do { message = try TableMessage.decode(body, form: form) } catch {
            return perform([.refused("a table message that does not decode (\(WireJSON.describe(error)))", from: from)])
        }
        let replacedBefore = directory.tables[message.table]?.replaced.count ?? 0
        perform(directory.received(message, from: from), about: from)
        announceDepartures(message.table, replacedBefore: replacedBefore)
    }

    /// `line` if `peer` has not used its allowance of lines (with how many were left out), else nil.
    func limited(_ line: String, _ peer: NodeID) -> String? {
        let verdict = peerLog.admit(peer.hex, nowNanoseconds: DispatchTime.now().uptimeNanoseconds)
        guard verdict.write else { return nil }
        return verdict.leftOut == 0 ? line : "\(line) (and \(verdict.leftOut) similar lines about this peer left out)"
    }

    func fire(_ timer: TableTimer) {
        timers[timer] = nil
        perform(directory.timerFired(timer))
        if case .expire(let id) = timer, directory.tables[id] == nil { timings[id] = nil }
    }

    /// Wall-clock measurements for `state`: when seeding began and the game ended.
    func note(_ event: TableEvent) {
        switch event.detail {
        case .started:
            timings[event.table, default: .init()].startedAt = .now
            timings[event.table, default: .init()].startedWall = Self.wallMilliseconds()
        case .seeded: startLiveProgressIfRacing(event.table)
        case .moved: noteRaceMove(event)
        case .finished, .stopped: timings[event.table, default: .init()].endedAt = .now
        default: break
        }
    }

    static func wallMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    // MARK: Events

    /// Every table event from now on, or only those of `kinds`.
    public func subscribe(kinds: Set<TableEvent.Kind>? = nil) -> AsyncStream<TableEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: TableEvent.self)
        let id = UUID()
        subscribers[id] = (kinds, continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    // MARK: Control API

    /// Known tables: open ones first.
    public func list() -> [TableInfo] { directory.list() }

    /// Hosts a new open table; `players` may be left out for a game with one player count.
    public func host(
        game: String, players: Int?, grace: Int? = nil, takeoverBot: String? = nil, sealed: Bool = false
    ) throws(TableError) -> TableInfo {
        let (result, effects) = directory.host(
            game: game, players: players, grace: grace, takeoverBot: takeoverBot, sealed: sealed)
        perform(effects)
        return try result.get()
    }

    /// Asks for a seat at `table`, or at the oldest open table of `game` with a free seat (automatch).
    /// Returns the table's id; on another node's table the seat shows in the next offer (or a seat-refused event).
    public func join(table: TableID?, game: String?, seat: Int?, bot: String?) throws(TableError) -> TableID {
        let id = try directory.tableToJoin(table: table, game: game).get()
        try request(id, .join(seat: seat, bot: bot))
        return id
    }

    /// Host: fills every free seat with its own bots of `bot` kind.
    public func fill(table: TableID, bot: String) throws(TableError) -> TableInfo {
        try request(table, .fill(bot: bot))
    }

    /// Host: reserves `seat` for the node called `node` and tells it.
    public func invite(table: TableID, seat: Int, node: String) throws(TableError) -> TableInfo {
        guard let target = directory.connectedNode(named: node) else {
            throw TableError(.unknownNode, "no connected node called '\(node)'")
        }
        return try request(table, .invite(seat: seat, node: target, name: node))
    }

    /// Host: reserves `seat` for the connected node with identity `node` (the daemon resolved the user's name to
    /// it, PROTOCOL.md §7 known peers); the offer shows its name.
    public func invite(table: TableID, seat: Int, node: NodeID, name: String) throws(TableError) -> TableInfo {
        try request(table, .invite(seat: seat, node: node, name: name))
    }

    /// Host: starts a full table: seeding begins at every member.
    public func start(table: TableID) throws(TableError) -> TableInfo { try request(table, .start) }

    /// Plays `move` (the game's move as JSON) for this node's human seat that is to play.
    public func move(table: TableID, move: JSONValue) throws(TableError) { try request(table, .move(move)) }

    /// Leaves a table: frees this node's seats before the start, abandons (stops) the game after.
    public func leave(table: TableID) throws(TableError) { try request(table, .leave) }

    /// Test-only: sends a raw table message from this node, as a misbehaving peer would.
    public func inject(_ message: TableMessage) { _ = try? request(message.table, .inject(message)) }

    @discardableResult
    func request(_ id: TableID, _ r: TableRequest) throws(TableError) -> TableInfo {
        let (result, effects) = directory.request(id, r)
        perform(effects)
        return try result.get()
    }

    /// What this node can see of a table.
    public func state(table: TableID) throws(TableError) -> TableState {
        guard let machine = directory.tables[table] else {
            throw TableError(.unknown, "no table '\(table)' is known")
        }
        var st = machine.view
        if let t = timings[table] {
            st.confirmLatencyMs = t.confirmLatencies
            st.logWriteMs = t.logWriteMs
            if st.info.phase == .paused { st.pausedSince = t.pausedSince }
            if let a = t.startedAt { st.wallMs = ((t.endedAt ?? .now) - a).milliseconds }
        }
        addLiveProgress(to: &st)
        st.notices = TableNotices.lines(st, now: Date())
        st.seatNames = TableNotices.seatNames(st)
        return st
    }
}

/// The shell's clock readings for one table.
struct TableTimings {
    var startedAt: ContinuousClock.Instant?
    /// The same instant on the wall clock, for game logs and records.
    var startedWall: Int64?
    var endedAt: ContinuousClock.Instant?
    var sent: [Int: ContinuousClock.Instant] = [:]
    var confirmLatencies: [Double] = []
    /// How long each append to the game's journal took (§9.9): what each move waits for to survive a `kill -9`.
    var logWriteMs: [Double] = []
    /// When the table last paused here (ISO 8601), while it is paused.
    var pausedSince: String?
}

extension Duration {
    var milliseconds: Double {
        let (s, atto) = components
        return Double(s) * 1_000 + Double(atto) / 1e15
    }
}
