/// Whose turn it is: a seat, or nobody because the game is over. Games have no chance nodes:
/// randomness comes from the seeded `TavoloRNG` the state carries, so a state plus a move is a pure function.
public enum Turn: Hashable, Sendable {
    case seat(Int)
    case terminal

    /// The seat to play, or nil when the game is over.
    public var seat: Int? {
        if case .seat(let s) = self { return s }
        return nil
    }
}

/// Stable rejection codes shared by the engines, the wire protocol, logs and tests (PROTOCOL.md §5).
public enum MoveErrorCode: String, Codable, Sendable, CaseIterable {
    /// The move is not among the legal moves of the state it was applied to.
    case illegal = "move/illegal"
    /// It is not that seat's turn.
    case notYourTurn = "move/not-your-turn"
    /// The game is already over.
    case gameOver = "move/game-over"
    /// The move was made for an earlier state (move number or state hash does not match).
    case stale = "move/stale"
    /// The move could not be decoded for this game.
    case malformed = "move/malformed"
}

/// A rejected move: a stable code and a sentence for people.
public struct MoveError: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: MoveErrorCode
    public let message: String

    public init(_ code: MoveErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// A game could not be set up with these parameters.
public struct GameSetupError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// How a finished game came out.
public struct GameOutcome: Hashable, Sendable, Codable {
    /// Seats that won; more than one for a shared win or a partnership; empty for a draw.
    public var winners: [Int]
    /// The game's score per seat (ghosts in Spirits!, points in Briscola, discs in Othello, …).
    public var scores: [Int]

    public init(winners: [Int], scores: [Int]) {
        self.winners = winners
        self.scores = scores
    }
}

/// A move of some game: Codable for the wire, ordered so legal moves can be listed sorted.
public protocol GameMove: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {}

/// One game's complete state: plain data, moves applied by a pure function (OpenSpiel / boardgame.io style).
///
/// A state is created from a player count and a 64-bit seed; everything random afterwards comes from the
/// RNG inside the state, so replaying the same moves from the same seed gives the same state hash.
public protocol GameState: Codable, Sendable {
    associatedtype Move: GameMove
    associatedtype Observation: Codable & Sendable

    /// Registry name, lower case (`spirits`, `briscola`, …).
    static var gameName: String { get }
    /// One line for the catalogue.
    static var summary: String { get }
    /// Player counts the game supports.
    static var playerCounts: [Int] { get }
    /// What `GameOutcome.scores` counts, plural (`ghosts`, `points`, `discs`, `moves`).
    static var scoreName: String { get }
    /// Whether a lower score is better (ghosts) or a higher one (points).
    static var lowerScoreIsBetter: Bool { get }

    /// The state before the first move.
    init(players: Int, seed: UInt64) throws(GameSetupError)

    var playerCount: Int { get }
    var turn: Turn { get }
    /// Moves applied so far.
    var moveNumber: Int { get }
    /// The legal moves of the seat to play, sorted ascending; empty when the game is over.
    func legalMoves() -> [Move]
    /// Validates and applies a move; an illegal move throws and leaves the state unchanged.
    mutating func apply(_ move: Move) throws(MoveError)
    /// Non-nil exactly when the game is over.
    var outcome: GameOutcome? { get }
    /// What `seat` may see: its own hidden information and the public state, nothing else.
    func observation(for seat: Int) -> Observation
    /// The canonical encoding hashed for agreement (PROTOCOL.md §2).
    func writeCanonical(into writer: inout CanonicalWriter)
    /// A move described for a person, in the context of this state (before the move is applied). Every seat
    /// and every client may be sent it, so it says only what all seats saw happen: the public part of the move
    /// (a card once played), never a hand, a drawn card or a deal.
    func describe(_ move: Move) -> String
    /// A move of `seat` described as `describe` does; a simultaneous game, where any active seat may move, says it
    /// from that seat's part of the state. By default `describe(move)`.
    func describe(_ move: Move, seat: Int) -> String
    /// The omniscient line of `tavolo playout --transcript` (it may name hands, draws and deals): for checking
    /// games, never for players. By default the same as `describe`.
    func transcriptLine(_ move: Move) -> String
    /// Which deal the game is on: 1 after the first deal, increasing when the game reshuffles; 0 for no cards.
    var dealNumber: Int { get }
    /// The current deal's card order as the game's card codes (`Protocol/games/<game>.md`); nil for no cards.
    /// Tables check the host-dealt deck against it.
    var currentDeal: [UInt8]? { get }

    // Simultaneous play (PROTOCOL.md §10); the defaults in `SimultaneousPlay.swift` make a game turn-based.

    /// Whether several seats may move at once (each in its own sequence); false for turn-based games.
    static var isSimultaneous: Bool { get }
    /// The seats that may move now: the seat to play in a turn-based game, empty when the game is over.
    var activeSeats: [Int] { get }
    /// The legal moves of `seat`, sorted; empty when it may not move now.
    func legalMoves(seat: Int) -> [Move]
    /// Validates and applies a move of `seat`; `move/not-your-turn` when that seat may not move now.
    mutating func apply(_ move: Move, seat: Int) throws(MoveError)
    /// The canonical encoding of what `seat`'s own moves change, hashed for a seat's own sequence of moves in a
    /// simultaneous game (§10); the whole state by default.
    func writeSeatCanonical(_ seat: Int, into writer: inout CanonicalWriter)
    /// Whether `seat` completed the game's task (solved the puzzle): a table ranks such seats by when they were
    /// seen to complete it (§10.3). False by default.
    func seatCompleted(_ seat: Int) -> Bool
    /// What a node sends of its seat several times a second on the unreliable channel while a simultaneous game
    /// runs (§10.4): small (a datagram is at most 1,200 bytes) and public. Nil by default: nothing is sent.
    func liveProgress(seat: Int) -> JSONValue?
}

extension GameState {
    public var isTerminal: Bool { turn == .terminal }

    public var canonicalBytes: [UInt8] {
        var w = CanonicalWriter()
        writeCanonical(into: &w)
        return w.bytes
    }

    /// SHA-256 of the canonical encoding.
    public var stateHash: StateHash { StateHash(canonical: canonicalBytes) }

    public static var lowerScoreIsBetter: Bool { false }

    public func describe(_ move: Move) -> String { move.description }

    public func describe(_ move: Move, seat: Int) -> String { describe(move) }

    public func transcriptLine(_ move: Move) -> String { describe(move) }

    public var dealNumber: Int { 0 }
    public var currentDeal: [UInt8]? { nil }
}

/// Parameters + seed + moves: everything needed to rebuild a game exactly.
public struct GameRecord<State: GameState>: Codable, Sendable {
    public var players: Int
    public var seed: UInt64
    public var moves: [State.Move]

    public init(players: Int, seed: UInt64, moves: [State.Move] = []) {
        self.players = players
        self.seed = seed
        self.moves = moves
    }

    /// Replays the record from the seed; throws on the first move that does not apply.
    public func replay() throws -> State {
        var state = try State(players: players, seed: seed)
        for move in moves { try state.apply(move) }
        return state
    }
}
