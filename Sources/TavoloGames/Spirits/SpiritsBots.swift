import TavoloCore

/// Uniform over the legal moves, exactly as `RandomBot` (same stream, same choice) but without building
/// the move list: the legal moves are the kinds of `legalKinds` in order.
public struct SpiritsRandomBot: Bot {
    public var rng: TavoloRNG
    public init(rng: TavoloRNG) { self.rng = rng }
    public var kind: String { "random" }

    public mutating func chooseMove(in state: SpiritsState, seat: Int) -> SpiritsMove {
        let (kinds, flee) = state.legalKinds
        let card = kinds.element(at: rng.below(kinds.count))
        return flee ? .flee(open: card) : .play(card)
    }
}

/// The heuristic bot (rule 10 leaves the design to us). It looks only at the seat's observation.
///
/// For every candidate card it estimates the chance that the next player to act (after a mirror, the player
/// before us) holds no legal card and must flee: that player's hand is taken as a random draw, without
/// replacement, of the cards we cannot see (other hands and the draw pile). It prefers the move that most
/// likely makes the next player flee, less a cost for giving up a flexible card (low values, lone colours)
/// that would keep us safe later. Integer arithmetic only, no allocation.
public struct SpiritsHeuristicBot: Bot {
    public var rng: TavoloRNG
    public var weights: Weights

    /// Tuning knobs, in 1/65536 of a probability.
    public struct Weights: Sendable, Hashable {
        /// Cost of spending a card, by value 1, 2, 3.
        public var valueCost: (Int, Int, Int)
        /// Extra cost of spending the last card of a colour in hand.
        public var lastOfColour: Int
        /// Weight of our own risk: the chance that we could not answer the pile we leave.
        public var selfRisk: Int

        public init(valueCost: (Int, Int, Int) = (6000, 3000, 0), lastOfColour: Int = 2000, selfRisk: Int = 0) {
            self.valueCost = valueCost
            self.lastOfColour = lastOfColour
            self.selfRisk = selfRisk
        }

        public static func == (a: Weights, b: Weights) -> Bool {
            a.valueCost == b.valueCost && a.lastOfColour == b.lastOfColour && a.selfRisk == b.selfRisk
        }

        public func hash(into h: inout Hasher) {
            h.combine(valueCost.0)
            h.combine(valueCost.1)
            h.combine(valueCost.2)
            h.combine(lastOfColour)
            h.combine(selfRisk)
        }
    }

    public init(rng: TavoloRNG, weights: Weights = Weights()) {
        self.rng = rng
        self.weights = weights
    }

    public var kind: String { "heuristic" }

    public mutating func chooseMove(in state: SpiritsState, seat: Int) -> SpiritsMove {
        choose(state.observation(for: seat))
    }

    /// The move for the seat whose observation this is; that seat must be the one to play.
    public func choose(_ obs: SpiritsObservation) -> SpiritsMove {
        let playable = obs.playableKinds
        let opening = obs.phase == .open || playable.isEmpty
        let flee = obs.phase == .follow && playable.isEmpty
        let candidates = opening ? obs.hand.kinds : playable
        var best = candidates.element(at: 0)
        if candidates.count > 1 {
            let unseen = obs.unseen
            let n = unseen.total
            var bestScore = Int.min
            for card in candidates {
                let s = score(card, opening: opening, obs: obs, unseen: unseen, unseenTotal: n)
                if s > bestScore {
                    bestScore = s
                    best = card
                }
            }
        }
        return flee ? .flee(open: best) : .play(best)
    }

    @inline(__always)
    func score(_ card: SpiritsCard, opening: Bool, obs: SpiritsObservation, unseen: SpiritsCardCounts, unseenTotal n: Int)
        -> Int
    {
        var fear = card.value
        var cw = obs.clockwise
        if !opening, let top = obs.top {
            if top.colourIndex == card.colourIndex { cw.toggle(); fear = obs.fear } else { fear = obs.fear + card.value }
        }
        let next = obs.seat(after: obs.seat, clockwise: cw)
        let allowed = SpiritsKindMask.colour(card.colourIndex) | SpiritsKindMask.valuesUpTo(SpiritsState.maxFear - fear)
        let k = unseen.count(in: allowed)
        var s = Self.chanceNone(total: n, good: k, drawn: obs.handSizes[next])
        switch card.value {
        case 1: s -= weights.valueCost.0
        case 2: s -= weights.valueCost.1
        default: s -= weights.valueCost.2
        }
        var rest = obs.hand
        rest.remove(card)
        if rest.count(in: SpiritsKindMask.colour(card.colourIndex)) == 0 { s -= weights.lastOfColour }
        if weights.selfRisk != 0 {
            // Could we answer this pile ourselves with what we keep (a rough look one turn ahead)?
            let mine = rest.count(in: allowed)
            if mine == 0 { s -= weights.selfRisk }
        }
        return s
    }

    /// The chance, in 1/65536, that `drawn` cards taken without replacement from `total` include none of `good`.
    @inline(__always)
    static func chanceNone(total: Int, good: Int, drawn: Int) -> Int {
        var num = 1
        var den = 1
        var i = 0
        while i < drawn {
            let bad = total - good - i
            if bad <= 0 { return 0 }
            num &*= bad
            den &*= total - i
            i += 1
        }
        return (num << 16) / den
    }
}

extension BotFactory where State == SpiritsState {
    /// The allocation-free uniform random bot for Spirits!.
    public static var spiritsRandom: BotFactory {
        BotFactory(kind: "random", summary: "picks a legal move uniformly at random") { seed, seat in
            SpiritsRandomBot(rng: botRNG(gameSeed: seed, seat: seat))
        }
    }

    /// The heuristic bot for Spirits!.
    public static var spiritsHeuristic: BotFactory {
        BotFactory(
            kind: "heuristic",
            summary: "plays the card most likely to leave the next player unable to play, keeping low cards"
        ) { seed, seat in
            SpiritsHeuristicBot(rng: botRNG(gameSeed: seed, seat: seat))
        }
    }
}
