/// One deal of a sealed table as one member holds it (PROTOCOL.md §14.8): the members' shuffles and shares
/// (`SealedDeal`), which seat holds each position now, and the cards this node knows — those everyone saw and those
/// only its seats saw.
public struct SealedDealView: Sendable {
    public internal(set) var deal: SealedDeal
    /// The seat holding each position now: dealt or drawn to it, not yet played.
    public internal(set) var holders: [Int: Int] = [:]
    /// Positions the deal opens to everyone (Briscola's face-up trump): every member sends its share for them.
    public internal(set) var openPositions: Set<Int> = []
    /// Cards everyone has seen: opened to everyone at the deal, or played.
    public internal(set) var publicCards: [Int: Int] = [:]
    /// Cards only this node's seats have seen (dealt or drawn to them), besides the public ones.
    public internal(set) var privateCards: [Int: Int] = [:]

    init(deal: SealedDeal) { self.deal = deal }

    /// Every card this node knows at its position: what its game is built on.
    public var knownCards: [Int: Int] { publicCards.merging(privateCards) { p, _ in p } }

    /// The positions seat `seat` holds now, ascending.
    public func positions(of seat: Int) -> [Int] { holders.filter { $0.value == seat }.map(\.key).sorted() }
}

/// Messages of one deal that came before their turn here (`SealedTable.early`): a member's shuffle before the one of
/// the member before it, shares before the deck is final, either before this node reached the deal (the move that
/// ended the last one can come after them, on another connection).
struct SealedEarlyMessages: Sendable {
    var shuffles: [Int: (input: [UInt8], deck: [UInt8])] = [:]
    var shares: [(member: Int, shares: [SealedMessage.PositionShare])] = []
}
