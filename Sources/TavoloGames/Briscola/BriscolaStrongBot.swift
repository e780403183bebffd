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
///
/// With 3 players every other seat is an opponent (the margin is over the best of them). In Briscola chiamata it
/// bids from its hand's value, and reads the partner from the cards played (`BriscolaStrongBot+Chiamata.swift`).
public struct BriscolaStrongBot: Bot {
    public var rng: TavoloRNG
    public var worlds: Int
    /// Chiamata: the call estimates of the hand they were made for (the hand does not change during the auction).
    var callEstimateCache: (hand: CardSet, estimates: [CallEstimate])?

    /// Chiamata: whether it reads the partner from the tricks (false: every seat equally likely; for measuring).
    public var readsPartner: Bool

    /// `strong`, or the kind it is registered as with another budget (`search`).
    public let kindName: String

    public init(rng: TavoloRNG, worlds: Int = 128, readsPartner: Bool = true, kind: String = "strong") {
        self.rng = rng
        self.worlds = worlds
        self.readsPartner = readsPartner
        kindName = kind
    }

    /// The worlds of `search` and `expert` (`BriscolaExpertBot`): more samples, so less noise in each card's value;
    /// about 20 ms a move. Against the strong bot these worlds alone won 53.1% of 2,000 games
    /// (`tavolo-bots-bench card-search`). Looking further ahead in
    /// each world lost (36% at one card more): a reply chosen with every card in view is one no real opponent could
    /// find. An information-set tree search of 6,000 iterations did no better (51.0% of 600 games).
    public static let searchWorlds = 2048

    public var kind: String { kindName }

    public mutating func chooseMove(in state: BriscolaState, seat: Int) -> BriscolaMove {
        let obs = state.observation(for: seat)
        if let auction = ChiamataAuctionView(obs) { return chooseAuctionMove(auction) }
        return BriscolaMove(choose(obs))
    }

    /// The card to play for the seat of `obs`, which must be the seat to play.
    public mutating func choose(_ obs: BriscolaObservation) -> Card {
        var moves = Array(obs.hand)
        let preferred = BriscolaEmulator.choose(obs)
        guard moves.count > 1 else { return preferred }
        if obs.phase != nil { return chooseChiamataCard(obs, moves: moves, preferred: preferred) }
        if let i = moves.firstIndex(of: preferred) { moves.swapAt(0, i) }
        // With two players and no pile, nothing is hidden: one world is the truth.
        let sampleCount = obs.pileCount == 0 && obs.players == 2 ? 1 : worlds
        var totals = [Int](repeating: 0, count: moves.count)
        for _ in 0..<sampleCount {
            let world = BriscolaState(sampling: obs, rng: &rng)
            for (i, card) in moves.enumerated() {
                var s = world
                s.play(card)
                if obs.pileCount == 0 {
                    totals[i] += Self.solve(s, seat: obs.seat, alpha: Int.min, beta: Int.max)
                } else {
                    Self.rollout(&s)
                    totals[i] += Self.value(s, seat: obs.seat)
                }
            }
        }
        var best = 0
        for i in moves.indices.dropFirst() where totals[i] > totals[best] { best = i }
        return moves[best]
    }

    /// Plays the game out with the emulator at every seat.
    static func rollout(_ s: inout BriscolaState) {
        while !s.isOver, let trump = s.trumpSuit {
            let target = s.table.isEmpty ? nil : s.table[BriscolaState.winningIndex(s.table, trump: trump)]
            s.play(BriscolaEmulator.choose(hand: s.hands[s.current], table: target, trump: trump).card)
        }
    }

    /// The final value for `seat`: its side's point margin over the best opposing side, plus 40 for a win
    /// (minus 40 for a loss, nothing for a draw).
    static func value(_ s: BriscolaState, seat: Int, winBonus: Int = 40) -> Int {
        let p = s.sidePoints
        var best = Int.min
        for o in 0..<s.playerCount where !s.sameSide(o, seat) { best = max(best, p[o]) }
        let margin = p[seat] - best
        guard let outcome = s.outcome, !outcome.winners.isEmpty else { return margin }
        return margin + (outcome.winners.contains(seat) ? winBonus : -winBonus)
    }

    /// Exact value for `seat` of a state with no hidden cards and an empty pile (alpha-beta, the other sides
    /// playing together against it).
    static func solve(_ s: BriscolaState, seat: Int, alpha: Int, beta: Int, winBonus: Int = 40) -> Int {
        if s.isOver { return value(s, seat: seat, winBonus: winBonus) }
        var alpha = alpha
        var beta = beta
        let maximizing = s.sameSide(s.current, seat)
        var best = maximizing ? Int.min : Int.max
        for card in s.hands[s.current] {
            var child = s
            child.play(card)
            let v = solve(child, seat: seat, alpha: alpha, beta: beta, winBonus: winBonus)
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
                summary:
                    "samples the hidden cards; emulator play-outs while the pile lasts, exact search after; bids from its hand and reads the partner from the cards played (5 players)"
            ) { seed, seat in
                BriscolaStrongBot(rng: botRNG(gameSeed: seed, seat: seat))
            },
            BotFactory(
                kind: "search",
                summary:
                    "the strong bot with \(BriscolaStrongBot.searchWorlds) samples of the hidden cards a card instead of 128 (2 and 4 players; in chiamata it is the strong bot); with 2 players, the last draws searched exactly, every hand the opponent may hold and every card it may draw (`BriscolaExpertBot`)"
            ) { seed, seat in
                BriscolaExpertBot(rng: botRNG(gameSeed: seed, seat: seat))
            },
        ]
    }
}
