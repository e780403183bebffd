extension SpiritsObservation {
    /// The pile in the order it was played, oldest first, from the cards of the table's newest moves (oldest
    /// first). The observation lists the pile by card kind (the state keeps counts, not an order: its canonical
    /// encoding and hash stay as they are), but people read a pile in the order it was played and its top last.
    ///
    /// Every move puts exactly one card on the pile (a flee clears it and opens with its card, and a round ends
    /// with it empty), so the pile is the cards of the last `pile.total` moves. When those do not agree with the
    /// pile (too few moves known), the pile by kind with the top card last: the top is always right.
    public func pileInPlayOrder(newestMoves cards: [SpiritsCard]) -> [SpiritsCard] {
        let n = pile.total
        if n > 0, cards.count >= n {
            let last = Array(cards.suffix(n))
            if SpiritsCardCounts(last) == pile, last.last == top { return last }
        }
        var rest = pile
        guard let top, rest.count(of: top) > 0 else { return pile.cards }
        rest.remove(top)
        return rest.cards + [top]
    }
}
