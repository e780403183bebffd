import TavoloCore
import TavoloProtocol

/// A table as one node sees it (the control socket's `state` result): what this node's seats may see, never more.
public struct TableState: Codable, Sendable {
    public var info: TableInfo
    /// Only once the table is over: during the game it would let a client compute every hand.
    public var jointSeed: UInt64?
    public var moveNumber: Int?
    public var turn: Int?
    public var stateHash: StateHash?
    /// The seats this node's user plays (not its bots': their hands are not the user's to see).
    public var mySeats: [Int] = []
    /// Those seats' observations, in the order of `mySeats`.
    public var observations: [JSONValue] = []
    /// For a node at the table without a person's seat (its bots play, or it was voted out), in a game that hides
    /// nothing: what every seat sees, so the board can be drawn as the moves come (`TableMachine.publicObservation`).
    public var publicObservation: JSONValue?
    /// The legal moves when a seat of this node's user is to play.
    public var legalMoves: [JSONValue] = []
    /// The last moves, described publicly.
    public var lastMoves: [String] = []
    /// The newest moves as played (seat and move, oldest first), at most `playedLimit`: a client draws from them
    /// what an observation holds without an order, such as a Spirits! pile (listed by card) in the order played.
    /// Moves are public once played; nil from a node that does not send them.
    public var played: [PlayedMove]?
    public var winners: [Int]?
    public var scores: [Int]?
    /// A sealed table's audit, once it ran (§14.10): "deck verified", or who it names.
    public var deck: String?
    /// Why the table stopped, when it has: `code: reason`.
    public var stopped: String?
    public var wallMs: Double?
    /// Per move this node sent: milliseconds from sending to the last member's confirmation.
    public var confirmLatencyMs: [Double] = []
    /// Simultaneous games: the newest live progress heard by datagram from each other node's seat (§10.4).
    public var live: [LiveProgress]?
    /// Simultaneous games: this node's datagram counts for the table (§10.4).
    public var liveStats: LiveStats?
    /// Per write of this node's game log (one per move applied): milliseconds to write it durably (§9.9).
    public var logWriteMs: [Double] = []
    /// Members lost during play and not back yet (the table is paused), by name, and since when (ISO 8601, UTC).
    public var absent: [String] = []
    public var pausedSince: String?
    /// Where the user stands, in words (`TableNotices`: a pause with its countdown in the node's local time,
    /// takeovers, a stop): what the page shows; the terminal makes the same texts in its own time zone.
    public var notices: [String]?
    /// Seats that passed to a bot (§9.12).
    public var takeovers: [GameLog.LoggedTakeover] = []
    /// Takeovers agreed whose seats have not passed yet (they pass at their seat's next move): a member that left
    /// is shown as left at once, not as still seated until then.
    public var departures: [Departure]?
    /// True when this node is not at the table (not a member, not following it as a spectator): by the protocol
    /// no move reaches it (§9.1), it knows the seats, the phase and the end from the host's offers.
    public var outsider: Bool?
    /// The move count this node's user left the game at (a forfeit, §9.12), if it did.
    public var leftAt: Int?
    /// Who plays each seat, in words (`TableNotices.seatNames`): what the page and `tavolo play` show.
    public var seatNames: [String]?
    /// When this node was voted out (§9.12): the seats it played, whose game it now follows as a spectator.
    public var spectatorOf: [Int]?
    /// Simultaneous games: when this node saw each seat complete, in milliseconds on its own clock from the
    /// start of play (§10.3: shown, never sent, never ranked).
    public var finishTimes: [SeatTime]?

    public init(info: TableInfo) { self.info = info }

    /// Enough for any pile: a Spirits! pile never holds more than its 54 cards.
    public static let playedLimit = 54
}

extension TableState {
    /// A member whose seats pass to a bot at their next move: it left (a forfeit) or was voted out (§9.12).
    public struct Departure: Codable, Sendable, Equatable {
        public var memberName: String
        public var seats: [Int]
        /// The node whose bot takes the seats, as it stands now, and the bot.
        public var heirName: String
        public var bot: String
        public var forfeit: Bool
        /// Whether the member is this node (its user left).
        public var isMe: Bool

        public init(memberName: String, seats: [Int], heirName: String, bot: String, forfeit: Bool, isMe: Bool) {
            self.memberName = memberName
            self.seats = seats
            self.heirName = heirName
            self.bot = bot
            self.forfeit = forfeit
            self.isMe = isMe
        }
    }
}

extension TableMachine {
    /// The takeovers agreed here whose seats have not passed yet, each with the heir it has as things stand.
    var pendingDepartures: [TableState.Departure]? {
        let point = max(session?.moveNumber ?? 0, 0)
        let pending = agreed.compactMap { t -> TableState.Departure? in
            let seats = info.seats.filter { $0.owner == t.member }.map(\.seat)
            guard !seats.isEmpty, let heir = heir(of: t, at: max(t.number, point)) else { return nil }
            return TableState.Departure(
                memberName: ctx.name(t.member), seats: seats, heirName: ctx.name(heir), bot: t.bot,
                forfeit: t.forfeit, isMe: t.member == me)
        }
        return pending.isEmpty ? nil : pending
    }
}

/// One move as played, for a client's drawing (`TableState.played`).
public struct PlayedMove: Codable, Sendable, Equatable {
    public var seat: Int
    public var move: JSONValue

    public init(seat: Int, move: JSONValue) {
        self.seat = seat
        self.move = move
    }
}

extension TableMachine {
    /// What this node may see of the table.
    public var view: TableState {
        var st = TableState(info: info)
        st.stopped = log.stopped
        st.absent = absent.sorted().map { ctx.name($0) }
        st.takeovers = log.takeovers ?? []
        st.departures = pendingDepartures
        st.leftAt = forfeitedAt
        if role == .node && !isMember && !isSpectator && forfeitedAt == nil { st.outsider = true }
        if isSpectator { st.spectatorOf = formerSeats }
        guard let s = session else { return st }
        if info.phase.isOver { st.jointSeed = jointSeed }
        st.moveNumber = s.moveNumber
        st.turn = s.turn.seat
        st.stateHash = s.stateHash
        st.mySeats = info.seats.filter { $0.owner == me && $0.bot == nil }.map(\.seat)
        st.observations = st.mySeats.map { s.observation(for: $0) }
        if st.mySeats.isEmpty { st.publicObservation = publicObservation }
        if let seat = s.turn.seat, let owned = info.seats[safe: seat], owned.owner == me, owned.bot == nil {
            st.legalMoves = s.legalMoves().map(\.json)
        }
        // A race: the user's seat may move whenever it is still racing, whoever `turn` names (§10).
        if s.isSimultaneous, let seat = st.mySeats.first(where: { s.activeSeats.contains($0) }) {
            st.turn = seat
            st.legalMoves = s.legalMoves(seat: seat).map(\.json)
        }
        // A sealed deal whose cards for this node are not all open yet: its game holds placeholders for them (the
        // seed's order, §14.7), not cards this seat holds. Nothing of them is shown, and no move is offered that the
        // table would refuse; `updated` is told once they open (`handleSealed`).
        if !sealedReady {
            (st.observations, st.publicObservation, st.legalMoves) = ([], nil, [])
        }
        st.played = log.moves.suffix(TableState.playedLimit).map { PlayedMove(seat: $0.seat, move: $0.move) }
        st.lastMoves = log.moves.suffix(8).map { "\($0.number + 1). seat \($0.seat): \($0.text)" }
        st.winners = log.winners
        st.scores = log.scores
        st.deck = log.sealedCheaters.map { cheaters in
            cheaters.isEmpty
                ? "deck verified"
                : "the audit names " + cheaters.map { ctx.name($0) }.joined(separator: ", ")
                    + ": the game does not count for them"
        }
        return st
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}

/// One seat's live progress as last heard on the unreliable channel (PROTOCOL.md §10.4).
public struct LiveProgress: Codable, Sendable, Equatable {
    public var seat: Int
    /// The seat's move count when its owner sent it.
    public var number: Int
    /// The game's progress object (`liveProgress(seat:)`).
    public var progress: JSONValue
    /// Milliseconds since it arrived.
    public var ageMs: Double

    public init(seat: Int, number: Int, progress: JSONValue, ageMs: Double) {
        self.seat = seat
        self.number = number
        self.progress = progress
        self.ageMs = ageMs
    }
}

/// A seat and a time in milliseconds.
public struct SeatTime: Codable, Sendable, Equatable {
    public var seat: Int
    public var ms: Double
    public init(seat: Int, ms: Double) {
        self.seat = seat
        self.ms = ms
    }
}

/// A node's live-progress datagrams for one table.
public struct LiveStats: Codable, Sendable, Equatable {
    /// Progress datagrams this node sent (one per peer it was sent to).
    public var sent = 0
    /// Received and newer than what this node had: kept.
    public var accepted = 0
    /// Received but not newer than the progress already heard, or than the seat's moves already applied: dropped.
    public var stale = 0
    /// Received but not acceptable (unknown table, a seat its sender does not own, not a race): dropped.
    public var refused = 0
    /// Milliseconds the race ran here (from the first progress sent to the end).
    public var racingMs: Double = 0

    public init() {}
}
