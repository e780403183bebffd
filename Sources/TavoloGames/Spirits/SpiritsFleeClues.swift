import TavoloCore

/// What every seat can tell about another seat's hand from that seat's last flee this round (rule 6).
///
/// A seat flees only when no card of its hand is legal: none of the top card's colour and none of a value the Fear
/// total could take. So at that moment its whole hand lay in `allowed(seat)`. It then opens with one of those cards and
/// draws; every card it draws afterwards may be anything, so at most `newAtMost` of its cards came after the flee and
/// at least `heldAtLeast` are still of the allowed kinds. A card it plays outside them must have been a new one. All
/// of it follows from what everyone sees (the pile, the Fear total, the cards played, who drew), so it is part of
/// every seat's observation, and a searching bot deals the cards it cannot see consistently with it
/// (`SpiritsState(sampling:rng:)`). Inline storage: states are copied in every play-out.
public struct SpiritsFleeClues: Hashable, Sendable {
    @usableFromInline var m0: UInt64 = 0, m1: UInt64 = 0, m2: UInt64 = 0
    @usableFromInline var m3: UInt64 = 0, m4: UInt64 = 0, m5: UInt64 = 0
    /// Per seat: how many cards in its hand may have been drawn since its last flee.
    @usableFromInline var newAtMost = SpiritsSeatBytes()

    @inlinable @inline(__always) public init() {}

    /// The kinds `seat`'s hand held when it last fled this round; empty if it has not fled.
    @inlinable @inline(__always)
    public func allowed(_ seat: Int) -> SpiritsKindMask {
        switch seat {
        case 0: SpiritsKindMask(bits: m0)
        case 1: SpiritsKindMask(bits: m1)
        case 2: SpiritsKindMask(bits: m2)
        case 3: SpiritsKindMask(bits: m3)
        case 4: SpiritsKindMask(bits: m4)
        default: SpiritsKindMask(bits: m5)
        }
    }

    @inlinable @inline(__always)
    mutating func setAllowed(_ seat: Int, _ bits: UInt64) {
        switch seat {
        case 0: m0 = bits
        case 1: m1 = bits
        case 2: m2 = bits
        case 3: m3 = bits
        case 4: m4 = bits
        default: m5 = bits
        }
    }

    /// How many of the `handSize` cards `seat` holds are surely of `allowed(seat)`'s kinds.
    @inlinable @inline(__always)
    public func heldAtLeast(_ seat: Int, handSize: Int) -> Int {
        allowed(seat).isEmpty ? 0 : max(0, handSize - newAtMost[seat])
    }

    /// `seat` flees a challenge whose top card is `top` at Fear total `fear`: its hand holds no card of that colour
    /// and none of a value up to `7 - fear`.
    @inlinable @inline(__always)
    mutating func fled(_ seat: Int, top: SpiritsCard, fear: Int) {
        let legal = SpiritsKindMask.colour(top.colourIndex) | SpiritsKindMask.valuesUpTo(SpiritsState.maxFear - fear)
        setAllowed(seat, SpiritsCardCounts.fullDeck.kinds.bits & ~legal.bits)
        newAtMost[seat] = 0
    }

    /// `seat` plays `card` (opening or following): one outside its allowed kinds was drawn after the flee.
    @inlinable @inline(__always)
    mutating func played(_ seat: Int, _ card: SpiritsCard) {
        let mask = allowed(seat)
        if !mask.isEmpty && !mask.contains(card) && newAtMost[seat] > 0 { newAtMost[seat] -= 1 }
    }

    /// `seat` draws a card, which may be of any kind.
    @inlinable @inline(__always)
    mutating func drew(_ seat: Int) {
        if newAtMost[seat] < SpiritsState.handSize + 1 { newAtMost.increment(seat) }
    }
}
