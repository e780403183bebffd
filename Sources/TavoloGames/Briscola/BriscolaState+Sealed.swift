import TavoloCore

/// Briscola as a sealed card game (PROTOCOL.md §14). Every fact here is read from the engine's own dealing and
/// drawing (`init(players:seed:deck:dealer:)`, `pilePosition`, `play`) so that a table's openings follow the cards
/// the engine moves.
extension BriscolaState: SealedCardGame {
    /// The card ids in the game, ascending: 0…39, without the Due di Coppe (1) for three players (§14.3).
    public static func sealedCardNumbers(players: Int) -> [Int] { deck(players: players).map { Int($0.id) } }

    /// The game dealt again from `order` with the same seed and dealer: before the first move nothing else has
    /// happened, so the game rebuilt from the deck is the game with the deal replaced.
    public mutating func replaceSealedDeal(_ order: [Int]) throws(GameSetupError) {
        guard moveNumber == 0 else { throw GameSetupError("a deal is replaced only right after it is dealt") }
        guard order.sorted() == Self.sealedCardNumbers(players: playerCount) else {
            throw GameSetupError("a sealed Briscola deal for \(playerCount) is its card ids, each once")
        }
        let deck = order.map { Card(uncheckedID: UInt8($0)) }
        self = try BriscolaState(players: playerCount, seed: seed, deck: deck, dealer: dealer)
    }

    /// One card at a time from the seat after the dealer: position `i` to seat `(dealer + 1 + i) mod p`; with 2–4
    /// players the next position is the face-up trump, open to everyone; the rest is the pile.
    public func sealedDealtPositions() -> [SealedPlacement] {
        let dealt = Self.dealSize(players: playerCount) * playerCount
        var placements = (0..<dealt).map { SealedPlacement(position: $0, seat: (dealer + 1 + $0) % playerCount) }
        if trumpCard != nil { placements.append(SealedPlacement(position: dealt, seat: nil)) }
        return placements
    }

    /// After a trick the winner (now `leader`) draws first, then the others in turn order, each the pile's next
    /// position; the last is the face-up trump, already open, still reported so a table knows who holds it.
    public func sealedDraws(since before: BriscolaState) -> [SealedPlacement] {
        (before.drawn..<max(before.drawn, drawn)).map { index in
            SealedPlacement(position: pilePosition(index), seat: (leader + index - before.drawn) % playerCount)
        }
    }

    /// A card move shows its card; a bid, a pass or a call shows none.
    public func sealedCardsPlayed(by move: BriscolaMove) -> [Int]? { move.card.map { [Int($0.id)] } }

    /// `apply`: no Briscola rule reads a hand other than the card played (no suit to follow, and chiamata's auction
    /// and call check only the bids and the rank). The call does read the hands, not to refuse anything but to note
    /// the partner (`ChiamataPart.partner`): on a completion that is whoever the completion gives the called card,
    /// public only once the card is played, when the table's next completion puts it where it really was.
    public mutating func applySealed(_ move: BriscolaMove) throws(MoveError) {
        try apply(move)
    }
}
