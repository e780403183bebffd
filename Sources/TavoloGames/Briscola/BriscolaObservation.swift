import TavoloCore

/// What one seat may know in Briscola.
///
/// Besides its own hand, the face-up trump and the table, a seat sees every captured card: each was played
/// face up in front of everyone, so a player with a perfect memory knows them (and the points each side has).
/// We give them here so bots need no memory of their own. Likewise who drew the face-up trump is public.
/// Nothing else: not the other hands, not the order of the pile.
///
/// In Briscola chiamata (5 players) a seat also sees the auction, the called card and the tricks played; it is
/// told the partner only when it is the partner (it holds the called card) or once the called card is played.
/// The fields of chiamata are absent with 2–4 players, so their JSON is what it always was.
public struct BriscolaObservation: Codable, Sendable, Equatable {
    public var seat: Int
    public var players: Int
    public var dealer: Int
    public var moveNumber: Int
    /// The seat to play; nil when the game is over.
    public var turn: Int?
    public var leader: Int
    public var hand: CardSet
    /// The card turned up at the deal: its suit is trump (the card itself was seen by all). None in chiamata.
    public var trumpCard: Card?
    /// Whether it still lies under the pile.
    public var trumpFaceUp: Bool
    /// The seat that drew the face-up trump, once drawn.
    public var trumpDrawnBy: Int?
    /// Cards left in the pile, the face-up trump included.
    public var pileCount: Int
    public var handCounts: [Int]
    /// The current trick, in play order from `leader`.
    public var table: [Card]
    /// Cards each seat has taken.
    public var captured: [CardSet]

    // Briscola chiamata only.

    /// `bidding`, `calling` or `playing`.
    public var phase: ChiamataPart.Phase?
    /// Every bid and pass in order.
    public var auction: [ChiamataAuctionEntry]?
    /// The auction's winner, once the auction is over.
    public var declarer: Int?
    /// The points the declarer's side must take (the highest bid's target).
    public var target: Int?
    public var calledCard: Card?
    /// The declarer's partner: shown only to the partner itself until the called card is played.
    public var partner: Int?
    /// Finished tricks, oldest first.
    public var tricks: [BriscolaTrick]?
    /// Game points as commonly scored (declarer ±2, partner ±1, defenders ∓1; alone ±4), once over.
    public var gamePoints: [Int]?

    /// The trump suit: the face-up card's, or the called card's; nil during the auction.
    public var trumpSuit: Suit? { trumpCard?.suit ?? calledCard?.suit }
    public var capturedPoints: [Int] { captured.map(\.points) }

    /// Cards this seat cannot see: other hands and the face-down pile.
    public var unseen: CardSet {
        var known = hand | CardSet(table)
        for c in captured { known = known | c }
        if trumpFaceUp, let t = trumpCard { known.insert(t) }
        if players == 3 { known.insert(BriscolaState.removedForThree) }
        return ~known
    }
}

extension BriscolaState {
    public func observation(for seat: Int) -> BriscolaObservation {
        var obs = BriscolaObservation(
            seat: seat, players: playerCount, dealer: dealer, moveNumber: moveNumber, turn: turn.seat,
            leader: leader, hand: hands[seat], trumpCard: trumpCard, trumpFaceUp: trumpFaceUp,
            trumpDrawnBy: trumpDrawnBy, pileCount: pileCount, handCounts: hands.map(\.count), table: table,
            captured: captured)
        if let c = chiamata {
            obs.phase = c.phase
            obs.auction = c.auction
            obs.declarer = c.declarer
            obs.target = c.highest?.bid.target
            obs.calledCard = c.calledCard
            obs.partner = c.partnerRevealed || c.partner == seat ? c.partner : nil
            obs.tricks = c.tricks
            obs.gamePoints = chiamataGamePoints
        }
        return obs
    }
}
