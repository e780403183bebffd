import TavoloCore

/// A stronger Briscola bot: sampling of the hidden cards plus look-ahead.
///
/// From its observation alone it deals the unseen cards at random into `worlds` full states
/// (`BriscolaState(sampling:rng:)`). While the pile lasts, it tries each card of its hand in every world and
/// finishes the game with the emulator playing every seat (a one-step improvement of the emulator's policy).
/// Once the pile is empty the rest of the game is small, so it solves each world exactly with alpha-beta.
/// A card's value is its side's point margin at the end plus a bonus for a won game, summed over worlds;
/// ties go to the emulator's own choice, then to the lower card number. Deterministic: its randomness is
/// the `botRNG` stream it was made with.
public struct BriscolaStrongBot: Bot {
    public var rng: TavoloRNG
    public var worlds: Int

    public init(rng: TavoloRNG, worlds: Int = 128) {
        self.rng = rng
        self.worlds = worlds
    }

    public var kind: String { "strong" }

    public mutating func chooseMove(in state: BriscolaState, seat: Int) -> BriscolaMove {
        BriscolaMove(choose(state.observation(for: seat)))
    }

    /// The card to play for the seat of `obs`, which must be the seat to play.
    public mutating func choose(_ obs: BriscolaObservation) -> Card {
        var moves = Array(obs.hand)
        let preferred = BriscolaEmulator.choose(obs)
        guard moves.count > 1 else { return preferred }
        if let i = moves.firstIndex(of: preferred) { moves.swapAt(0, i) }
        let side = obs.seat % 2
        // With two players and no pile, nothing is hidden: one world is the truth.
        let sampleCount = obs.pileCount == 0 && obs.players == 2 ? 1 : worlds
        var totals = [Int](repeating: 0, count: moves.count)
        for _ in 0..<sampleCount {
            let world = BriscolaState(sampling: obs, rng: &rng)
            for (i, card) in moves.enumerated() {
                var s = world
                s.play(card)
                if obs.pileCount == 0 {
                    totals[i] += Self.solve(s, side: side, alpha: Int.min, beta: Int.max)
                } else {
                    Self.rollout(&s)
                    totals[i] += Self.value(s, side: side)
                }
            }
        }
        var best = 0
        for i in moves.indices.dropFirst() where totals[i] > totals[best] { best = i }
        return moves[best]
    }

    /// Plays the game out with the emulator at every seat.
    static func rollout(_ s: inout BriscolaState) {
        while !s.isOver {
            let target = s.table.isEmpty ? nil : s.table[BriscolaState.winningIndex(s.table, trump: s.trumpSuit)]
            s.play(BriscolaEmulator.choose(hand: s.hands[s.current], table: target, trump: s.trumpSuit).card)
        }
    }

    /// The final value for `side`: point margin, plus 40 for a win (minus for a loss).
    static func value(_ s: BriscolaState, side: Int) -> Int {
        let p = s.sidePoints
        let margin = p[side] - p[1 - side]
        return margin + (margin > 0 ? 40 : margin < 0 ? -40 : 0)
    }

    /// Exact value for `side` of a state with no hidden cards and an empty pile (alpha-beta).
    static func solve(_ s: BriscolaState, side: Int, alpha: Int, beta: Int) -> Int {
        if s.isOver { return value(s, side: side) }
        var alpha = alpha
        var beta = beta
        let maximizing = s.current % 2 == side
        var best = maximizing ? Int.min : Int.max
        for card in s.hands[s.current] {
            var child = s
            child.play(card)
            let v = solve(child, side: side, alpha: alpha, beta: beta)
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

extension BotFactory where State == BriscolaState {
    /// Every Briscola bot, weakest first.
    public static var briscolaBots: [BotFactory<BriscolaState>] {
        [
            .random,
            BotFactory(kind: "emulator", summary: "the seed's priority list (RULES.md Briscola rule 7)") { _, _ in
                BriscolaEmulatorBot()
            },
            BotFactory(
                kind: "strong",
                summary: "samples the hidden cards; emulator play-outs while the pile lasts, exact search after"
            ) { seed, seat in
                BriscolaStrongBot(rng: botRNG(gameSeed: seed, seat: seat))
            },
        ]
    }
}
