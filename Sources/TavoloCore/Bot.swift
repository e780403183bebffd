/// A computer player. Bots are deterministic: their randomness comes from the `TavoloRNG` stream they are
/// created with, never from the system. A bot must base its choice only on what `observation(for: seat)`
/// reveals (the scripted tests check this for every bot by comparing states with equal observations).
public protocol Bot<State>: Sendable {
    associatedtype State: GameState
    /// The bot's kind as users name it (`random`, `heuristic`, …).
    var kind: String { get }
    /// Chooses one of the legal moves for `seat`, which is the seat to play.
    mutating func chooseMove(in state: State, seat: Int) -> State.Move
}

/// The stream a bot at `seat` draws from in a game with `gameSeed` (PROTOCOL.md §1.5).
public func botRNG(gameSeed: UInt64, seat: Int) -> TavoloRNG {
    TavoloRNG(seed: gameSeed, stream: 0x100 + UInt64(seat))
}

/// Picks uniformly among the legal moves: the baseline every game has.
public struct RandomBot<State: GameState>: Bot {
    public var rng: TavoloRNG
    public init(rng: TavoloRNG) { self.rng = rng }
    public var kind: String { "random" }
    public mutating func chooseMove(in state: State, seat: Int) -> State.Move {
        // The seat's own moves: in a race any active seat may move, not only the turn's (for a turn-based game the
        // two lists are the same, so every seed plays as before).
        let moves = state.legalMoves(seat: seat)
        return moves[rng.below(moves.count)]
    }
}

/// Makes a bot of one kind for a seat of a game with a given seed.
public struct BotFactory<State: GameState>: Sendable {
    public let kind: String
    public let summary: String
    public let make: @Sendable (_ gameSeed: UInt64, _ seat: Int) -> any Bot<State>

    public init(kind: String, summary: String, make: @escaping @Sendable (UInt64, Int) -> any Bot<State>) {
        self.kind = kind
        self.summary = summary
        self.make = make
    }

    /// The uniform random bot.
    public static var random: BotFactory {
        BotFactory(kind: "random", summary: "picks a legal move uniformly at random") { seed, seat in
            RandomBot<State>(rng: botRNG(gameSeed: seed, seat: seat))
        }
    }
}
