import TavoloCore

/// Each seat's last play this round and the table it was played onto: public facts, kept so that a searching bot can
/// ask of a world it samples whether the cards it deals a seat would have led that seat to play as it did
/// (`SpiritsState.lastPlaysLikelihood`). A flee's opening counts as an opening. Inline storage, 16 bits a seat:
/// states are copied in every play-out.
public struct SpiritsLastPlays: Hashable, Sendable {
    @usableFromInline var bits: (UInt64, UInt64) = (0, 0)

    @inlinable @inline(__always) public init() {}

    public static func == (a: Self, b: Self) -> Bool { a.bits == b.bits }
    public func hash(into h: inout Hasher) {
        h.combine(bits.0)
        h.combine(bits.1)
    }

    /// One seat's record: the card played, the top card and Fear total it was played onto (none: it opened), the
    /// direction before it, and whether the seat drew afterwards.
    public struct Play: Equatable, Sendable {
        public var card: SpiritsCard
        public var top: SpiritsCard?
        public var fear: Int
        public var clockwise: Bool
        public var drew: Bool
    }

    @inlinable @inline(__always)
    func raw(_ seat: Int) -> UInt64 {
        let word = seat < 4 ? bits.0 : bits.1
        return word &>> (16 &* UInt64(seat & 3)) & 0xFFFF
    }

    @inlinable @inline(__always)
    mutating func setRaw(_ seat: Int, _ value: UInt64) {
        let shift = 16 &* UInt64(seat & 3)
        if seat < 4 {
            bits.0 = bits.0 & ~(0xFFFF &<< shift) | value &<< shift
        } else {
            bits.1 = bits.1 & ~(0xFFFF &<< shift) | value &<< shift
        }
    }

    /// `seat`'s last play this round; nil if it has not played.
    public func last(_ seat: Int) -> Play? {
        let r = raw(seat)
        guard r & 0x8000 != 0 else { return nil }
        let top = Int(r &>> 5 & 0x1F)
        return Play(
            card: SpiritsCard(unchecked: UInt8(r & 0x1F)),
            top: top == 0 ? nil : SpiritsCard(unchecked: UInt8(top - 1)),
            fear: Int(r &>> 10 & 7), clockwise: r & 0x2000 != 0, drew: r & 0x4000 != 0)
    }

    /// Records `seat` playing `card` onto `top` (nil: an opening) at Fear total `fear`, going `clockwise`.
    @inlinable @inline(__always)
    mutating func played(_ seat: Int, _ card: SpiritsCard, onto top: SpiritsCard?, fear: Int, clockwise: Bool) {
        var r = UInt64(card.rawValue) | 0x8000
        if let top { r |= (UInt64(top.rawValue) &+ 1) &<< 5 }
        r |= UInt64(fear & 7) &<< 10
        if clockwise { r |= 0x2000 }
        setRaw(seat, r)
    }

    /// `seat` drew after its last play.
    @inlinable @inline(__always)
    mutating func drew(_ seat: Int) { setRaw(seat, raw(seat) | 0x4000) }
}
