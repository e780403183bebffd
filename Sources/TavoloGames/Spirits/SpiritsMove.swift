import TavoloCore

/// A Spirits! move. Cards are named by kind (copies are identical).
///
/// - `play(card)`: open an empty pile (rule 3) or play onto it (rule 4).
/// - `flee(open: card)`: the player has cards but none is legal (rule 6): take a ghost, clear the pile and
///   open a new challenge with `card`. Fleeing is an explicit move so logs and transcripts show it.
///
/// Order: every `play` before every `flee`, then by card kind. In any one state the legal moves are either
/// all plays or all flees, so the sorted legal moves follow kind order.
public enum SpiritsMove: GameMove {
    case play(SpiritsCard)
    case flee(open: SpiritsCard)

    /// The card the move puts on the pile.
    @inlinable
    public var card: SpiritsCard {
        switch self {
        case .play(let c), .flee(open: let c): c
        }
    }

    @inlinable
    public var isFlee: Bool {
        if case .flee = self { return true }
        return false
    }

    /// 0…17 for plays, 32…49 for flees: the sort key and the wire byte.
    @inlinable
    public var code: UInt8 { isFlee ? 32 | card.rawValue : card.rawValue }

    /// The move with wire byte `code`; nil if the byte names no move.
    public init?(code: UInt8) {
        guard let card = SpiritsCard(rawValue: code & 31), code & ~(32 | 31) == 0 else { return nil }
        self = code & 32 != 0 ? .flee(open: card) : .play(card)
    }

    public static func < (a: SpiritsMove, b: SpiritsMove) -> Bool { a.code < b.code }

    /// `play R3`, `flee, open B2`.
    public var description: String {
        switch self {
        case .play(let c): "play \(c)"
        case .flee(let c): "flee, open \(c)"
        }
    }

    private enum CodingKeys: String, CodingKey { case play, flee }

    /// JSON: `{"play":"R3"}` or `{"flee":"B2"}` (the card opened after fleeing).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let card = try c.decodeIfPresent(SpiritsCard.self, forKey: .play) {
            self = .play(card)
        } else if let card = try c.decodeIfPresent(SpiritsCard.self, forKey: .flee) {
            self = .flee(open: card)
        } else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a Spirits! move is {\"play\":card} or {\"flee\":card}"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .play(let card): try c.encode(card, forKey: .play)
        case .flee(let card): try c.encode(card, forKey: .flee)
        }
    }
}
