import TavoloCore

/// The auction or the call of Briscola chiamata as the seat to move sees it: what it may bid, whether it may
/// pass, what it may call. Nil when there is no auction move to make.
public struct ChiamataAuctionView: Sendable {
    public let obs: BriscolaObservation
    public let phase: ChiamataPart.Phase
    /// The highest bid so far.
    public let highest: ChiamataBid?

    public init?(_ obs: BriscolaObservation) {
        guard let phase = obs.phase, phase != .playing, obs.turn == obs.seat else { return nil }
        self.obs = obs
        self.phase = phase
        highest = obs.auction?.reversed().lazy.compactMap(\.chiamataBid).first
    }

    /// The lowest bid still allowed; nil when nothing is higher than the highest bid.
    public var lowestBid: ChiamataBid? {
        guard let h = highest else { return .lowest }
        return ChiamataBid(level: h.level + 1)
    }

    /// The dealer may not pass when every other seat passed without a bid.
    public var mustBid: Bool {
        highest == nil && (obs.auction ?? []).filter { $0.bid == nil }.count == obs.players - 1
    }

    /// The cards the declarer may call: the bid's rank in each suit.
    public var callable: [Card] {
        let rank = highest?.rank ?? 1
        return Suit.allCases.compactMap { Card(rank: rank, suit: $0) }
    }

    /// Pass when allowed (else the lowest bid); call the suit this hand is longest in, without holding the card.
    public var cautiousMove: BriscolaMove {
        switch phase {
        case .bidding:
            if !mustBid { return .pass }
            return .bid(lowestBid ?? .lowest)
        case .calling, .playing:
            return .call(bestCall)
        }
    }

    /// The callable card of the suit where this hand has the most cards, then the most points, preferring a card
    /// it does not hold (calling one's own card means playing alone).
    public var bestCall: Card {
        func key(_ c: Card) -> (Int, Int, Int, Int) {
            let suit = obs.hand & .suit(c.suit)
            return (obs.hand.contains(c) ? 0 : 1, suit.count, suit.points, -c.suit.rawValue)
        }
        return callable.max { key($0) < key($1) } ?? Card(uncheckedID: 0)
    }
}
