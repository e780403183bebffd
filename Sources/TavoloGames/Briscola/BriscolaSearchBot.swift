import TavoloCore

/// The searching Briscola bot: the strong bot's sampling of the hidden cards, with a look-ahead in every world.
///
/// From its observation alone it deals the unseen cards at random into `worlds` full states
/// (`BriscolaState(sampling:rng:)`) and, for each card of its hand, searches every world with alpha-beta (the other
/// sides playing together against it) `plies` cards deep, then finishes the game with the emulator playing every
/// seat; once a world's pile is gone it searches that world to its end. The strong bot looks no further than its own
/// card before its play-outs: here the replies and the next trick are chosen, not the emulator's. Values are those
/// of the strong bot (point margin, ±40 for the game), summed over the same worlds for every card; ties go to the
/// emulator's own choice. The budget is the count of worlds and the depth, not a time, so the bot plays the same
/// moves on any machine; its randomness is the `botRNG` stream it was made with. In Briscola chiamata (5 players)
/// it bids, calls and plays as the strong bot.
public struct BriscolaSearchBot: Bot {
    /// Plays chiamata, and holds the stream the search samples from.
    var strong: BriscolaStrongBot
    public var worlds: Int
    public var plies: Int
    public let kindName: String

    public init(rng: TavoloRNG, worlds: Int = Self.expertWorlds, plies: Int = Self.expertPlies, kind: String = "search")
    {
        strong = BriscolaStrongBot(rng: rng)
        self.worlds = worlds
        self.plies = plies
        kindName = kind
    }

    /// The budget of `search` and `expert`.
    public static let expertWorlds = 64
    public static let expertPlies = 3

    public var kind: String { kindName }

    public mutating func chooseMove(in state: BriscolaState, seat: Int) -> BriscolaMove {
        let obs = state.observation(for: seat)
        if obs.phase != nil { return strong.chooseMove(in: state, seat: seat) }
        return BriscolaMove(choose(obs))
    }

    /// The card to play for the seat of `obs`, which must be the seat to play (not in chiamata).
    public mutating func choose(_ obs: BriscolaObservation) -> Card {
        var moves = Array(obs.hand)
        let preferred = BriscolaEmulator.choose(obs)
        guard moves.count > 1 else { return preferred }
        if let i = moves.firstIndex(of: preferred) { moves.swapAt(0, i) }
        // With two players and no pile, nothing is hidden: one world is the truth.
        let sampleCount = obs.pileCount == 0 && obs.players == 2 ? 1 : worlds
        var totals = [Int](repeating: 0, count: moves.count)
        for _ in 0..<sampleCount {
            let world = BriscolaState(sampling: obs, rng: &strong.rng)
            for (i, card) in moves.enumerated() {
                var s = world
                s.play(card)
                totals[i] += Self.search(s, seat: obs.seat, plies: plies, alpha: Int.min, beta: Int.max)
            }
        }
        var best = 0
        for i in moves.indices.dropFirst() where totals[i] > totals[best] { best = i }
        return moves[best]
    }

    /// Alpha-beta for `seat` over a world with every card known: `plies` cards deep, then an emulator play-out;
    /// to the end once the pile is gone.
    static func search(_ s: BriscolaState, seat: Int, plies: Int, alpha: Int, beta: Int) -> Int {
        if s.isOver { return BriscolaStrongBot.value(s, seat: seat) }
        if s.pileCount == 0 { return BriscolaStrongBot.solve(s, seat: seat, alpha: alpha, beta: beta) }
        if plies == 0 {
            var rest = s
            BriscolaStrongBot.rollout(&rest)
            return BriscolaStrongBot.value(rest, seat: seat)
        }
        var alpha = alpha
        var beta = beta
        let maximizing = s.sameSide(s.current, seat)
        var best = maximizing ? Int.min : Int.max
        for card in s.hands[s.current] {
            var child = s
            child.play(card)
            let v = search(child, seat: seat, plies: plies - 1, alpha: alpha, beta: beta)
            if maximizing {
                best = max(best, v)
                alpha = max(alpha, v)
            } else {
                best = min(best, v)
                beta = min(beta, v)
            }
            if alpha >= beta { break }
        }
        return best
    }
}
