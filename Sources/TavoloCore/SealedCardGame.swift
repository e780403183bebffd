/// A card game a table can deal from a sealed deck (PROTOCOL.md §14). No node holds the whole deal, so each node
/// runs the engine on a **completion** of what it knows: the cards it has seen where they lie, and the cards it has
/// not seen in the remaining positions in canonical order (`SealedCompletion`). The same engine applies every move;
/// these are the few extra facts a table needs from it: which positions a deal gives to which seat, which positions a
/// move draws, and which cards a move may play.
///
/// An engine keeps its own rules for everything that depends only on what the public saw and the card played. A rule
/// that reads a hand the node cannot see (Spirits!' "no legal card, so I flee") is not checked live by
/// `applySealed`: the audit replays the game with every hand known and checks it then (§14.10 step 5).
public protocol SealedCardGame: GameState {
    /// The deck's card numbers in canonical order (§14.3): position `p` of a deal holds one of them.
    static func sealedCardNumbers(players: Int) -> [Int]
    /// Deals the current deal again from `order` (`order[position]` is a card number), right after the game dealt
    /// it: before any move of the deal. Everything the seed chose that is not a card (a starter, a dealer) stays.
    mutating func replaceSealedDeal(_ order: [Int]) throws(GameSetupError)
    /// The positions the current deal hands out when it is dealt, in position order: each to a seat, or to
    /// everyone (`seat == nil`: Briscola's face-up trump). Positions not listed are the pile.
    func sealedDealtPositions() -> [SealedPlacement]
    /// The positions the move that made `self` from `before` drew, in draw order, each with the seat that drew it.
    /// Empty when the move drew nothing or began a new deal (whose cards `sealedDealtPositions` gives).
    func sealedDraws(since before: Self) -> [SealedPlacement]
    /// The card numbers `move` may show from the hand of the seat to move (Spirits!: the three copies of a kind;
    /// Briscola: one card); nil when the move plays no card (an auction's bid).
    func sealedCardsPlayed(by move: Move) -> [Int]?
    /// Applies `move` with every check that depends only on public facts and the card played (it is in the seat's
    /// hand), but none that reads the rest of a hand: what a node can check of another seat's move.
    mutating func applySealed(_ move: Move) throws(MoveError)
}

/// Where a position of a deal goes: to a seat, or open to everyone (`seat == nil`).
public struct SealedPlacement: Hashable, Sendable {
    public var position: Int
    public var seat: Int?

    public init(position: Int, seat: Int?) {
        self.position = position
        self.seat = seat
    }
}

/// A deal's order as one node can fill it in: `known[position]` for the cards it has seen, and every other position
/// given the cards nobody showed it, in ascending card number by ascending position. Two nodes that know the same
/// cards make the same completion: built from the cards everyone has seen, it is the public completion, the same at
/// every node, whose game is what the state hash covers (§14.9).
public enum SealedCompletion {
    public static func order(cardNumbers: [Int], known: [Int: Int]) -> [Int] {
        let seen = Set(known.values)
        var rest = cardNumbers.filter { !seen.contains($0) }.sorted()[...]
        return cardNumbers.indices.map { p in known[p] ?? rest.popFirst() ?? -1 }
    }
}

/// A game dealt from a sealed deck, its types erased for the tables (`GameEntry.sealedSession`). Moves go through
/// `applySealed`; `currentDeal` is nil (nobody deals a sealed table, §14.7); `stateHash` is this session's own game's,
/// so a table hashes a session built on the public completion, never one holding its own cards.
public protocol SealedGameSession: GameSession {
    /// The deck's card numbers in canonical order (§14.3).
    var sealedCardNumbers: [Int] { get }
    /// The positions the current deal hands out, as `SealedCardGame.sealedDealtPositions`.
    func sealedDealtPositions() -> [SealedPlacement]
    /// The draws of the last move this session applied (`SealedCardGame.sealedDraws`); empty before any.
    var sealedLastDraws: [SealedPlacement] { get }
    /// The card numbers `move` may show (`SealedCardGame.sealedCardsPlayed`), in the current state.
    func sealedCardsPlayed(by move: AnyGameMove) -> [Int]?
    /// The game again from its seed, in place: deal `d` from `deals[d − 1]` (installed when the game reaches it; a
    /// deal not given keeps the seed's order, a placeholder until the members' shuffle is done), then `moves` in order
    /// by `applySealed`, each by the seat to play. The bots' random streams and what they learned are kept: only the
    /// game is rebuilt.
    func sealedRebuild(deals: [[Int]], moves: [AnyGameMove]) throws(MoveError)
    /// §14.10 step 5: the game from its seed with every deal's true order (`deals[d − 1]`, every card opened by the
    /// audit), every move applied by the full rules (`apply`): the first the rules refuse, nil when none.
    func sealedAuditFinding(deals: [[Int]], moves: [AnyGameMove]) -> SealedAuditFinding?
}

/// What the audit's replay with every hand known found (§14.10 step 5): the first move the full rules refuse.
public struct SealedAuditFinding: Sendable, Equatable {
    public var moveNumber: Int
    public var seat: Int
    public var error: MoveError
    /// True when the public rules took the move (`applySealed`) and only a hand nobody could see makes it illegal: a
    /// false claim (Spirits!' `flee` while holding a card that could follow), not a card the seat did not hold.
    public var isFalseClaim: Bool

    public init(moveNumber: Int, seat: Int, error: MoveError, isFalseClaim: Bool) {
        self.moveNumber = moveNumber
        self.seat = seat
        self.error = error
        self.isFalseClaim = isFalseClaim
    }
}
