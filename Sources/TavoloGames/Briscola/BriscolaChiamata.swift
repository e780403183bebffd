import TavoloCore

// Briscola chiamata (5 players): 40 cards, 8 each, no pile and no face-up card.
//
// - Auction: from the seat after the dealer, in turn, each seat still in the auction bids higher than the highest
//   bid so far (`ChiamataBid`: a rank downwards, then points 62…120) or passes; a pass is final. The auction ends
//   when one seat has bid and every other has passed. If the first four seats all pass, the dealer may not pass.
// - Call: the auction's winner (the declarer) names a card of the rank it bid (the Due after a points bid), any
//   suit; that suit is trump. The seat holding the card is the secret partner (the declarer itself when it
//   called its own card: then it plays alone against four). Nobody is told; the card played reveals it.
// - Play: the seat after the dealer leads the first trick; tricks as in Briscola; no drawing; 8 tricks.
// - The declarer's side wins with at least the bid's target (61 for a rank bid) of the 120 points.

/// One entry of the auction: a seat's bid, or its pass (`bid` nil).
public struct ChiamataAuctionEntry: Hashable, Sendable, Codable {
    public var seat: Int
    /// nil for a pass.
    public var bid: Int?

    public init(seat: Int, bid: ChiamataBid?) {
        self.seat = seat
        self.bid = bid?.wire
    }

    /// The bid, decoded from its wire number.
    public var chiamataBid: ChiamataBid? { bid.flatMap(ChiamataBid.init(wire:)) }
}

/// A finished trick: who led it and the cards in play order.
public struct BriscolaTrick: Hashable, Sendable, Codable {
    public var leader: Int
    public var cards: [Card]
}

/// What Briscola chiamata adds to the state: the auction, the call, the partner, the tricks played.
public struct ChiamataPart: Hashable, Sendable, Codable {
    public enum Phase: String, Sendable, Codable {
        case bidding, calling, playing

        /// Its number in the canonical encoding.
        var code: UInt8 {
            switch self {
            case .bidding: 0
            case .calling: 1
            case .playing: 2
            }
        }
    }

    public internal(set) var phase: Phase = .bidding
    public internal(set) var auction: [ChiamataAuctionEntry] = []
    /// The auction's winner, once the auction is over (its highest bidder).
    public internal(set) var declarer: Int?
    public internal(set) var calledCard: Card?
    /// The seat that held the called card at the call; secret until `partnerRevealed`.
    public internal(set) var partner: Int?
    public internal(set) var partnerRevealed = false
    /// Finished tricks, oldest first: public, and what bots read the partner from.
    public internal(set) var tricks: [BriscolaTrick] = []

    /// The highest bid so far and its bidder (the declarer once the auction is over).
    public var highest: (bid: ChiamataBid, seat: Int)? {
        for e in auction.reversed() { if let b = e.chiamataBid { return (b, e.seat) } }
        return nil
    }

    /// Seats that have passed (out of the auction).
    public var passed: Set<Int> { Set(auction.filter { $0.bid == nil }.map(\.seat)) }
}

extension BriscolaState {
    static let chiamataPlayers = 5

    /// Whether this is Briscola chiamata.
    public var isChiamata: Bool { playerCount == Self.chiamataPlayers }

    /// Whether `seat` is the declarer or its partner (false before the call).
    func onDeclarerSide(_ seat: Int) -> Bool {
        guard let c = chiamata, c.partner != nil else { return false }
        return seat == c.declarer || seat == c.partner
    }

    /// The moves of the auction or the call for the seat to play.
    func chiamataMoves(_ c: ChiamataPart) -> [BriscolaMove] {
        switch c.phase {
        case .bidding:
            let next = c.highest.map { $0.bid.level + 1 } ?? 0
            var moves = (next...max(next, ChiamataBid.maxLevel)).compactMap { ChiamataBid(level: $0) }.map(
                BriscolaMove.bid)
            if !mustBid(c) { moves.append(.pass) }
            return moves
        case .calling:
            let rank = c.highest?.bid.rank ?? 1
            return Suit.allCases.compactMap { Card(rank: rank, suit: $0) }.map(BriscolaMove.call)
        case .playing:
            return hands[current].map(BriscolaMove.init)
        }
    }

    /// The dealer may not pass when the four seats before it have all passed.
    func mustBid(_ c: ChiamataPart) -> Bool { c.highest == nil && c.passed.count == playerCount - 1 }

    /// Applies a bid, a pass or the call (the play of cards is the same as with fewer players).
    mutating func applyAuction(_ move: BriscolaMove, _ c: inout ChiamataPart) throws(MoveError) {
        switch (c.phase, move.action) {
        case (.bidding, .bid(let b)):
            if let h = c.highest, b <= h.bid {
                throw MoveError(.illegal, "a bid must be higher than \(h.bid)")
            }
            c.auction.append(ChiamataAuctionEntry(seat: current, bid: b))
            moveNumber += 1
            advanceAuction(&c)
        case (.bidding, .pass):
            guard !mustBid(c) else { throw MoveError(.illegal, "everyone else passed: the dealer must bid") }
            c.auction.append(ChiamataAuctionEntry(seat: current, bid: nil))
            moveNumber += 1
            advanceAuction(&c)
        case (.calling, .call(let card)):
            guard let rank = c.highest?.bid.rank, card.rank == rank else {
                throw MoveError(.illegal, "the called card must be of the rank bid")
            }
            c.calledCard = card
            c.partner = (0..<playerCount).first { hands[$0].contains(card) }
            c.phase = .playing
            trumpSuit = card.suit
            moveNumber += 1
            leader = (dealer + 1) % playerCount
            current = leader
        default:
            throw MoveError(.illegal, "\(move) is not a move of the auction's \(c.phase) phase")
        }
    }

    /// Next seat still in the auction, or the call when only the highest bidder is left.
    mutating func advanceAuction(_ c: inout ChiamataPart) {
        let out = c.passed
        if let h = c.highest, out.count == playerCount - 1 {
            c.phase = .calling
            c.declarer = h.seat
            current = h.seat
            return
        }
        var seat = current
        repeat { seat = (seat + 1) % playerCount } while out.contains(seat)
        current = seat
    }

    /// Book-keeping after a card of a chiamata trick: the partner is revealed by the called card.
    mutating func chiamataPlayed(_ card: Card) {
        guard var c = chiamata else { return }
        if card == c.calledCard { c.partnerRevealed = true }
        chiamata = c
    }

    mutating func chiamataTrickDone(leader: Int, cards: [Card]) {
        chiamata?.tricks.append(BriscolaTrick(leader: leader, cards: cards))
    }

    /// Card points of each seat's side: the declarer and partner together, the defenders together.
    var chiamataSidePoints: [Int] {
        guard chiamata?.partner != nil else { return capturedPoints }
        var declarers = 0
        for seat in 0..<playerCount where onDeclarerSide(seat) { declarers += captured[seat].points }
        return (0..<playerCount).map { onDeclarerSide($0) ? declarers : 120 - declarers }
    }

    var chiamataOutcome: GameOutcome {
        let scores = chiamataSidePoints
        guard let d = chiamata?.declarer, let target = chiamata?.highest?.bid.target else {
            return GameOutcome(winners: [], scores: scores)
        }
        let won = scores[d] >= target
        return GameOutcome(winners: (0..<playerCount).filter { onDeclarerSide($0) == won }, scores: scores)
    }

    /// The game points as commonly scored for a hand: declarer ±2, partner ±1, each defender ∓1; a declarer
    /// alone ±4. Zero-sum. Nil until the game is over.
    public var chiamataGamePoints: [Int]? {
        guard isOver, let c = chiamata, let d = c.declarer, let p = c.partner, let outcome else { return nil }
        let sign = outcome.winners.contains(d) ? 1 : -1
        return (0..<playerCount).map { seat in
            if seat == d { return sign * (p == d ? 4 : 2) }
            if seat == p { return sign }
            return -sign
        }
    }
}
