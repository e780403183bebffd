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

    // The joint seed (§9.3).
    var myNonce: [UInt8]?
    var commitments: [NodeID: String] = [:]
    var reveals: [NodeID: [UInt8]] = [:]
    public internal(set) var jointSeed: UInt64?
    var seedingBegun = false

    // Play (§9.4, §10.2): the game and every move applied to it go through the sequencer, once the seed is known.
    public internal(set) var sequencer: MoveSequencer?
    public var session: (any GameSession)? { sequencer?.game }
    /// Turn-based: the state hash after k moves, k = 0 … moveNumber.
    var hashes: [StateHash] { sequencer?.hashes ?? [] }
    var verifiedDeal = 0
    var dealsSent = 0
    var pendingDeals: [Int: [UInt8]] = [:]
    var pendingMoves: [Int: PendingMove] = [:]
    /// Confirmations of moves not yet applied here, kept until they are.
    var earlyConfirms: [Int: [NodeID: StateHash]] = [:]
    /// For each move this node sent: the members that confirmed it so far.
    var confirmedBy: [Int: Set<NodeID>] = [:]
    var results: [NodeID: StateHash] = [:]
    var resultSent = false
    var yourTurnAnnounced = -1
    /// A seat request sent to the host that neither an offer nor a refusal has answered yet.
    var seatRequestUnanswered = false
    /// Host: the identity each invited seat is reserved for. The offer shows the invitee's name (`invited`), but a
    /// seat goes to an identity, never to a name: another node taking the invitee's name does not get it.
    var invitedNodes: [Int: NodeID] = [:]
    /// Deadlines started for deals and bot moves, so waiting longer never restarts one.
    var awaited: Set<TableTimer> = []
    public internal(set) var log: GameLog

    // A game that survives a lost member (§9.10–9.13): `TableMachine+Pause.swift`, `+Takeover.swift`.
    /// Members lost during play that are not back yet (the table is paused while there is one).
    var absent: Set<NodeID> = []
    /// Absent members whose grace period ended here.
    var graceOver: Set<NodeID> = []
    /// Peers this node sent its `table.sync` to since they (re)connected.
    var syncSent: Set<NodeID> = []
    /// Takeover votes seen: member voted out → move number → voters.
    var votes: [NodeID: [Int: Set<NodeID>]] = [:]
    /// This node's own vote, per member.
    var myVote: [NodeID: Int] = [:]
    /// The move count this node's user left the game at (its `table.forfeit`), sent again to each member whose
    /// session comes back while this copy of the table lasts: one cut off when it left would otherwise never learn
    /// it (§9.12).
    var forfeitedAt: Int?
    /// Takeovers agreed (or forfeits), waiting for their move: they apply before the member's seats' first move
    /// numbered at least `number`, or at the end.
    var agreed: [AgreedTakeover] = []
    /// Members whose seats passed, or will pass, to a bot: nobody waits for them any more.
    public internal(set) var replaced: Set<NodeID> = []
    /// Members voted out (not those that forfeited): they follow the rest of the game as spectators of their former
    /// seats, so the table's messages still go to them (§9.12, `TableMachine+Spectator.swift`).
    public internal(set) var spectators: Set<NodeID> = []
    /// Host: nodes lost while this table was seeding; they may not sit at it again (§9.13).
    var seedingDropouts: Set<NodeID> = []
    /// Times seeding was interrupted and the table reopened; after that, commitments that come while the table is
    /// open may be stale (sent before the reopening): each sender's latest is kept aside until seeding begins.
    var reseeds = 0
    var openCommits: [NodeID: String] = [:]
    /// Commitments taken from `openCommits`: one may still be replaced once by its sender's next (that one was stale).
    var adoptedCommits: Set<NodeID> = []

    /// Why the table stopped, once it has.
    public internal(set) var stopReason: (code: StopCode, reason: String)?

    /// Hashes compared with another node's (moves' claimed states, confirmations, results): replay reports it.
    public internal(set) var hashesChecked = 0
    /// Deals checked against the joint seed.
    public internal(set) var dealsChecked = 0

    var out: [TableEffect] = []
    /// Simultaneous play (§10, `TableMachine+Race.swift`).
    var race = RaceState()

    /// Moves that may wait for their turn; beyond this a sender is flooding the table.
    public static let maxPending = 256

    struct PendingMove {
        var from: NodeID
        var seat: Int
        var move: JSONValue
        var stateHash: StateHash
    }

    struct AgreedTakeover {
        var member: NodeID
        var number: Int
        var bot: String
        var forfeit: Bool
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
            seatRequestUnanswered = false
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
        case .result(_, _, _, let hash): handleResult(from: from, finalHash: hash)
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
        case .raceOrder(_, let order): handleRaceOrder(from: from, order: order)
        case .sync(_, let moves, let hash): handleSync(from: from, moves: moves, hash: hash)
        case .catchUp(_, let deals, let moves): handleCatchUp(from: from, deals: deals, moves: moves)
        case .takeover(_, let member, let number): handleTakeoverVote(from: from, member: member, number: number)
        case .forfeit(_, let number): handleForfeit(from: from, number: number)
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
        out.append(.persist(log))
    }
}
