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

extension SpiritsObservation {
    fileprivate enum CodingKeys: String, CodingKey {
        case seat, players, round, phase, turn, clockwise, fear, top, hand, handSizes, ghosts, roundGhosts,
            drawPileSize, pile, removed
    }

    /// JSON for people and clients: `phase` by name (`open`, `follow`, `over`), per-seat lists one entry per
    /// seat (not six), cards as `R3`-style codes.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(seat, forKey: .seat)
        try c.encode(players, forKey: .players)
        try c.encode(round, forKey: .round)
        try c.encode(Self.phaseNames[Int(phase.rawValue)], forKey: .phase)
        try c.encodeIfPresent(turn, forKey: .turn)
        try c.encode(clockwise, forKey: .clockwise)
        try c.encode(fear, forKey: .fear)
        try c.encodeIfPresent(top, forKey: .top)
        try c.encode(hand, forKey: .hand)
        try c.encode(handSizes.prefix(players), forKey: .handSizes)
        try c.encode(ghosts.prefix(players), forKey: .ghosts)
        try c.encode(roundGhosts.prefix(players), forKey: .roundGhosts)
        try c.encode(drawPileSize, forKey: .drawPileSize)
        try c.encode(pile, forKey: .pile)
        try c.encode(removed, forKey: .removed)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        seat = try c.decode(Int.self, forKey: .seat)
        players = try c.decode(Int.self, forKey: .players)
        guard SpiritsState.playerCounts.contains(players) else {
            throw DecodingError.dataCorruptedError(forKey: .players, in: c, debugDescription: "\(players) players")
        }
        round = try c.decode(Int.self, forKey: .round)
        let name = try c.decode(String.self, forKey: .phase)
        guard let p = Self.phaseNames.firstIndex(of: name), let ph = SpiritsState.Phase(rawValue: UInt8(p)) else {
            throw DecodingError.dataCorruptedError(forKey: .phase, in: c, debugDescription: "phase \(name)")
        }
        phase = ph
        turn = try c.decodeIfPresent(Int.self, forKey: .turn)
        clockwise = try c.decode(Bool.self, forKey: .clockwise)
        fear = try c.decode(Int.self, forKey: .fear)
        top = try c.decodeIfPresent(SpiritsCard.self, forKey: .top)
        hand = try c.decode(SpiritsCardCounts.self, forKey: .hand)
        func seats(_ key: CodingKeys) throws -> SpiritsSeatBytes {
            let v = try c.decode([Int].self, forKey: key)
            guard v.count <= 6, v.allSatisfy({ (0...255).contains($0) }) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "bad per-seat list")
            }
            return SpiritsSeatBytes(v)
        }
        handSizes = try seats(.handSizes)
        ghosts = try seats(.ghosts)
        roundGhosts = try seats(.roundGhosts)
        drawPileSize = try c.decode(Int.self, forKey: .drawPileSize)
        pile = try c.decode(SpiritsCardCounts.self, forKey: .pile)
        removed = try c.decode(SpiritsCardCounts.self, forKey: .removed)
    }

    static let phaseNames = ["open", "follow", "over"]
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
