import TavoloCore

/// Spirits! dealt from a sealed deck (PROTOCOL.md §14): the order of each round's cards comes from the members'
/// shuffles instead of the joint seed, and once the audit has opened every card the game is replayed with every hand
/// known (§14.10 step 5), so a `flee` while holding a legal card is found. The same rules apply the moves: this is
/// the engine with another deal, not a second set of rules.
extension SpiritsState {
    /// True right after a round's deal: nothing played, drawn or removed since.
    public var isFreshDeal: Bool {
        phase == .open && pile.isEmpty && top == nil && removed.isEmpty
            && drawIndex == Self.handSize * playerCount
            && (0..<playerCount).allSatisfy { hands[$0].total == Self.handSize }
    }

    /// Deals the current round again from `cardNumbers`, a sealed deal's opened order: card number `i` (0…53) is
    /// kind `i / 3` (`games/spirits.md`, "Cards"), position `i < 5p` goes to seat `i mod p`, the rest is the pile.
    public mutating func replaceDeal(cardNumbers: [Int]) throws(GameSetupError) {
        guard isFreshDeal else { throw GameSetupError("a deal is replaced only right after it is dealt") }
        guard cardNumbers.count == SpiritsCard.deckSize, Set(cardNumbers) == Set(0..<SpiritsCard.deckSize) else {
            throw GameSetupError("a Spirits! deal is the card numbers 0…53, each once")
        }
        dealtDeck = cardNumbers.map { SpiritsCard(unchecked: UInt8($0 / SpiritsCard.copies)) }
        hands = SpiritsHands()
        for i in 0..<(Self.handSize * playerCount) { hands[i % playerCount].insert(dealtDeck[i]) }
    }

    /// A move the audit found illegal once every hand is known: which move, whose seat, and why.
    public struct AuditFinding: Equatable, Sendable {
        public let moveNumber: Int
        public let seat: Int
        public let error: MoveError
    }

    /// §14.10 step 5: the game from `seed` with round `r`'s cards from `deals[r − 1]`, every move applied by the
    /// rules. Nil when every move was legal; else the first that was not (Spirits!: a false `flee`, since a card not
    /// held is caught when it is played, §14.8). The same replay as a sealed session's rebuild (`SealedReplay`), with
    /// `apply` where the session has `applySealed`: the audit knows every hand.
    public static func auditReplay(
        players: Int, seed: UInt64, deals: [[Int]], moves: [SpiritsMove]
    ) throws(GameSetupError) -> AuditFinding? {
        let replay = try SealedReplay<SpiritsState>(
            players: players, seed: seed, deals: deals, moves: moves, requireEveryDeal: true
        ) { (state, move) throws(MoveError) in try state.apply(move) }
        return replay.refused.map { AuditFinding(moveNumber: $0.index, seat: replay.state.turnSeat, error: $0.error) }
    }
}
