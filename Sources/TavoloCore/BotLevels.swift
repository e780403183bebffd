/// Difficulty levels: every game offers bots named `easy`, `medium`, `hard` and `expert`, next to its own kinds
/// (`random`, `heuristic`, `alphabeta`, …), so a player can pick a strength without knowing the game's bots.
/// A level is a registered bot kind like any other: each game maps it to one of its bots, or to a weaker copy of
/// one (`withMistakes`), and says in its summary what the level does and how long it may think.
public enum BotLevel: String, CaseIterable, Sendable {
    case easy, medium, hard, expert
}

extension BotFactory {
    /// The same bot registered under another kind (a level's name) with its own summary.
    public func named(_ kind: String, summary: String) -> BotFactory {
        BotFactory(kind: kind, summary: summary, make: make)
    }

    /// The same bot registered as `level`.
    public func level(_ level: BotLevel, summary: String) -> BotFactory { named(level.rawValue, summary: summary) }

    /// `base`'s bot that plays a uniformly random legal move instead of its own `percent` times in 100: a weaker
    /// level of a good bot that still plays its good moves most of the time.
    public static func withMistakes(_ base: BotFactory, percent: Int, level: BotLevel, summary: String) -> BotFactory {
        BotFactory(kind: level.rawValue, summary: summary) { seed, seat in
            MistakenBot(inner: base.make(seed, seat), rng: mistakeRNG(gameSeed: seed, seat: seat), percent: percent)
        }
    }
}

/// The stream a `withMistakes` level draws its mistakes from (PROTOCOL.md §1.5): its own, so the inner bot's
/// stream is the one that bot has at its own kind.
public func mistakeRNG(gameSeed: UInt64, seat: Int) -> TavoloRNG {
    TavoloRNG(seed: gameSeed, stream: 0x180 + UInt64(seat))
}

/// A bot that sometimes plays at random instead of asking `inner`.
struct MistakenBot<State: GameState>: Bot {
    var inner: any Bot<State>
    var rng: TavoloRNG
    let percent: Int

    var kind: String { inner.kind }

    mutating func chooseMove(in state: State, seat: Int) -> State.Move {
        if rng.below(100) < percent {
            let moves = state.legalMoves(seat: seat)
            return moves[rng.below(moves.count)]
        }
        return inner.chooseMove(in: state, seat: seat)
    }
}
