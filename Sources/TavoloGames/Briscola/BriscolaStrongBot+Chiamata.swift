import TavoloCore

// The strong bot in Briscola chiamata.
//
// Bidding: for each card it could call (a rank, a suit), it deals the hidden cards at random into a few worlds,
// makes itself the declarer of that call, plays each world out with `teamChoice` at every seat, and averages its
// side's points. It bids, one step at a time, while the best call of the next bid's rank is expected to reach
// that bid's target; it calls the card that expects the most.
// Play: it samples worlds as with fewer players, but first picks the partner by weights read from the tricks
// (`partnerWeights`), then tries each card with `teamChoice` play-outs, or exact search for the last two tricks.

/// The expected card points of the declarer's side if this seat declared calling `card`.
public struct CallEstimate: Sendable, Equatable {
    public var card: Card
    public var points: Int
}

extension BriscolaStrongBot {
    /// Worlds per candidate call when bidding, and per card when playing.
    static let chiamataBidWorlds = 12
    static let chiamataPlayWorlds = 40
    /// Points kept in hand over a bid's target before bidding it: bids are what the declarer must reach.
    static let bidMargin = 4

    mutating func chooseAuctionMove(_ view: ChiamataAuctionView) -> BriscolaMove {
        let estimates = callEstimates(view.obs)
        if view.phase != .bidding { return .call(bestCall(estimates, rank: view.highest?.rank ?? 1, view: view)) }
        guard let next = view.lowestBid else { return .pass }
        let best = estimates.filter { $0.card.rank == next.rank }.map(\.points).max() ?? 0
        if view.mustBid || best >= next.target + Self.bidMargin { return .bid(next) }
        return .pass
    }

    /// The expected points of the declarer's side for each card this seat could call, itself declaring.
    mutating func callEstimates(_ obs: BriscolaObservation) -> [CallEstimate] {
        if let cached = callEstimateCache, cached.hand == obs.hand { return cached.estimates }
        let estimates = computeCallEstimates(obs)
        callEstimateCache = (obs.hand, estimates)
        return estimates
    }

    mutating func computeCallEstimates(_ obs: BriscolaObservation) -> [CallEstimate] {
        var totals = [Int](repeating: 0, count: 40)
        for _ in 0..<Self.chiamataBidWorlds {
            let world = BriscolaState(sampling: obs, rng: &rng)
            for card in Card.all {
                var s = world.assumingCall(card, by: obs.seat)
                Self.teamRollout(&s)
                totals[Int(card.id)] += s.sidePoints[obs.seat]
            }
        }
        return Card.all.map { CallEstimate(card: $0, points: totals[Int($0.id)] / Self.chiamataBidWorlds) }
    }

    func bestCall(_ estimates: [CallEstimate], rank: Int, view: ChiamataAuctionView) -> Card {
        let options = estimates.filter { $0.card.rank == rank }
        return options.max { ($0.points, -Int($0.card.id)) < ($1.points, -Int($1.card.id)) }?.card ?? view.bestCall
    }

    /// A card to play in chiamata: sampled worlds with the partner drawn by weight, team play-outs.
    mutating func chooseChiamataCard(_ obs: BriscolaObservation, moves: [Card], preferred: Card) -> Card {
        var moves = moves
        if let i = moves.firstIndex(of: preferred) { moves.swapAt(0, i) }
        let weights = Self.partnerWeights(obs, reading: readsPartner)
        let exact = obs.handCounts.allSatisfy { $0 <= 2 }
        var totals = [Int](repeating: 0, count: moves.count)
        for _ in 0..<Self.chiamataPlayWorlds {
            let world = BriscolaState(sampling: obs, partner: Self.draw(weights, rng: &rng), rng: &rng)
            for (i, card) in moves.enumerated() {
                var s = world
                s.play(card)
                if exact {
                    totals[i] += Self.solve(s, seat: obs.seat, alpha: Int.min, beta: Int.max)
                } else {
                    Self.teamRollout(&s)
                    totals[i] += Self.value(s, seat: obs.seat)
                }
            }
        }
        var best = 0
        for i in moves.indices.dropFirst() where totals[i] > totals[best] { best = i }
        return moves[best]
    }

    /// A seat drawn with probability proportional to its weight; nil when no seat has weight.
    static func draw(_ weights: [Int], rng: inout TavoloRNG) -> Int? {
        let total = weights.reduce(0, +)
        guard total > 0 else { return nil }
        var r = rng.below(total)
        for (seat, w) in weights.enumerated() {
            if r < w { return seat }
            r -= w
        }
        return nil
    }

    /// How likely each seat is to hold the called card, from what it played: helping the declarer's trick with
    /// points suggests the partner, taking a trick from the declarer suggests a defender. All zero when this seat
    /// knows (it holds the card, or the card was played) or before the call.
    static func partnerWeights(_ obs: BriscolaObservation, reading: Bool = true) -> [Int] {
        var weights = [Int](repeating: 0, count: obs.players)
        guard obs.partner == nil, let called = obs.calledCard, let declarer = obs.declarer, let trump = obs.trumpSuit,
            !obs.hand.contains(called)
        else { return weights }
        var score = [Int](repeating: 0, count: obs.players)
        let tricks = (obs.tricks ?? []) + [BriscolaTrick(leader: obs.leader, cards: obs.table)]
        for trick in tricks where reading {
            var best = 0
            for (i, card) in trick.cards.enumerated() {
                let seat = (trick.leader + i) % obs.players
                let winnerSoFar = (trick.leader + best) % obs.players
                let beats = i > 0 && BriscolaState.beats(card, trick.cards[best], trump: trump)
                if i > 0, seat != declarer, winnerSoFar == declarer {
                    if beats {
                        score[seat] -= 2
                    } else if card.points >= 3 && card.suit != trump {
                        score[seat] += 2
                    }
                }
                if beats { best = i }
            }
        }
        for seat in 0..<obs.players where seat != obs.seat && obs.handCounts[seat] > 0 {
            // Calling one's own card (playing alone) is rare: the declarer starts far less likely.
            let base = seat == declarer ? 1 : 8
            weights[seat] = base << (min(max(score[seat], -3), 3) + 3)
        }
        return weights
    }

    /// Plays the game out with every seat following `teamChoice`.
    static func teamRollout(_ s: inout BriscolaState) {
        while !s.isOver, s.trumpSuit != nil {
            s.play(teamChoice(s))
        }
    }

    /// A quick policy that knows the sides: lead low; give points to a trick the own side is taking; take a trick
    /// worth points from the other side with the cheapest card that does it; else throw the least useful card.
    static func teamChoice(_ s: BriscolaState) -> Card {
        let hand = s.hands[s.current]
        let trump = s.trumpSuit ?? .coppe
        let plain = hand & ~CardSet.suit(trump)
        let cheapest = (plain & ~CardSet.counting).lowest ?? plain.lowest ?? hand.lowest ?? Card(uncheckedID: 0)
        guard !s.table.isEmpty else { return cheapest }
        let w = BriscolaState.winningIndex(s.table, trump: trump)
        let winner = (s.leader + w) % s.playerCount
        if s.sameSide(winner, s.current) {
            let lastToPlay = s.table.count == s.playerCount - 1
            let safe = lastToPlay || s.table[w].suit == trump || s.table[w].strength >= 8
            return safe ? ((plain & .counting).highest ?? cheapest) : cheapest
        }
        var beating = CardSet()
        for c in hand where BriscolaState.beats(c, s.table[w], trump: trump) { beating.insert(c) }
        let points = CardSet(s.table).points
        let takeWith = (beating & ~CardSet.suit(trump)).lowest ?? (points >= 4 ? (beating & .suit(trump)).lowest : nil)
        return takeWith ?? cheapest
    }
}

extension BriscolaState {
    /// This world with the auction over: `seat` won it calling `card` (a rank bid, its target 61).
    func assumingCall(_ card: Card, by seat: Int) -> BriscolaState {
        var s = self
        var c = ChiamataPart()
        let rankBid = ChiamataBid.rankOrder.firstIndex(of: card.rank).flatMap { ChiamataBid(level: $0) } ?? .lowest
        c.auction = [ChiamataAuctionEntry(seat: seat, bid: rankBid)]
        c.phase = .playing
        c.declarer = seat
        c.calledCard = card
        c.partner = (0..<playerCount).first { hands[$0].contains(card) }
        s.chiamata = c
        s.trumpSuit = card.suit
        s.leader = (dealer + 1) % playerCount
        s.current = s.leader
        return s
    }
}
