// Spirits! cards and the packed sets that hold them.
//
// There are 18 kinds of card (6 colours × values 1, 2, 3), three identical copies of each. A card is its kind
// index `colour * 3 + (value - 1)` in a UInt8. Every place that holds cards (a hand, the discard pile, the
// removed cards) holds at most three of a kind, so a set of cards is 18 two-bit counts in one UInt64
// (kind k at bits 2k…2k+1) with the total in bits 40…47. Adding or removing a card is one integer addition,
// and "which kinds may be played" is a handful of AND/OR operations on the same bit layout.

/// One of the six colours of Spirits! cards, in canonical order.
public enum SpiritsColour: UInt8, CaseIterable, Sendable, Codable, Comparable {
    case red, orange, yellow, green, blue, purple

    /// The one-letter name used in card names (`R3`).
    public var letter: Character {
        switch self {
        case .red: "R"
        case .orange: "O"
        case .yellow: "Y"
        case .green: "G"
        case .blue: "B"
        case .purple: "P"
        }
    }

    public var name: String { String(describing: self) }

    public static func < (a: SpiritsColour, b: SpiritsColour) -> Bool { a.rawValue < b.rawValue }
}

/// A ghost card: a colour and a value 1…3, stored as its kind index 0…17 (`colour * 3 + value - 1`).
public struct SpiritsCard: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The kind index, 0…17.
    public let rawValue: UInt8

    /// Number of kinds of card.
    public static let kinds = 18
    /// Copies of each kind in the deck.
    public static let copies = 3
    /// Cards in the deck.
    public static let deckSize = kinds * copies

    /// A card from its kind index; nil outside 0…17.
    @inlinable @inline(__always)
    public init?(rawValue: UInt8) {
        guard rawValue < 18 else { return nil }
        self.rawValue = rawValue
    }

    @usableFromInline
    init(unchecked raw: UInt8) { rawValue = raw }

    /// A card from a colour and a value 1…3.
    public init(_ colour: SpiritsColour, _ value: Int) {
        precondition((1...3).contains(value), "Spirits! card values are 1…3")
        rawValue = colour.rawValue * 3 + UInt8(value - 1)
    }

    /// Parses `R3`, `b1`, …; nil for anything else.
    public init?(_ text: String) {
        let chars = Array(text.uppercased())
        guard chars.count == 2, let v = chars[1].wholeNumberValue, (1...3).contains(v),
            let colour = SpiritsColour.allCases.first(where: { $0.letter == chars[0] })
        else { return nil }
        self.init(colour, v)
    }

    @inlinable @inline(__always) public var colourIndex: Int { Int(rawValue / 3) }
    public var colour: SpiritsColour { SpiritsColour(rawValue: rawValue / 3) ?? .red }
    /// The card's Fear value, 1…3.
    @inlinable @inline(__always) public var value: Int { Int(rawValue % 3) &+ 1 }

    /// `R3`, `B1`, …
    public var description: String { "\(colour.letter)\(value)" }
    /// `red 3`, `blue 1`, …
    public var longName: String { "\(colour.name) \(value)" }

    public static func < (a: SpiritsCard, b: SpiritsCard) -> Bool { a.rawValue < b.rawValue }

    public init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let c = SpiritsCard(s) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a Spirits! card: \(s)"))
        }
        self = c
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    /// All 54 cards in canonical order (kind 0 three times, kind 1 three times, …): the deck before shuffling.
    public static var orderedDeck: [SpiritsCard] {
        (0..<deckSize).map { SpiritsCard(unchecked: UInt8($0 / copies)) }
    }
}

/// A set of kinds in the spread bit layout of `SpiritsCardCounts` (kind k at bit 2k). Iterates in kind order
/// without allocating.
public struct SpiritsKindMask: Hashable, Sendable, Sequence, IteratorProtocol {
    public var bits: UInt64

    @inlinable @inline(__always) public init(bits: UInt64) { self.bits = bits }

    @inlinable @inline(__always) public var isEmpty: Bool { bits == 0 }
    /// Number of kinds in the set.
    @inlinable @inline(__always) public var count: Int { bits.nonzeroBitCount }
    @inlinable @inline(__always) public func contains(_ card: SpiritsCard) -> Bool {
        bits &>> (2 &* UInt64(card.rawValue)) & 1 != 0
    }

    /// Removes and returns the lowest kind.
    @inlinable @inline(__always)
    public mutating func next() -> SpiritsCard? {
        guard bits != 0 else { return nil }
        let k = bits.trailingZeroBitCount >> 1
        bits &= bits &- 1
        return SpiritsCard(unchecked: UInt8(k))
    }

    /// The `n`th kind (from 0) in kind order; `n` must be below `count`.
    @inlinable @inline(__always)
    public func element(at n: Int) -> SpiritsCard {
        var b = bits
        for _ in 0..<n { b &= b &- 1 }
        return SpiritsCard(unchecked: UInt8(b.trailingZeroBitCount >> 1))
    }

    /// Kind k at bit 2k for every kind of one colour.
    @inlinable @inline(__always)
    public static func colour(_ colourIndex: Int) -> SpiritsKindMask {
        SpiritsKindMask(bits: 0x15 &<< (6 &* UInt64(colourIndex)))
    }

    /// Every kind whose value is at most `maxValue` (0…3; a value above 3 means every kind).
    @inlinable @inline(__always)
    public static func valuesUpTo(_ maxValue: Int) -> SpiritsKindMask {
        let m = UInt64(Swift.min(Swift.max(maxValue, 0), 3))
        return SpiritsKindMask(bits: 0x4104_1041 &* (0x15 & ((1 &<< (2 &* m)) &- 1)))
    }

    @inlinable @inline(__always) public static func | (a: SpiritsKindMask, b: SpiritsKindMask) -> SpiritsKindMask {
        .init(bits: a.bits | b.bits)
    }
    @inlinable @inline(__always) public static func & (a: SpiritsKindMask, b: SpiritsKindMask) -> SpiritsKindMask {
        .init(bits: a.bits & b.bits)
    }
}

/// A multiset of cards (at most 3 of each kind): 18 two-bit counts and a total in one UInt64.
public struct SpiritsCardCounts: Hashable, Sendable {
    /// Kind k's count at bits 2k…2k+1, the total at bits 40…47.
    public var bits: UInt64

    @usableFromInline static let countBits: UInt64 = 0xF_FFFF_FFFF
    @usableFromInline static let lowBits: UInt64 = 0x5_5555_5555
    @usableFromInline static let totalOne: UInt64 = 1 << 40

    @inlinable @inline(__always) public init() { bits = 0 }
    @inlinable @inline(__always) public init(bits: UInt64) { self.bits = bits }

    /// Every card of the deck: three of each kind.
    public static let fullDeck = SpiritsCardCounts(bits: countBits | UInt64(SpiritsCard.deckSize) << 40)

    public init(_ cards: some Sequence<SpiritsCard>) {
        self.init()
        for c in cards { insert(c) }
    }

    /// Number of cards.
    @inlinable @inline(__always) public var total: Int { Int(truncatingIfNeeded: bits &>> 40) }
    @inlinable @inline(__always) public var isEmpty: Bool { bits == 0 }

    @inlinable @inline(__always)
    public func count(of card: SpiritsCard) -> Int {
        Int(truncatingIfNeeded: bits &>> (2 &* UInt64(card.rawValue)) & 3)
    }

    /// Adds a copy; the caller guarantees fewer than 3 are present.
    @inlinable @inline(__always)
    public mutating func insert(_ card: SpiritsCard) {
        assert(count(of: card) < 3, "more than three \(card)")
        bits &+= (1 &<< (2 &* UInt64(card.rawValue))) | Self.totalOne
    }

    /// Removes a copy; the caller guarantees one is present.
    @inlinable @inline(__always)
    public mutating func remove(_ card: SpiritsCard) {
        assert(count(of: card) > 0, "no \(card) to remove")
        bits &-= (1 &<< (2 &* UInt64(card.rawValue))) | Self.totalOne
    }

    /// Adds every card of `other`; the caller guarantees no kind exceeds 3.
    @inlinable @inline(__always)
    public mutating func formUnion(_ other: SpiritsCardCounts) { bits &+= other.bits }

    /// This multiset less `other`; the caller guarantees `other` is contained in it.
    @inlinable @inline(__always)
    public func subtracting(_ other: SpiritsCardCounts) -> SpiritsCardCounts { .init(bits: bits &- other.bits) }

    /// The kinds present at least once.
    @inlinable @inline(__always)
    public var kinds: SpiritsKindMask {
        let c = bits & Self.countBits
        return SpiritsKindMask(bits: (c | c &>> 1) & Self.lowBits)
    }

    /// Number of cards whose kind is in `mask`.
    @inlinable @inline(__always)
    public func count(in mask: SpiritsKindMask) -> Int {
        let m = mask.bits
        return (bits & m).nonzeroBitCount &+ 2 &* (bits &>> 1 & m).nonzeroBitCount
    }

    /// The cards in kind order, copies repeated.
    public var cards: [SpiritsCard] {
        var out: [SpiritsCard] = []
        out.reserveCapacity(total)
        for k in 0..<SpiritsCard.kinds {
            let card = SpiritsCard(unchecked: UInt8(k))
            for _ in 0..<count(of: card) { out.append(card) }
        }
        return out
    }

    /// `R1 R1 B3`, or `-` when empty.
    public var listing: String { isEmpty ? "-" : cards.map(\.description).joined(separator: " ") }
}

/// Six small per-seat counters (ghosts, hand sizes) packed in one UInt64, a byte per seat.
public struct SpiritsSeatBytes: Hashable, Sendable {
    public var bits: UInt64 = 0

    @inlinable @inline(__always) public init() {}

    @inlinable @inline(__always)
    public subscript(seat: Int) -> Int {
        get { Int(truncatingIfNeeded: bits &>> (8 &* UInt64(seat)) & 0xFF) }
        set {
            let shift = 8 &* UInt64(seat)
            bits = bits & ~(0xFF &<< shift) | (UInt64(truncatingIfNeeded: newValue) & 0xFF) &<< shift
        }
    }

    @inlinable @inline(__always)
    public mutating func increment(_ seat: Int) { bits &+= 1 &<< (8 &* UInt64(seat)) }

    /// The first `count` values.
    public func prefix(_ count: Int) -> [Int] { (0..<count).map { self[$0] } }

    public init(_ values: [Int]) {
        precondition(values.count <= 6)
        for (i, v) in values.enumerated() { self[i] = v }
    }
}

/// The six hands, stored inline (no heap allocation).
public struct SpiritsHands: Hashable, Sendable {
    @usableFromInline var h0 = SpiritsCardCounts(), h1 = SpiritsCardCounts(), h2 = SpiritsCardCounts()
    @usableFromInline var h3 = SpiritsCardCounts(), h4 = SpiritsCardCounts(), h5 = SpiritsCardCounts()

    @inlinable @inline(__always) public init() {}

    @inlinable @inline(__always)
    public subscript(seat: Int) -> SpiritsCardCounts {
        get {
            switch seat {
            case 0: h0
            case 1: h1
            case 2: h2
            case 3: h3
            case 4: h4
            default: h5
            }
        }
        set {
            switch seat {
            case 0: h0 = newValue
            case 1: h1 = newValue
            case 2: h2 = newValue
            case 3: h3 = newValue
            case 4: h4 = newValue
            default: h5 = newValue
            }
        }
    }
}
