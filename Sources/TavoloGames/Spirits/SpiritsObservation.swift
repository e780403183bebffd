/// What one seat sees in Spirits!: its own hand and everything face up. Plain inline data, so building one
/// does not allocate and bots can work from it in the hot loop.
public struct SpiritsObservation: Codable, Sendable, Hashable {
    /// The seat this observation is for.
    public var seat: Int
    public var players: Int
    public var round: Int
    public var phase: SpiritsState.Phase
    /// The seat to play; nil once the game is over.
    public var turn: Int?
    public var clockwise: Bool
    public var fear: Int
    public var top: SpiritsCard?
    /// This seat's own hand.
    public var hand: SpiritsCardCounts
    public var handSizes: SpiritsSeatBytes
    public var ghosts: SpiritsSeatBytes
    public var roundGhosts: SpiritsSeatBytes
    public var drawPileSize: Int
    /// The cards of the current challenge (face up).
    public var pile: SpiritsCardCounts
    /// Cards of earlier challenges this round (face up when played).
    public var removed: SpiritsCardCounts

    /// The kinds this seat could play now if it is its turn (empty: it must flee, or it is not its turn).
    @inline(__always)
    public var playableKinds: SpiritsKindMask {
        guard turn == seat else { return SpiritsKindMask(bits: 0) }
        return SpiritsState.playableKinds(hand: hand, phase: phase, top: top, fear: fear)
    }

    /// Cards this seat cannot see: other hands and the draw pile.
    @inline(__always)
    public var unseen: SpiritsCardCounts {
        var known = hand
        known.formUnion(pile)
        known.formUnion(removed)
        return SpiritsCardCounts.fullDeck.subtracting(known)
    }

    /// The seat after `seat` going `clockwise` or not.
    @inlinable @inline(__always)
    public func seat(after s: Int, clockwise cw: Bool) -> Int {
        if cw { return s + 1 == players ? 0 : s + 1 }
        return s == 0 ? players - 1 : s - 1
    }
}

extension SpiritsCardCounts: Codable {
    /// JSON: the cards as a sorted list, e.g. `["R1","R1","B3"]`.
    public init(from decoder: Decoder) throws {
        var c = try decoder.unkeyedContainer()
        self.init()
        while !c.isAtEnd {
            let card = try c.decode(SpiritsCard.self)
            guard count(of: card) < SpiritsCard.copies else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "more than three \(card)")
            }
            insert(card)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(contentsOf: cards)
    }
}

extension SpiritsSeatBytes: Codable {
    /// JSON: six numbers 0…255, one per seat (unused seats 0).
    public init(from decoder: Decoder) throws {
        var c = try decoder.unkeyedContainer()
        self.init()
        for s in 0..<6 {
            let v = try c.decode(Int.self)
            guard (0...255).contains(v) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "seat value \(v) out of 0…255")
            }
            self[s] = v
        }
        guard c.isAtEnd else { throw DecodingError.dataCorruptedError(in: c, debugDescription: "more than six seats") }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(contentsOf: prefix(6))
    }
}
