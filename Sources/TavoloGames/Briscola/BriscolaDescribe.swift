import TavoloCore

// Texts about moves. Every seat and client may be sent `describe`: it says what everyone saw happen (a bid, the
// call, a card once played, who took a trick), never a hand or, in chiamata, who holds the called card.

extension BriscolaState {
    /// The move as everyone saw it: never the hand it came from, nor the secret partner.
    public func describe(_ move: BriscolaMove) -> String { describe(move, revealing: false) }

    /// As `describe`, plus the hand the card came from (`tavolo playout --transcript` only).
    public func transcriptLine(_ move: BriscolaMove) -> String { describe(move, revealing: true) }

    func describe(_ move: BriscolaMove, revealing: Bool) -> String {
        var s = moveNumber == 0 ? opening : ""
        guard let card = move.card else { return s + describeAuction(move) }
        s += "plays \(card.name) [\(card.code)]"
        if revealing { s += " from " + hands[current].map(\.code).joined(separator: " ") }
        guard hands[current].contains(card) else { return s }
        if let c = chiamata, card == c.calledCard, let d = c.declarer {
            s +=
                current == d
                ? ", the called card: the declarer plays alone"
                : ", the called card: seat \(current) is the declarer's partner"
        }
        guard table.count + 1 == playerCount, let trump = trumpSuit else { return s }
        let trick = table + [card]
        let i = Self.winningIndex(trick, trump: trump)
        let winner = (leader + i) % playerCount
        let points = CardSet(trick).points
        let total = captured[winner].points + points
        s += " — trick to seat \(winner) with \(trick[i].name) (\(points) point\(points == 1 ? "" : "s"), "
        s += "seat \(winner) has \(total))"
        if let t = trumpCard, pileCount == playerCount {
            s += "; the face-up \(t.code) is drawn last by seat \((winner + playerCount - 1) % playerCount)"
        } else if pileCount == 0 && hands[current].count == 1 {
            s += "; all \(dealtDeck.count) cards played"
            if let end = chiamataEnd(lastTrickTo: winner, points: points) { s += end }
        }
        return s
    }

    /// The first move's preface: the dealer, and the trump (2–4 players) or the auction's start (chiamata).
    var opening: String {
        guard let t = trumpCard else { return "dealer seat \(dealer); 8 cards each, the auction opens; " }
        return "dealer seat \(dealer); \(t.name) [\(t.code)] turned face up: \(t.suit.name) are briscola (trump); "
    }

    func describeAuction(_ move: BriscolaMove) -> String {
        switch move.action {
        case .bid(let b):
            let target = b.isPointsBid ? "" : " (the declarer's side will need \(b.target))"
            return "bids \(b)\(target)"
        case .pass:
            return "passes"
        case .call(let card):
            let target = chiamata?.highest?.bid.target ?? ChiamataBid.rankTarget
            return
                "calls the \(card.name) [\(card.code)]: \(card.suit.name) are briscola (trump); whoever holds it is the secret partner; the declarer's side needs \(target)"
        case .play(let card):
            return card.code
        }
    }

    /// After the last card of chiamata: the sides' points and the result (everything is public by then).
    func chiamataEnd(lastTrickTo winner: Int, points: Int) -> String? {
        guard let c = chiamata, let d = c.declarer, let p = c.partner, let target = c.highest?.bid.target else {
            return nil
        }
        var taken = capturedPoints
        taken[winner] += points
        let declarers = taken[d] + (p == d ? 0 : taken[p])
        let who = p == d ? "seat \(d) alone" : "seats \(d) + \(p)"
        return "; the declarer's side (\(who)) took \(declarers) of the \(target) it needed: "
            + (declarers >= target ? "it wins" : "the defenders win")
    }
}
