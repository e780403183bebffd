import TavoloCore

/// Spirits! as a sealed card game (PROTOCOL.md §14). Every fact here is read from the engine's own dealing and
/// drawing (`startRound`, `drawAndPass`, `replaceDeal`) so that a table's openings follow the cards the engine moves.
extension SpiritsState: SealedCardGame {
    /// 0…53: number `i` is kind `i / 3` (§14.3), so the three copies of a kind are three numbers.
    public static func sealedCardNumbers(players: Int) -> [Int] { Array(0..<SpiritsCard.deckSize) }

    /// Each round is a deal: replaced only while fresh, the round's starter and the game's random stream kept.
    public mutating func replaceSealedDeal(_ order: [Int]) throws(GameSetupError) {
        try replaceDeal(cardNumbers: order)
    }

    /// Position `i < 5p` goes to seat `i mod p`, as `startRound` deals; the rest is the pile. Nothing is open.
    public func sealedDealtPositions() -> [SealedPlacement] {
        (0..<(Self.handSize * playerCount)).map { SealedPlacement(position: $0, seat: $0 % playerCount) }
    }

    /// The seat that moved draws the pile's next position (`drawIndex`). A move that ends the round draws nothing
    /// that counts: the cards left are discarded and the next round is a new deal, with its own openings.
    public func sealedDraws(since before: SpiritsState) -> [SealedPlacement] {
        guard round == before.round, phase != .over else { return [] }
        return (before.drawIndex..<drawIndex).map { SealedPlacement(position: $0, seat: before.turnSeat) }
    }

    /// A play or a flee shows one copy of its kind `k`: any of the numbers `3k`, `3k + 1`, `3k + 2`.
    public func sealedCardsPlayed(by move: SpiritsMove) -> [Int]? {
        let first = Int(move.card.rawValue) * SpiritsCard.copies
        return Array(first..<(first + SpiritsCard.copies))
    }

    /// `apply`, but a flee is taken on trust: "no card of my hand is legal" reads the whole hand, which nobody else
    /// sees at a sealed table; the audit replays the game with every hand known and names a false flee (§14.10
    /// step 5). That the card opened is in the hand is still checked: it is the card shown.
    public mutating func applySealed(_ move: SpiritsMove) throws(MoveError) {
        try apply(move, trustingFlee: true)
    }
}
