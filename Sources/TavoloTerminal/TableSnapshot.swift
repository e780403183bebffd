/// What a client knows of a table at one moment: the typed input of every screen. The play command fills it from
/// the node's control API (`state`, `peers`, events); tests build it by hand or from a game engine.
public struct TableSnapshot: Sendable, Equatable {
    public enum Phase: String, Sendable {
        case open, seeding, playing, paused, finished, stopped
    }

    /// One seat: who owns it and how it is played.
    public struct Seat: Sendable, Equatable {
        public var seat: Int
        /// The owning node's name; nil while free.
        public var ownerName: String?
        /// The bot kind playing it, nil for a person.
        public var bot: String?
        /// Whether this client's node owns it.
        public var isMine: Bool
        /// Who plays it in the node's words (`TableNotices.seatNames`), when the node gave them: a seat whose
        /// owner left says so before the bot's first move.
        public var label: String?

        public init(seat: Int, ownerName: String?, bot: String?, isMine: Bool, label: String? = nil) {
            self.seat = seat
            self.ownerName = ownerName
            self.bot = bot
            self.isMine = isMine
            self.label = label
        }

        /// `bob`, `bot (greedy) for bob` (a bot bob's node runs), `free`.
        public var who: String {
            if let label { return label }
            guard let owner = ownerName else { return "free" }
            return bot.map { "bot (\($0)) for \(owner)" } ?? owner
        }
    }

    public var tableID: String
    public var game: String
    public var phase: Phase
    public var seats: [Seat]
    /// The seat to play; nil when nobody is to play.
    public var turn: Int?
    /// Moves applied so far.
    public var moveNumber: Int
    /// The person's seat at this node (a seat it owns that no bot plays); nil when only watching.
    public var mySeat: Int?
    /// The JSON observation the screen draws: `mySeat`'s, or for a game with nothing hidden any seat's.
    public var observation: [UInt8]?
    /// `mySeat`'s legal moves as JSON, when it is to play.
    public var legalMoves: [[UInt8]]
    /// The latest moves as the node describes them (public text), oldest first.
    public var recentMoves: [String]
    /// The newest moves as played (their JSON, oldest first): what a board needs in the order played, such as a
    /// Spirits! pile.
    public var playedMoves: [[UInt8]] = []
    public var winners: [Int]?
    public var scores: [Int]?
    /// A sealed table's audit (§14.10): "deck verified", or who cheated.
    public var deck: String?
    /// Problems to show on the status line: lost peers, a stopped table.
    public var status: [String]
    /// Simultaneous games: each seat's board as last heard live (PROTOCOL.md §10.4).
    public var live: [Int: LiveBoard] = [:]
    /// Milliseconds since the game started at this node (the race's clock).
    public var elapsedMs: Double?
    /// This node is not at the table: no move reaches it (only its seats, phase and end do).
    public var isOutsider = false

    /// One seat's live board: moves made and cells.
    public struct LiveBoard: Sendable, Equatable {
        public var moves: Int
        public var cells: [Int]
        public init(moves: Int, cells: [Int]) {
            self.moves = moves
            self.cells = cells
        }
    }

    public init(
        tableID: String, game: String, phase: Phase, seats: [Seat], turn: Int?, moveNumber: Int, mySeat: Int?,
        observation: [UInt8]?, legalMoves: [[UInt8]] = [], recentMoves: [String] = [], winners: [Int]? = nil,
        scores: [Int]? = nil, status: [String] = []
    ) {
        self.tableID = tableID
        self.game = game
        self.phase = phase
        self.seats = seats
        self.turn = turn
        self.moveNumber = moveNumber
        self.mySeat = mySeat
        self.observation = observation
        self.legalMoves = legalMoves
        self.recentMoves = recentMoves
        self.winners = winners
        self.scores = scores
        self.status = status
    }

    public var players: Int { seats.count }
    /// Whether the person at this node is to play now.
    public var isMyTurn: Bool { phase == .playing && turn != nil && turn == mySeat && !legalMoves.isEmpty }

    /// `seat 2 — bob`, `seat 1 — bot (greedy) for alice`, `seat 0 — you (alice)`.
    public func name(of seat: Int) -> String {
        guard seats.indices.contains(seat) else { return "seat \(seat)" }
        let s = seats[seat]
        if seat == mySeat { return "seat \(seat) — you (\(s.ownerName ?? "this node"))" }
        return "seat \(seat) — \(s.who)"
    }
}
