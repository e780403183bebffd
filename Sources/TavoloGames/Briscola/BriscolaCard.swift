import TavoloCore

/// The four suits of the Italian deck, in card-numbering order (Protocol/games/briscola.md).
public enum Suit: Int, CaseIterable, Codable, Sendable, Comparable {
    case coppe, denari, spade, bastoni

    /// Italian name: Coppe, Denari, Spade, Bastoni.
    public var name: String { ["Coppe", "Denari", "Spade", "Bastoni"][rawValue] }
    /// One-letter code used in short card codes: C, D, S, B.
    public var letter: Character { Array("CDSB")[rawValue] }

    public static func < (a: Suit, b: Suit) -> Bool { a.rawValue < b.rawValue }
}

/// One card of the 40-card Italian deck. Its number `id` = suit × 10 + (rank − 1), 0…39.
///
/// Codable as its short code (`"1C"`, `"10B"`) so moves on the wire are readable and checked on decoding.
public struct Card: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// suit × 10 + (rank − 1).
    public let id: UInt8

    /// Every card in numbering order.
    public static let all: [Card] = (0..<40).map { Card(uncheckedID: UInt8($0)) }

    init(uncheckedID: UInt8) { id = uncheckedID }

    /// A card from its number; nil outside 0…39.
    public init?(id: Int) {
        guard (0..<40).contains(id) else { return nil }
        self.id = UInt8(id)
    }

    /// A card from rank 1…10 (Asso 1, Fante 8, Cavallo 9, Re 10) and suit; nil for a rank out of range.
    public init?(rank: Int, suit: Suit) {
        guard (1...10).contains(rank) else { return nil }
        id = UInt8(suit.rawValue * 10 + rank - 1)
    }

    /// A card from its short code: rank 1…10 then the suit letter (`1C`, `7d`, `10B`); nil if malformed.
    public init?(code: String) {
        guard let letter = code.last?.uppercased().first, let suitIndex = Array("CDSB").firstIndex(of: letter),
            let rank = Int(code.dropLast()), let suit = Suit(rawValue: suitIndex)
        else { return nil }
        self.init(rank: rank, suit: suit)
    }

    public var suit: Suit { Suit(rawValue: Int(id) / 10) ?? .coppe }
    /// 1…10: Asso 1, 2…7, Fante 8, Cavallo 9, Re 10.
    public var rank: Int { Int(id) % 10 + 1 }
    /// Card points: Asso 11, Tre 10, Re 4, Cavallo 3, Fante 2, others 0.
    public var points: Int { Card.pointsByRank[Int(id) % 10] }
    /// Trick-taking strength inside a suit, 0 (the Due) … 9 (the Asso).
    public var strength: Int { Card.strengthByRank[Int(id) % 10] }

    /// Short code: `1C`, `10B`.
    public var code: String { "\(rank)\(suit.letter)" }
    /// Italian name: `Asso di Coppe`, `Fante di Spade`.
    public var name: String { "\(Card.rankNames[rank - 1]) di \(suit.name)" }
    public var description: String { code }

    public static func < (a: Card, b: Card) -> Bool { a.id < b.id }

    /// Orders cards by strength, then suit: what "lowest" and "highest" mean for the bots.
    var strengthKey: Int { strength * 4 + suit.rawValue }

    static let pointsByRank = [11, 0, 10, 0, 0, 0, 0, 2, 3, 4]
    static let strengthByRank = [9, 0, 8, 1, 2, 3, 4, 5, 6, 7]
    static let rankNames = ["Asso", "Due", "Tre", "Quattro", "Cinque", "Sei", "Sette", "Fante", "Cavallo", "Re"]

    public init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let c = Card(code: s) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a card code: \(s)"))
        }
        self = c
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(code)
    }
}

/// A set of cards as a 40-bit mask (bit `id`); iterates in ascending card number.
public struct CardSet: Hashable, Sendable, Codable, Sequence {
    public var bits: UInt64

    public init(bits: UInt64 = 0) { self.bits = bits }
    public init(_ cards: some Sequence<Card>) {
        bits = 0
        for c in cards { insert(c) }
    }

    public static let full = CardSet(bits: (1 << 40) - 1)
    public static func suit(_ s: Suit) -> CardSet { CardSet(bits: ((1 << 10) - 1) << UInt64(s.rawValue * 10)) }
    /// Cards worth points (Fante, Cavallo, Re, Tre, Asso).
    public static let counting = CardSet(Card.all.filter { $0.points > 0 })

    public var count: Int { bits.nonzeroBitCount }
    public var isEmpty: Bool { bits == 0 }
    public func contains(_ c: Card) -> Bool { bits & (1 << UInt64(c.id)) != 0 }
    public mutating func insert(_ c: Card) { bits |= 1 << UInt64(c.id) }
    public mutating func remove(_ c: Card) { bits &= ~(1 << UInt64(c.id)) }
    public var points: Int { reduce(0) { $0 + $1.points } }

    public static func & (a: CardSet, b: CardSet) -> CardSet { CardSet(bits: a.bits & b.bits) }
    public static func | (a: CardSet, b: CardSet) -> CardSet { CardSet(bits: a.bits | b.bits) }
    public static prefix func ~ (a: CardSet) -> CardSet { CardSet(bits: ~a.bits & CardSet.full.bits) }

    /// The card that orders lowest by strength then suit (the bots' "lowest"); nil when empty.
    var lowest: Card? {
        var best: Card?
        for c in self where best.map({ c.strengthKey < $0.strengthKey }) ?? true { best = c }
        return best
    }

    /// The card that orders highest by strength then suit; nil when empty.
    var highest: Card? {
        var best: Card?
        for c in self where best.map({ c.strengthKey > $0.strengthKey }) ?? true { best = c }
        return best
    }

    public struct Iterator: IteratorProtocol {
        var rest: UInt64
        public mutating func next() -> Card? {
            guard rest != 0 else { return nil }
            let i = rest.trailingZeroBitCount
            rest &= rest - 1
            return Card(uncheckedID: UInt8(i))
        }
    }

    public func makeIterator() -> Iterator { Iterator(rest: bits) }

    /// JSON: the cards' short codes in card-number order, `["1C","10B"]` (readable, and no 64-bit number).
    public init(from decoder: Decoder) throws {
        var c = try decoder.unkeyedContainer()
        self.init()
        while !c.isAtEnd {
            let card = try c.decode(Card.self)
            guard !contains(card) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "\(card) twice")
            }
            insert(card)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(contentsOf: Array(self))
    }
}
