import TavoloCore

// MARK: Scripted states

extension SpiritsState {
    /// A state built from explicit parts, for scripted tests and puzzles. The pile is listed bottom first; the
    /// Fear total is recomputed from it by rule 4 (mirrors add nothing). `dealtDeck` becomes every card not in
    /// the draw pile, in kind order, followed by `drawPile`; cards in neither hands, pile nor draw pile are
    /// removed. Throws if a kind appears more than three times or a value is out of range.
    public init(
        testPlayers players: Int, round: Int = 1, hands testHands: [[SpiritsCard]], pile testPile: [SpiritsCard] = [],
        drawPile testDraw: [SpiritsCard] = [], turn: Int, clockwise: Bool = true, ghosts testGhosts: [Int]? = nil,
        roundGhosts testRoundGhosts: [Int]? = nil, roundStarter: Int? = nil, seed: UInt64 = 0
    ) throws(GameSetupError) {
        try self.init(players: players, seed: seed)
        guard testHands.count == players, (0..<players).contains(turn), (1...Self.rounds).contains(round) else {
            throw GameSetupError("test state: need one hand per seat, a seat to play and a round 1…3")
        }
        var all = SpiritsCardCounts()
        for card in testHands.joined() + testPile + testDraw {
            guard all.count(of: card) < 3 else { throw GameSetupError("test state: more than three \(card)") }
            all.insert(card)
        }
        self.round = round
        hands = SpiritsHands()
        for (s, h) in testHands.enumerated() { hands[s] = SpiritsCardCounts(h) }
        pile = SpiritsCardCounts(testPile)
        let drawCounts = SpiritsCardCounts(testDraw)
        removed = SpiritsCardCounts.fullDeck.subtracting(all)
        dealtDeck = SpiritsCardCounts.fullDeck.subtracting(drawCounts).cards + testDraw
        drawIndex = SpiritsCard.deckSize - testDraw.count
        turnSeat = turn
        self.roundStarter = roundStarter ?? turn
        self.clockwise = clockwise
        top = testPile.last
        fear = 0
        var previous: SpiritsCard?
        for card in testPile {
            if previous?.colourIndex != card.colourIndex { fear += card.value }
            previous = card
        }
        guard fear <= Self.maxFear else { throw GameSetupError("test state: Fear total \(fear) above 7") }
        phase = testPile.isEmpty ? .open : .follow
        ghosts = SpiritsSeatBytes(testGhosts ?? [])
        roundGhosts = SpiritsSeatBytes(testRoundGhosts ?? [])
        moveNumber = 0
    }
}
