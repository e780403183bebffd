import TavoloCore

// The canonical byte encoding (Protocol/games/spirits.md) and the JSON form of a Spirits! state.

extension SpiritsState {
    /// Protocol/games/spirits.md: 135 + 20 × players bytes, fixed layout, big-endian integers.
    public func writeCanonical(into w: inout CanonicalWriter) {
        w.u8(UInt8(playerCount))
        w.u8(UInt8(round))
        w.u8(phase.rawValue)
        w.u8(phase == .over ? 0xFF : UInt8(turnSeat))
        w.u8(UInt8(roundStarter))
        w.bool(clockwise)
        w.u8(UInt8(fear))
        w.u8(top?.rawValue ?? 0xFF)
        w.u32(UInt32(truncatingIfNeeded: moveNumber))
        w.u64(rng.s0)
        w.u64(rng.s1)
        w.u64(rng.s2)
        w.u64(rng.s3)
        for card in dealtDeck { w.u8(card.rawValue) }
        w.u8(UInt8(drawIndex))
        for s in 0..<playerCount {
            Self.writeCounts(hands[s], into: &w)
            w.u8(UInt8(ghosts[s]))
            w.u8(UInt8(roundGhosts[s]))
        }
        Self.writeCounts(pile, into: &w)
        Self.writeCounts(removed, into: &w)
    }

    private static func writeCounts(_ counts: SpiritsCardCounts, into w: inout CanonicalWriter) {
        for k in 0..<SpiritsCard.kinds { w.u8(UInt8(counts.count(of: SpiritsCard(unchecked: UInt8(k))))) }
    }

    private enum CodingKeys: String, CodingKey {
        case players, round, phase, turn, roundStarter, clockwise, fear, top, moveNumber, rng, dealtDeck, drawIndex
        case hands, ghosts, roundGhosts, pile, removed
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(playerCount, forKey: .players)
        try c.encode(round, forKey: .round)
        try c.encode(phase, forKey: .phase)
        try c.encode(turnSeat, forKey: .turn)
        try c.encode(roundStarter, forKey: .roundStarter)
        try c.encode(clockwise, forKey: .clockwise)
        try c.encode(fear, forKey: .fear)
        try c.encodeIfPresent(top, forKey: .top)
        try c.encode(moveNumber, forKey: .moveNumber)
        try c.encode(rng, forKey: .rng)
        try c.encode(dealtDeck, forKey: .dealtDeck)
        try c.encode(drawIndex, forKey: .drawIndex)
        try c.encode((0..<playerCount).map { hands[$0] }, forKey: .hands)
        try c.encode(ghosts.prefix(playerCount), forKey: .ghosts)
        try c.encode(roundGhosts.prefix(playerCount), forKey: .roundGhosts)
        try c.encode(pile, forKey: .pile)
        try c.encode(removed, forKey: .removed)
    }

    /// Decodes and checks the state is one the rules can reach in shape (every card accounted for, counts in
    /// range); a file or a peer cannot hand us a state that breaks the engine.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func bad(_ why: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Spirits! state: \(why)"))
        }
        playerCount = try c.decode(Int.self, forKey: .players)
        guard Self.playerCounts.contains(playerCount) else { throw bad("players \(playerCount)") }
        round = try c.decode(Int.self, forKey: .round)
        guard (1...Self.rounds).contains(round) else { throw bad("round \(round)") }
        phase = try c.decode(Phase.self, forKey: .phase)
        turnSeat = try c.decode(Int.self, forKey: .turn)
        roundStarter = try c.decode(Int.self, forKey: .roundStarter)
        guard (0..<playerCount).contains(turnSeat), (0..<playerCount).contains(roundStarter) else { throw bad("seat") }
        clockwise = try c.decode(Bool.self, forKey: .clockwise)
        fear = try c.decode(Int.self, forKey: .fear)
        guard (0...Self.maxFear).contains(fear) else { throw bad("Fear \(fear)") }
        top = try c.decodeIfPresent(SpiritsCard.self, forKey: .top)
        moveNumber = try c.decode(Int.self, forKey: .moveNumber)
        guard (0...Int(UInt32.max)).contains(moveNumber) else { throw bad("move number") }
        rng = try c.decode(TavoloRNG.self, forKey: .rng)
        dealtDeck = try c.decode([SpiritsCard].self, forKey: .dealtDeck)
        guard dealtDeck.count == SpiritsCard.deckSize, SpiritsCardCounts(dealtDeck) == .fullDeck else {
            throw bad("dealt deck is not the 54 cards")
        }
        drawIndex = try c.decode(Int.self, forKey: .drawIndex)
        guard (0...SpiritsCard.deckSize).contains(drawIndex) else { throw bad("draw index") }
        let handList = try c.decode([SpiritsCardCounts].self, forKey: .hands)
        guard handList.count == playerCount, handList.allSatisfy({ $0.total <= Self.handSize }) else {
            throw bad("hands")
        }
        hands = SpiritsHands()
        for (s, h) in handList.enumerated() { hands[s] = h }
        let g = try c.decode([Int].self, forKey: .ghosts)
        let rg = try c.decode([Int].self, forKey: .roundGhosts)
        guard g.count == playerCount, rg.count == playerCount, (g + rg).allSatisfy({ (0...255).contains($0) }) else {
            throw bad("ghosts")
        }
        ghosts = SpiritsSeatBytes(g)
        roundGhosts = SpiritsSeatBytes(rg)
        pile = try c.decode(SpiritsCardCounts.self, forKey: .pile)
        removed = try c.decode(SpiritsCardCounts.self, forKey: .removed)
        guard (top == nil) == pile.isEmpty, top.map({ pile.count(of: $0) > 0 }) ?? true,
            phase == .over || (phase == .open) == pile.isEmpty
        else { throw bad("pile and phase disagree") }
        guard cardsAccountedFor else { throw bad("cards do not add up to the 54-card deck") }
    }

    /// Every kind appears exactly three times across hands, draw pile, pile and removed cards.
    public var cardsAccountedFor: Bool {
        var counts = [Int](repeating: 0, count: SpiritsCard.kinds)
        func add(_ set: SpiritsCardCounts) {
            for k in 0..<SpiritsCard.kinds { counts[k] += set.count(of: SpiritsCard(unchecked: UInt8(k))) }
        }
        for s in 0..<playerCount { add(hands[s]) }
        for s in playerCount..<6 where hands[s].total > 0 { return false }
        add(pile)
        add(removed)
        for card in drawPile { counts[Int(card.rawValue)] += 1 }
        return counts.allSatisfy { $0 == SpiritsCard.copies }
    }
}
