import TavoloCore

/// A bid in the auction of Briscola chiamata (5 players), from lowest to highest: a rank called downwards
/// (Asso, Tre, Re, Cavallo, Fante, 7, 6, 5, 4, Due: the lower the rank the declarer dares to call, the stronger
/// its own hand must be), then the Due with a points target, 62 up to 120.
///
/// `level` orders the bids: 0…9 the ranks in that order, 10…68 the points targets 62…120.
public struct ChiamataBid: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let level: Int

    /// Ranks in bidding order, weakest bid first.
    public static let rankOrder = [1, 3, 10, 9, 8, 7, 6, 5, 4, 2]
    /// The points a rank bid must reach: more than half of the 120.
    public static let rankTarget = 61
    public static let maxLevel = 10 + 120 - 62
    public static let lowest = ChiamataBid(uncheckedLevel: 0)

    init(uncheckedLevel: Int) { level = uncheckedLevel }

    /// A bid from its order number; nil outside 0…68.
    public init?(level: Int) {
        guard (0...Self.maxLevel).contains(level) else { return nil }
        self.level = level
    }

    /// A bid from its wire number: a rank 1…10 (calling that rank), or a points target 62…120 (calling the Due).
    public init?(wire: Int) {
        if let i = Self.rankOrder.firstIndex(of: wire) {
            level = i
        } else if (62...120).contains(wire) {
            level = 10 + wire - 62
        } else {
            return nil
        }
    }

    /// The number that names the bid on the wire: the rank, or the points target.
    public var wire: Int { level < 10 ? Self.rankOrder[level] : target }
    /// The rank of the card the declarer will call.
    public var rank: Int { level < 10 ? Self.rankOrder[level] : 2 }
    /// The card points the declarer's side must take (at least).
    public var target: Int { level < 10 ? Self.rankTarget : 62 + level - 10 }
    public var isPointsBid: Bool { level >= 10 }

    /// `Tre`, or `Due at 75`.
    public var description: String {
        let name = Card.rankNames[rank - 1]
        return isPointsBid ? "\(name) at \(target)" : name
    }

    public static func < (a: ChiamataBid, b: ChiamataBid) -> Bool { a.level < b.level }
}

/// A Briscola move: play a card; in Briscola chiamata also bid, pass, or call the partner's card.
///
/// On the wire (JSON): `{"card":"1C"}` plays a card (the only move with 2, 3 and 4 players);
/// `{"bid":3}` bids a rank or a points target (`ChiamataBid.wire`); `{"pass":true}` leaves the auction;
/// `{"call":"3D"}` names the called card.
public struct BriscolaMove: GameMove {
    public enum Action: Hashable, Sendable {
        case play(Card)
        case bid(ChiamataBid)
        case pass
        case call(Card)
    }

    public let action: Action

    public init(_ card: Card) { action = .play(card) }
    public init(_ action: Action) { self.action = action }

    public static func bid(_ b: ChiamataBid) -> BriscolaMove { BriscolaMove(.bid(b)) }
    public static let pass = BriscolaMove(.pass)
    public static func call(_ c: Card) -> BriscolaMove { BriscolaMove(.call(c)) }

    /// The card played; nil for an auction move.
    public var card: Card? {
        if case .play(let c) = action { return c }
        return nil
    }

    /// Kind first (play, bid, pass, call), then the card number or bid level.
    var sortKey: (Int, Int) {
        switch action {
        case .play(let c): (0, Int(c.id))
        case .bid(let b): (1, b.level)
        case .pass: (2, 0)
        case .call(let c): (3, Int(c.id))
        }
    }

    public static func < (a: BriscolaMove, b: BriscolaMove) -> Bool { a.sortKey < b.sortKey }

    public var description: String {
        switch action {
        case .play(let c): c.code
        case .bid(let b): "bid \(b.wire)"
        case .pass: "pass"
        case .call(let c): "call \(c.code)"
        }
    }

    enum CodingKeys: String, CodingKey { case card, bid, pass, call }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard c.allKeys.count == 1, let key = c.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath, debugDescription: "a move has exactly one of card, bid, pass, call")
            )
        }
        switch key {
        case .card: action = .play(try c.decode(Card.self, forKey: .card))
        case .call: action = .call(try c.decode(Card.self, forKey: .call))
        case .pass:
            guard try c.decode(Bool.self, forKey: .pass) else {
                throw DecodingError.dataCorruptedError(forKey: .pass, in: c, debugDescription: "pass must be true")
            }
            action = .pass
        case .bid:
            let n = try c.decode(Int.self, forKey: .bid)
            guard let b = ChiamataBid(wire: n) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .bid, in: c, debugDescription: "a bid is a rank 1–10 or a points target 62–120, not \(n)")
            }
            action = .bid(b)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch action {
        case .play(let card): try c.encode(card, forKey: .card)
        case .bid(let b): try c.encode(b.wire, forKey: .bid)
        case .pass: try c.encode(true, forKey: .pass)
        case .call(let card): try c.encode(card, forKey: .call)
        }
    }
}
