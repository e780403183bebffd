import TavoloCore

/// Exact play of a two-player Briscola ending while a few cards are still in the pile.
///
/// A sampled world fixes the pile's order, and a search that sees it knows which card each seat will draw: a
/// clairvoyance no player has, which makes a deeper search in sampled worlds play worse, not better. Here only the
/// other hand is fixed (every possible one is tried, `BriscolaExpertBot`); each draw is a chance node that averages
/// over the cards still hidden in the pile, the face-up trump being the last one. Card play is minimax with
/// alpha-beta inside each stretch of play between draws.
struct BriscolaEndgame {
    /// The hands of seat 0 (the searching seat) and seat 1 (its opponent).
    var hands: (CardSet, CardSet)
    /// Cards hidden in the pile, in no known order; the face-up trump comes after them.
    var pool: CardSet
    /// Whether the face-up trump is still under the pile.
    var trumpInPile: Bool
    let trumpCard: Card
    /// Points taken so far by seat 0 and seat 1.
    var points: (Int, Int)
    /// The seat that leads the current trick, and its card once played.
    var leader: Int
    var led: Card?
    /// What a won game is worth on top of the point margin (`BriscolaExpertBot.winBonus`).
    let winBonus: Int

    var trump: Suit { trumpCard.suit }

    func hand(_ seat: Int) -> CardSet { seat == 0 ? hands.0 : hands.1 }

    mutating func remove(_ card: Card, from seat: Int) {
        if seat == 0 { hands.0.remove(card) } else { hands.1.remove(card) }
    }

    mutating func give(_ card: Card, to seat: Int) {
        if seat == 0 { hands.0.insert(card) } else { hands.1.insert(card) }
    }

    /// The seat to play.
    var current: Int { led == nil ? leader : 1 - leader }

    /// The value for seat 0 at the end: its point margin, plus or minus `winBonus` for a won or lost game.
    var finalValue: Double {
        let margin = points.0 - points.1
        if points.0 > 60 { return Double(margin + winBonus) }
        if points.1 > 60 { return Double(margin - winBonus) }
        return Double(margin)
    }

    /// The value for seat 0 of playing `card` now (the seat to play must hold it).
    func value(after card: Card) -> Double {
        var next = self
        return next.play(card, alpha: -Double.infinity, beta: Double.infinity)
    }

    /// The value for seat 0 of this position, seat 0 maximising and seat 1 minimising.
    func search(alpha: Double, beta: Double) -> Double {
        let seat = current
        let cards = hand(seat)
        if cards.isEmpty { return finalValue }
        var alpha = alpha
        var beta = beta
        var best = seat == 0 ? -Double.infinity : Double.infinity
        for card in cards {
            var child = self
            let v = child.play(card, alpha: alpha, beta: beta)
            if seat == 0 {
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

    /// Plays `card` for the seat to play, then searches on; after a trick, draws are averaged over.
    mutating func play(_ card: Card, alpha: Double, beta: Double) -> Double {
        let seat = current
        remove(card, from: seat)
        guard let first = led else {
            led = card
            return search(alpha: alpha, beta: beta)
        }
        let winner = BriscolaState.beats(card, first, trump: trump) ? seat : leader
        let taken = card.points + first.points
        if winner == 0 { points.0 += taken } else { points.1 += taken }
        leader = winner
        led = nil
        guard trumpInPile else { return search(alpha: alpha, beta: beta) }
        return drawAndSearch(winner: winner)
    }

    /// The winner draws first, then the loser; the face-up trump is the last card. A chance node: every order of
    /// the hidden cards is as likely, so the mean over the cards each may draw (the window cannot be kept across it).
    func drawAndSearch(winner: Int) -> Double {
        let loser = 1 - winner
        if pool.count == 1, let last = pool.first(where: { _ in true }) {
            var next = self
            next.give(last, to: winner)
            next.give(trumpCard, to: loser)
            next.pool = CardSet()
            next.trumpInPile = false
            return next.search(alpha: -Double.infinity, beta: Double.infinity)
        }
        var sum = 0.0
        var count = 0.0
        for a in pool {
            for b in pool where b != a {
                var next = self
                next.give(a, to: winner)
                next.give(b, to: loser)
                next.pool.remove(a)
                next.pool.remove(b)
                sum += next.search(alpha: -Double.infinity, beta: Double.infinity)
                count += 1
            }
        }
        return sum / max(1, count)
    }
}
