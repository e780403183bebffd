import TavoloCore
import TavoloProtocol

/// One table as this node sees it: the whole of PROTOCOL.md §9 as a pure state machine. Inputs (messages from
/// other nodes, peer changes, timers, the local user's requests) go in; effects (messages to send, events for
/// local clients, log entries to persist, timers) come out. No clock, no I/O, no system randomness: live play
/// (`TableManager`), packet-log replay (`TableReplay`) and the tests all drive this same machine.
///
/// The rules are split by topic: seats and the lobby in `TableMachine+Seats.swift`, the joint seed in
/// `TableMachine+Seeding.swift`, deals, moves, confirmations and results in `TableMachine+Lockstep.swift`.
public struct TableMachine {
    /// How this node takes part.
    public enum Role: Sendable {
        /// A node of the mesh: a member, the host, or a node that only lists the table.
        case node
        /// Replay of a capture: checks every message as a member would, sends nothing, plays nothing.
        case auditor
    }

    public internal(set) var info: TableInfo
    public let role: Role
    /// The context of the input being handled (this node, names, connected peers, the catalog).
    var ctx: TableContext
    var nonces: NonceSource?
    /// Whether the first offer was handled (a table that arrives by offer is announced once).
    var seen: Bool

    /// The table's state in its current stage (`TableStage.swift`); the rule files reach its parts through
    /// `TableMachine+StageAccess.swift`.
    var stage: TableStage = .open(TableLobby())
    /// Messages that came before their turn, in any stage.
    var inbox = TableInbox()
    /// Deadlines started for deals and bot moves, so waiting longer never restarts one.
    var awaited: Set<TableTimer> = []
    public internal(set) var log: GameLog

    /// Why the table stopped, once it has.
    public internal(set) var stopReason: (code: StopCode, reason: String)?

    /// Hashes compared with another node's (moves' claimed states, confirmations, results): replay reports it.
    public internal(set) var hashesChecked = 0
    /// Deals checked against the joint seed.
    public internal(set) var dealsChecked = 0
    /// Moves of an inherited seat refused because its bot plays another (§9.12).
    public internal(set) var heirMovesRefused = 0

    var out: [TableEffect] = []

    /// Moves that may wait for their turn; beyond this a sender is flooding the table.
    public static let maxPending = 256

    struct AgreedTakeover {
        var member: NodeID
        var number: Int
        var bot: String
        var forfeit: Bool
        var signature: SignatureObject? = nil
        /// A race's forfeit: per seat, the count of moves the leaver had applied; its seats pass once this node has
        /// as many of every seat (§10.6), not merely as many moves in all.
        var seatMoves: [Int]? = nil
    }

    /// A table this node hosts, still open.
    public init(hosting info: TableInfo, _ ctx: TableContext) {
        self.info = info
        self.ctx = ctx
        role = .node
        seen = true
        log = GameLog(table: info)
    }

    /// A table first heard of in an offer (or in a capture, for `.auditor`); handle the offer next.
    public init(offered info: TableInfo, role: Role, _ ctx: TableContext) {
        self.info = info
        self.role = role
        self.ctx = ctx
        seen = false
        log = GameLog(table: info)
    }

    var me: NodeID { ctx.me }
    var id: TableID { info.id }
    public var isHost: Bool { role == .node && info.host == me }
    /// Whether this node owns a seat or hosts: members send and check everything.
    public var isMember: Bool { role == .node && info.isMember(me) }
    /// Whether this node was voted out of the table and follows it as a spectator of its former seats (§9.12).
    public var isSpectator: Bool { role == .node && spectators.contains(me) }
    /// Whether this node checks the game's messages: members, spectators, and the auditor of a replay.
    var checks: Bool { role == .auditor || isMember || isSpectator }

    // MARK: Input

    /// Handles one input; returns what to do about it.
    public mutating func handle(_ input: TableInput, _ ctx: TableContext, nonces: inout NonceSource) -> [TableEffect] {
        begin(ctx, &nonces)
        defer { nonces = self.nonces ?? nonces }
        switch input {
        case .message(let m, let from): receive(m, from: from)
        case .peerConnected(let peer): peerConnected(peer)
        case .peerLost(let peer): peerLost(peer)
        case .timer(let timer): timerFired(timer)
        }
        return end()
    }

    /// Handles the local user's request; returns the table as it is after it, or why it failed.
    public mutating func request(_ r: TableRequest, _ ctx: TableContext, nonces: inout NonceSource)
        -> (Result<TableInfo, TableError>, [TableEffect])
    {
        begin(ctx, &nonces)
        defer { nonces = self.nonces ?? nonces }
        let result: Result<TableInfo, TableError>
        do throws(TableError) {
            try perform(r)
            result = .success(info)
        } catch {
            result = .failure(error)
        }
        return (result, end())
    }

    /// Host: tells every connected node about the table (a new table, or a change of seats or phase).
    public mutating func announce(_ ctx: TableContext) -> [TableEffect] {
        self.ctx = ctx
        out = []
        announce()
        return end()
    }

    private mutating func begin(_ ctx: TableContext, _ nonces: inout NonceSource) {
        self.ctx = ctx
        self.nonces = nonces
        out = []
    }

    private mutating func end() -> [TableEffect] {
        defer { out = [] }
        return out
    }

    mutating func receive(_ message: TableMessage, from: NodeID) {
        switch message {
        case .offer(let offered): handleOffer(offered, from: from)
        case .seatRequest(_, let seat, let bot): handleSeatRequest(from: from, seat: seat, bot: bot)
        case .seatRefused(_, let reason):
            guard from == info.host else { return dropped(message, from: from) }
            lobby?.seatRequestUnanswered = false
            emit(.seatRefused(message: "\(ctx.name(from)) refused: \(reason)"))
        case .invite(_, let seat):
            guard from == info.host, role == .node else { return dropped(message, from: from) }
            emit(.invited(seat: seat, message: "\(ctx.name(from)) invites you to seat \(seat) of a \(info.game) table"))
        case .leave: handleLeave(from: from)
        case .commit(_, let commitment): handleCommit(from: from, commitment: commitment)
        case .reveal(_, let nonce): handleReveal(from: from, nonceHex: nonce)
        case .deal(_, let number, let cards): handleDeal(from: from, number: number, cards: cards)
        case .move(_, let number, let seat, let move, let hash):
            handleMove(from: from, number: number, seat: seat, move: move, stateHash: hash)
        case .confirm(_, let number, let hash):
            // A member voted out has no say any more: its word on the state is not asked for (§9.12).
            guard info.isMember(from), !replaced.contains(from), info.phase.isActive || info.phase == .finished
            else {
                return dropped(message, from: from)
            }
            recordConfirm(from: from, number: number, hash: hash)
        case .reject(_, let number, let code, let reason):
            guard info.isMember(from), !replaced.contains(from), checks else { return dropped(message, from: from) }
            emit(
                .rejected(
                    moveNumber: number, code: code, message: "\(ctx.name(from)) rejected move \(number): \(reason)"))
        case .result(_, _, _, let hash, let relayed):
            if let relayed { return handleRelayedResult(from: from, relayed, finalHash: hash) }
            handleResult(from: from, finalHash: hash)
        case .stop(_, let code, let reason):
            // Sent again to a member coming back (§9.5): a table already over here needs nothing, and it is no fault.
            if info.phase.isOver && info.isMember(from) { return }
            guard info.isMember(from), !replaced.contains(from), info.phase.isActive || info.phase == .open,
                code.memberMaySend(during: info.phase)
            else {
                return dropped(message, from: from)
            }
            stop(code, "\(ctx.name(from)): \(reason)", broadcast: false)
        case .raceMove(_, let seat, let number, let move, let hash):
            handleRaceMove(from: from, seat: seat, number: number, move: move, seatHash: hash)
        case .raceOrder(_, let order, let member):
            if let member { return handleRelayedRaceOrder(from: from, order: order, member: member) }
            handleRaceOrder(from: from, order: order)
        case .sync(_, let moves, let hash): handleSync(from: from, moves: moves, hash: hash)
        case .catchUp(_, let deals, let moves): handleCatchUp(from: from, deals: deals, moves: moves)
        case .takeover(_, let member, let number, let voters):
            handleTakeoverVote(from: from, member: member, number: number, relaying: voters ?? [])
        case .forfeit(_, let number, let signature, let seatMoves):
            handleForfeit(from: from, number: number, signature: signature, seatMoves: seatMoves)
        case .sealed(_, let m): handleSealed(from: from, m)
        }
    }

    /// A message this node may not act on (its sender has no say in it): counted, never acted on.
    mutating func dropped(_ m: TableMessage, from: NodeID) {
        out.append(.refused("\(m.typeName) for table \(id)", from: from))
    }

    // MARK: Helpers for the rule files

    mutating func emit(_ detail: TableEvent.Detail) {
        guard role == .node else { return }
        out.append(.emit(TableEvent(table: id, game: info.game, detail)))
    }

    /// Sends to `nodes` except this node; nothing when auditing.
    mutating func send(_ m: TableMessage, to nodes: [NodeID]) {
        guard role == .node else { return }
        let targets = nodes.filter { $0 != me }
        guard !targets.isEmpty else { return }
        out.append(.send(m, to: targets))
    }

    /// Sends to every member of the table, and to the members voted out, which follow the game as spectators.
    mutating func sendToTable(_ m: TableMessage) { send(m, to: recipients) }

    /// The table's members and its spectators (§9.12).
    var recipients: [NodeID] {
        let members = info.members
        // Usually nobody was voted out: no sorted copy of an empty set for every message sent.
        guard !spectators.isEmpty else { return members }
        return members + spectators.sorted().filter { !members.contains($0) }
    }

    mutating func persist() {
        guard role == .node, session != nil || isHost else { return }
        dropPassedJournalReplay()
        out.append(.persist(log))
    }
}
