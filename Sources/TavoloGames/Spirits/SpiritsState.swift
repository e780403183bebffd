// Spirits! (Reiner Knizia), seed 000, RULES.md "Spirits!" rules 1–9, for 2–6 players.
//
// 54 ghost cards: 6 colours (red, orange, yellow, green, blue, purple) × values 1, 2, 3 × 3 copies.
// Ghost tokens are penalties; fewer is better.
//
// 1. A game is 3 rounds. At the start of each round all 54 cards are shuffled and each player is dealt 5;
//    the rest is a face-down draw pile.
// 2. Round 1 starts with a player chosen at random; rounds 2 and 3 start with the player holding the most
//    ghosts (ties: lowest seat). Direction is ascending seat order ("clockwise") at the start of every round.
// 3. The player who opens a challenge plays any card onto an empty pile; the Fear total becomes its value.
// 4. Each following player plays one card: a different colour from the top card (a new spirit) adds its value
//    to the Fear total, legal only if the total stays ≤ 7; the same colour (a mirror) leaves the total
//    unchanged, reverses the direction and is always legal.
// 5. After playing, the player draws one card if the draw pile is not empty.
// 6. A player with cards but no legal card flees: takes one ghost, the pile is cleared, and the same player
//    opens a new challenge with any card (rule 3), then draws (rule 5). Play continues in the current direction.
// 7. The round ends when the player whose turn it is has no cards; all remaining cards are discarded.
// 8. End of round: ghosts taken this round stay; a player who took none this round returns up to 3 ghosts.
// 9. After round 3 the fewest ghosts wins; ties go to the fewest ghosts taken in round 3; then a shared win.
//
// Choices this engine makes where the rules are silent (all in Protocol/games/spirits.md):
// - The state's RNG is `TavoloRNG(seed: gameSeed)`. Its first use picks the round-1 starter (`below(players)`);
//   then each round shuffles the 54 cards from canonical order (kind 0 ×3, kind 1 ×3, …) with
//   `TavoloRNG.shuffle`. `dealtDeck` records the shuffled order of the current round.
// - Dealing: card i of `dealtDeck` (i < 5 × players) goes to seat i mod players; the draw pile is the rest,
//   drawn from index 5 × players upward.
// - Fleeing is an explicit move, `.flee(open: card)`, legal exactly when the seat to play has no legal play.
// - The round-end step (rules 7–8) and the next round's deal happen inside the move that ends the round.

import TavoloCore

/// The state of a game of Spirits!.
public struct SpiritsState: GameState {
    public typealias Move = SpiritsMove
    public typealias Observation = SpiritsObservation

    // MARK: Constants

    public static let gameName = "spirits"
    public static let summary =
        "Spirits! (Knizia): play ghosts, keep the Fear total at 7 or less, or flee and take a ghost"
    public static let playerCounts = [2, 3, 4, 5, 6]
    public static let scoreName = "ghosts"
    public static let lowerScoreIsBetter = true
    public static let rounds = 3
    public static let handSize = 5
    public static let maxFear = 7
    /// Ghosts a player who lost no challenge in a round hands back (rule 8).
    public static let ghostsReturned = 3

    /// What the seat to play must do.
    public enum Phase: UInt8, Codable, Sendable {
        /// The pile is empty: the seat to play opens a challenge with any card (rule 3).
        case open
        /// The pile has cards: play a new spirit or a mirror (rule 4), or flee if none is legal (rule 6).
        case follow
        /// Three rounds are over (rule 9).
        case over
    }

    // MARK: State

    public internal(set) var playerCount: Int
    /// 1…3.
    public internal(set) var round: Int
    public internal(set) var phase: Phase
    /// The seat to play (meaningless once the game is over).
    public internal(set) var turnSeat: Int
    /// The seat that started the current round.
    public internal(set) var roundStarter: Int
    /// True while play goes in ascending seat order.
    public internal(set) var clockwise: Bool
    /// The Fear total of the current challenge; 0 when the pile is empty.
    public internal(set) var fear: Int
    /// The top card of the discard pile; nil when the pile is empty.
    public internal(set) var top: SpiritsCard?
    public internal(set) var moveNumber: Int
    /// The game's random stream (round-1 starter, then one shuffle per round).
    public internal(set) var rng: TavoloRNG
    /// The current round's 54 cards in dealt order; the draw pile is `dealtDeck[drawIndex...]`.
    public internal(set) var dealtDeck: [SpiritsCard]
    /// Index in `dealtDeck` of the next card to draw; 54 when the draw pile is empty.
    public internal(set) var drawIndex: Int
    public internal(set) var hands: SpiritsHands
    /// Ghosts held, per seat.
    public internal(set) var ghosts: SpiritsSeatBytes
    /// Ghosts taken in the current round (after round 3: in round 3), per seat.
    public internal(set) var roundGhosts: SpiritsSeatBytes
    /// The cards of the current challenge's discard pile.
    public internal(set) var pile: SpiritsCardCounts
    /// Cards out of play this round: cleared piles, and at round end everything left.
    public internal(set) var removed: SpiritsCardCounts

    // MARK: Set-up

    public init(players: Int, seed: UInt64) throws(GameSetupError) {
        guard Self.playerCounts.contains(players) else {
            throw GameSetupError("Spirits! is played by 2 to 6 players, not \(players)")
        }
        playerCount = players
        rng = TavoloRNG(seed: seed)
        round = 1
        phase = .open
        turnSeat = 0
        roundStarter = 0
        clockwise = true
        fear = 0
        top = nil
        moveNumber = 0
        dealtDeck = SpiritsCard.orderedDeck
        drawIndex = SpiritsCard.deckSize
        hands = SpiritsHands()
        ghosts = SpiritsSeatBytes()
        roundGhosts = SpiritsSeatBytes()
        pile = SpiritsCardCounts()
        removed = SpiritsCardCounts()
        let starter = rng.below(players)
        startRound(1, starter: starter)
    }

    /// Rule 1–2: shuffle, deal five each, the starter opens, clockwise.
    private mutating func startRound(_ r: Int, starter: Int) {
        round = r
        phase = .open
        turnSeat = starter
        roundStarter = starter
        clockwise = true
        fear = 0
        top = nil
        pile = SpiritsCardCounts()
        removed = SpiritsCardCounts()
        roundGhosts = SpiritsSeatBytes()
        Self.shuffledDeck(into: &dealtDeck, rng: &rng)
        hands = SpiritsHands()
        let dealt = Self.handSize * playerCount
        for i in 0..<dealt { hands[i % playerCount].insert(dealtDeck[i]) }
        drawIndex = dealt
    }

    /// Refills `deck` with the 54 cards in canonical order and shuffles it exactly as `TavoloRNG.shuffle`
    /// (Fisher–Yates from the last index down, `j = below(i + 1)`). Written out here because the generic
    /// `shuffle` is not specialised across modules and cost a tenth of a playout; a test checks both agree.
    static func shuffledDeck(into deck: inout [SpiritsCard], rng: inout TavoloRNG) {
        deck.withUnsafeMutableBufferPointer { d in
            precondition(d.count == SpiritsCard.deckSize)
            for i in 0..<SpiritsCard.deckSize { d[i] = SpiritsCard(unchecked: UInt8(i / SpiritsCard.copies)) }
            var i = SpiritsCard.deckSize - 1
            while i > 0 {
                let j = rng.below(i + 1)
                d.swapAt(i, j)
                i -= 1
            }
        }
    }

    // MARK: Queries

    public var turn: Turn { phase == .over ? .terminal : .seat(turnSeat) }

    /// Cards left in the draw pile.
    public var drawPileSize: Int { SpiritsCard.deckSize - drawIndex }

    /// The draw pile, next card first.
    public var drawPile: ArraySlice<SpiritsCard> { dealtDeck[drawIndex...] }

    /// The kinds `hand` may play onto the current pile (rules 3–4): empty means flee (rule 6) in `.follow`.
    @inlinable @inline(__always)
    public static func playableKinds(
        hand: SpiritsCardCounts, phase: Phase, top: SpiritsCard?, fear: Int
    ) -> SpiritsKindMask {
        let present = hand.kinds
        guard phase == .follow, let top else { return phase == .open ? present : SpiritsKindMask(bits: 0) }
        return present & (SpiritsKindMask.colour(top.colourIndex) | SpiritsKindMask.valuesUpTo(maxFear - fear))
    }

    /// The kinds the seat to play may play; empty when it must flee or the game is over.
    @inline(__always)
    public var playableKinds: SpiritsKindMask {
        Self.playableKinds(hand: hands[turnSeat], phase: phase, top: top, fear: fear)
    }

    /// The legal moves as kinds, with whether they are flees: the allocation-free form of `legalMoves()`.
    /// `legalMoves()` is `kinds` in order, each wrapped as `.flee(open:)` if `flee`, else `.play`.
    @inline(__always)
    public var legalKinds: (kinds: SpiritsKindMask, flee: Bool) {
        guard phase != .over else { return (SpiritsKindMask(bits: 0), false) }
        let playable = playableKinds
        if playable.isEmpty && phase == .follow { return (hands[turnSeat].kinds, true) }
        return (playable, false)
    }

    public func legalMoves() -> [SpiritsMove] {
        let (kinds, flee) = legalKinds
        var moves: [SpiritsMove] = []
        moves.reserveCapacity(kinds.count)
        for card in kinds { moves.append(flee ? .flee(open: card) : .play(card)) }
        return moves
    }

    /// Whether `move` is legal now, without allocating.
    public func isLegal(_ move: SpiritsMove) -> Bool {
        let (kinds, flee) = legalKinds
        return flee == move.isFlee && kinds.contains(move.card)
    }

    public var outcome: GameOutcome? {
        guard phase == .over else { return nil }
        let scores = ghosts.prefix(playerCount)
        // Rule 9: fewest ghosts, then fewest taken in round 3, then a shared win.
        var best = (Int.max, Int.max)
        var winners: [Int] = []
        for s in 0..<playerCount {
            let key = (ghosts[s], roundGhosts[s])
            if key < best {
                best = key
                winners = [s]
            } else if key == best {
                winners.append(s)
            }
        }
        return GameOutcome(winners: winners, scores: scores)
    }

    public func observation(for seat: Int) -> SpiritsObservation {
        var sizes = SpiritsSeatBytes()
        for s in 0..<playerCount { sizes[s] = hands[s].total }
        return SpiritsObservation(
            seat: seat, players: playerCount, round: round, phase: phase,
            turn: phase == .over ? nil : turnSeat, clockwise: clockwise, fear: fear, top: top,
            hand: hands[seat], handSizes: sizes, ghosts: ghosts, roundGhosts: roundGhosts,
            drawPileSize: drawPileSize, pile: pile, removed: removed)
    }

    /// The seat after `seat` in the current direction.
    @inlinable @inline(__always)
    public func seat(after seat: Int, clockwise cw: Bool) -> Int {
        if cw { return seat + 1 == playerCount ? 0 : seat + 1 }
        return seat == 0 ? playerCount - 1 : seat - 1
    }

    // MARK: Moves

    public mutating func apply(_ move: SpiritsMove) throws(MoveError) { try apply(move, trustingFlee: false) }

    /// The rules of a move; `trustingFlee` takes a flee's "no legal card" on trust, for a sealed deck where nobody
    /// sees the hand (`applySealed`: the audit checks the claim, PROTOCOL.md §14.10 step 5).
    @inline(__always)
    mutating func apply(_ move: SpiritsMove, trustingFlee: Bool) throws(MoveError) {
        switch phase {
        case .over:
            throw MoveError(.gameOver, "the game is over")
        case .open:
            guard case .play(let card) = move, hands[turnSeat].count(of: card) > 0 else { throw illegal(move) }
            open(card)
        case .follow:
            let playable = playableKinds
            switch move {
            case .play(let card):
                guard playable.contains(card) else { throw illegal(move) }
                follow(card)
            case .flee(let card):
                guard trustingFlee || playable.isEmpty, hands[turnSeat].count(of: card) > 0 else {
                    throw illegal(move)
                }
                flee(opening: card)
            }
        }
        moveNumber += 1
        drawAndPass()
    }

    private func illegal(_ move: SpiritsMove) -> MoveError {
        MoveError(
            .illegal,
            "\(move) is not legal for seat \(turnSeat) (\(legalMoves().map(\.description).joined(separator: ", ")))")
    }

    /// Rule 3.
    @inline(__always)
    private mutating func open(_ card: SpiritsCard) {
        hands[turnSeat].remove(card)
        pile.insert(card)
        top = card
        fear = card.value
        phase = .follow
    }

    /// Rule 4.
    @inline(__always)
    private mutating func follow(_ card: SpiritsCard) {
        if let top, top.colourIndex == card.colourIndex {
            clockwise.toggle()
        } else {
            fear += card.value
        }
        hands[turnSeat].remove(card)
        pile.insert(card)
        top = card
    }

    /// Rule 6.
    @inline(__always)
    private mutating func flee(opening card: SpiritsCard) {
        ghosts.increment(turnSeat)
        roundGhosts.increment(turnSeat)
        removed.formUnion(pile)
        pile = SpiritsCardCounts()
        open(card)
    }

    /// Rules 5 and 7.
    @inline(__always)
    private mutating func drawAndPass() {
        if drawIndex < SpiritsCard.deckSize {
            hands[turnSeat].insert(dealtDeck[drawIndex])
            drawIndex += 1
        }
        turnSeat = seat(after: turnSeat, clockwise: clockwise)
        if hands[turnSeat].isEmpty { endRound() }
    }

    /// Rules 7–9.
    private mutating func endRound() {
        for s in 0..<playerCount {
            removed.formUnion(hands[s])
        }
        hands = SpiritsHands()
        removed.formUnion(pile)
        pile = SpiritsCardCounts()
        for i in drawIndex..<SpiritsCard.deckSize { removed.insert(dealtDeck[i]) }
        drawIndex = SpiritsCard.deckSize
        top = nil
        fear = 0
        for s in 0..<playerCount where roundGhosts[s] == 0 {
            ghosts[s] -= min(Self.ghostsReturned, ghosts[s])
        }
        if round == Self.rounds {
            phase = .over
            return
        }
        var starter = 0
        for s in 1..<playerCount where ghosts[s] > ghosts[starter] { starter = s }
        startRound(round + 1, starter: starter)
    }
}

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
