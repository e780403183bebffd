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
/// For every candidate card it scores, in 1/65536 of a probability:
/// - the chance that the next player to act (after a mirror, the player before us) holds no legal card and
///   must flee: its hand is taken as a random draw, without replacement, of the cards we cannot see (other
///   hands and the draw pile);
/// - our own safety: a large penalty if none of the cards we keep could answer the pile we leave should it
///   come straight back (a mirror keeps its colour and Fear), a bonus for the first two that could;
/// - a small cost for spending low cards, which stay playable at high Fear.
/// Self-safety matters most: making neighbours flee alone helps the far seats as much as us.
/// Integer arithmetic only, no allocation.
public struct SpiritsHeuristicBot: Bot {
    public var rng: TavoloRNG
    /// nil: `Weights.standard(players:)` for the game's player count.
    public var weights: Weights?

    /// Tuning knobs, in 1/65536 of a probability.
    public struct Weights: Sendable, Hashable {
        /// Cost of spending a card, by value 1, 2, 3.
        public var valueCost: (Int, Int, Int)
        /// Weight of our own risk: the chance that we could not answer the pile we leave.
        public var selfRisk: Int

        /// Weight of the next player's chance to flee, in 1/16.
        public var nextFlees: Int
        /// Bonus per card (up to two) we keep that could answer the pile we leave.
        public var mineBonus: Int

        public init(valueCost: (Int, Int, Int), selfRisk: Int, nextFlees: Int, mineBonus: Int) {
            self.valueCost = valueCost
            self.selfRisk = selfRisk
            self.nextFlees = nextFlees
            self.mineBonus = mineBonus
        }

        /// The tuned weights (2,000–20,000-game batches against random seats, seed 7): with few players the
        /// next player is also the one after next, so pushing it to flee and keeping answers count for more.
        public static func standard(players: Int) -> Weights {
            players <= 3
                ? Weights(valueCost: (3000, 1500, 0), selfRisk: 60000, nextFlees: 16, mineBonus: 15000)
                : Weights(valueCost: (3000, 1500, 0), selfRisk: 60000, nextFlees: 12, mineBonus: 10000)
        }

        public static func == (a: Weights, b: Weights) -> Bool {
            a.valueCost == b.valueCost && a.selfRisk == b.selfRisk
                && a.nextFlees == b.nextFlees && a.mineBonus == b.mineBonus
        }

        public func hash(into h: inout Hasher) {
            h.combine(valueCost.0)
            h.combine(valueCost.1)
            h.combine(valueCost.2)
            h.combine(selfRisk)
            h.combine(nextFlees)
            h.combine(mineBonus)
        }
    }

    public init(rng: TavoloRNG, weights: Weights? = nil) {
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
            let w = weights ?? .standard(players: obs.players)
            for card in candidates {
                let s = score(card, opening: opening, obs: obs, unseen: unseen, unseenTotal: n, weights: w)
                if s > bestScore {
                    bestScore = s
                    best = card
                }
            }
        }
        return flee ? .flee(open: best) : .play(best)
    }

    @inline(__always)
    func score(
        _ card: SpiritsCard, opening: Bool, obs: SpiritsObservation, unseen: SpiritsCardCounts, unseenTotal n: Int,
        weights: Weights
    ) -> Int {
        var fear = card.value
        var cw = obs.clockwise
        if !opening, let top = obs.top {
            if top.colourIndex == card.colourIndex {
                cw.toggle(); fear = obs.fear
            } else {
                fear = obs.fear + card.value
            }
        }
        let next = obs.seat(after: obs.seat, clockwise: cw)
        let allowed = SpiritsKindMask.colour(card.colourIndex) | SpiritsKindMask.valuesUpTo(SpiritsState.maxFear - fear)
        let k = unseen.count(in: allowed)
        var s = Self.chanceNone(total: n, good: k, drawn: obs.handSizes[next]) &* weights.nextFlees &>> 4
        switch card.value {
        case 1: s -= weights.valueCost.0
        case 2: s -= weights.valueCost.1
        default: s -= weights.valueCost.2
        }
        var rest = obs.hand
        rest.remove(card)
        // Could we answer this pile ourselves with what we keep, if it comes straight back (a mirror)?
        let mine = rest.count(in: allowed)
        if mine == 0 { s -= weights.selfRisk }
        s += weights.mineBonus &* Swift.min(mine, 2)
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

extension BotFactory where State == SpiritsState {
    /// The levels (`BotLevel`).
    public static var spiritsLevels: [BotFactory<SpiritsState>] {
        [
            spiritsRandom.level(.easy, summary: "random: any legal card (instant)"),
            .withMistakes(
                spiritsHeuristic, percent: 35, level: .medium,
                summary: "the heuristic, but one card in three at random (instant)"),
            spiritsHeuristic.level(.hard, summary: "heuristic: the card most likely to stop the next player (instant)"),
            spiritsSearch.level(
                .expert,
                summary:
                    "search: plays each card out to the round's end over random deals of the unseen cards (~25 ms, at most ~0.1 s)"
            ),
        ]
    }
}
