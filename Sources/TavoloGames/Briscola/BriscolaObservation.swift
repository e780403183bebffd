import TavoloCore

/// What one seat may know in Briscola.
///
/// Besides its own hand, the face-up trump and the table, a seat sees every captured card: each was played
/// face up in front of everyone, so a player with a perfect memory knows them (and the points each side has).
/// We give them here so bots need no memory of their own. Likewise who drew the face-up trump is public.
/// Nothing else: not the other hands, not the order of the pile.
public struct BriscolaObservation: Codable, Sendable, Equatable {
    public var seat: Int
    public var players: Int
    public var dealer: Int
    public var moveNumber: Int
    /// The seat to play; nil when the game is over.
    public var turn: Int?
    public var leader: Int
    public var hand: CardSet
    /// The card turned up at the deal: its suit is trump (the card itself was seen by all).
    public var trumpCard: Card
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

    public var trumpSuit: Suit { trumpCard.suit }
    public var capturedPoints: [Int] { captured.map(\.points) }

    /// Cards this seat cannot see: other hands and the face-down pile.
    public var unseen: CardSet {
        var known = hand | CardSet(table)
        for c in captured { known = known | c }
        if trumpFaceUp { known.insert(trumpCard) }
        return ~known
    }
}

extension BriscolaState {
    public func observation(for seat: Int) -> BriscolaObservation {
        BriscolaObservation(
            seat: seat, players: playerCount, dealer: dealer, moveNumber: moveNumber, turn: turn.seat,
            leader: leader, hand: hands[seat], trumpCard: trumpCard, trumpFaceUp: trumpFaceUp,
            trumpDrawnBy: trumpDrawnBy, pileCount: pileCount, handCounts: hands.map(\.count), table: table,
            captured: captured)
    }

    /// A full state consistent with `obs`: the unseen cards dealt at random to the other hands and the pile
    /// (the face-up trump goes back to whoever drew it, if unplayed). Used by bots that sample hidden cards,
    /// and by tests that check a bot decides from the observation alone. Its `dealtDeck` is not a real deal.
    public init(sampling obs: BriscolaObservation, rng: inout TavoloRNG) {
        var unseen = Array(obs.unseen)
        let p = obs.players
        var hands = Array(repeating: CardSet(), count: p)
        hands[obs.seat] = obs.hand
        if !obs.trumpFaceUp, let holder = obs.trumpDrawnBy, holder != obs.seat,
            let i = unseen.firstIndex(of: obs.trumpCard)
        {
            unseen.remove(at: i)
            hands[holder].insert(obs.trumpCard)
        }
        rng.shuffle(&unseen)
        var next = 0
        for seat in 0..<p where seat != obs.seat {
            while hands[seat].count < obs.handCounts[seat] && next < unseen.count {
                hands[seat].insert(unseen[next])
                next += 1
            }
        }
        // The deck: dealt and played cards first (any order), then the face-up trump, then the pile.
        let pile = Array(unseen[next...])
        var deck = Array(~(CardSet(pile) | CardSet([obs.trumpCard])))
        let trumpIndex = BriscolaState.handSize * p
        deck.insert(obs.trumpCard, at: trumpIndex)
        deck.append(contentsOf: pile)
        playerCount = p
        seed = 0
        dealtDeck = deck
        dealer = obs.dealer
        trumpCard = obs.trumpCard
        self.hands = hands
        captured = obs.captured
        table = obs.table
        leader = obs.leader
        drawn = 40 - trumpIndex - obs.pileCount
        trumpDrawnBy = obs.trumpDrawnBy
        current = obs.turn ?? obs.leader
        moveNumber = obs.moveNumber
        isOver = obs.turn == nil
    }
}
