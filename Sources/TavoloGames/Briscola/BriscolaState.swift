import TavoloCore

// Briscola (seed 001, RULES.md "Briscola"), 2 players, or 4 in fixed partnerships (seats 0+2 vs 1+3).
//
// - 40-card Italian deck numbered suit × 10 + (rank − 1); shuffled with Fisher–Yates by `TavoloRNG(seed)`.
//   `dealtDeck` keeps that order: index 0 is the top of the deck, the first card dealt.
// - After the shuffle the same generator picks the dealer: `bounded(players)`. The seat after the dealer
//   leads the first trick.
// - Deal: one card at a time, starting with the seat after the dealer, 3 rounds (3 cards each). The next card
//   is turned face up: its suit is trump (briscola). It lies under the pile and is the last card drawn.
//   Pile order: `dealtDeck[3p + 1] … dealtDeck[39]`, then the face-up card `dealtDeck[3p]`.
// - No obligation to follow suit. A trick goes to the highest trump, else the highest card of the suit led.
// - The trick winner takes the cards, draws first, then the others in turn order; the winner leads next.
// - 120 points in the deck; over 60 wins (4 players: partnership totals), 60–60 is a draw.

/// A Briscola move: play one card from hand.
public struct BriscolaMove: GameMove {
    public var card: Card
    public init(_ card: Card) { self.card = card }
    public static func < (a: BriscolaMove, b: BriscolaMove) -> Bool { a.card < b.card }
    public var description: String { card.code }
}

/// The full state of a Briscola game, hidden cards included.
public struct BriscolaState: GameState {
    public typealias Move = BriscolaMove

    public static let gameName = "briscola"
    public static let summary = "Italian trick-taking card game: 2 players, or 4 in partnerships (0+2 vs 1+3)"
    public static let playerCounts = [2, 4]
    public static let scoreName = "points"
    static let handSize = 3

    public let playerCount: Int
    public let seed: UInt64
    /// The shuffled deck, top card first: what a host deals and what peers check it against.
    public let dealtDeck: [Card]
    public let dealer: Int
    /// The face-up card under the pile; its suit is trump for the whole game.
    public let trumpCard: Card
    public var trumpSuit: Suit { trumpCard.suit }

    /// Each seat's hand.
    public internal(set) var hands: [CardSet]
    /// Cards each seat has taken in tricks.
    public internal(set) var captured: [CardSet]
    /// Cards of the current trick in play order; the first was played by `leader`.
    public internal(set) var table: [Card]
    /// The seat that led (or leads) the current trick.
    public internal(set) var leader: Int
    /// Pile cards drawn so far (the face-up trump is the last of the pile).
    public internal(set) var drawn: Int
    /// The seat that drew the face-up trump, once it has been drawn (public: everyone sees it taken).
    public internal(set) var trumpDrawnBy: Int?
    public internal(set) var current: Int
    public internal(set) var moveNumber: Int
    public internal(set) var isOver: Bool

    /// Deals a new game from `seed`.
    public init(players: Int, seed: UInt64) throws(GameSetupError) {
        var rng = TavoloRNG(seed: seed)
        var deck = Card.all
        rng.shuffle(&deck)
        let dealer = players > 0 ? rng.below(players) : 0
        try self.init(players: players, seed: seed, deck: deck, dealer: dealer)
    }

    /// Deals a game from a deck order given by a host (top card first) and a dealer.
    /// Throws unless `deck` holds each of the 40 cards once and `dealer` is a seat.
    /// The generator is used for nothing after the deal, so the state keeps the seed and the deck, not the generator.
    public init(players: Int, seed: UInt64, deck: [Card], dealer: Int) throws(GameSetupError) {
        guard Self.playerCounts.contains(players) else {
            throw GameSetupError("briscola is played by 2 or 4 players, not \(players)")
        }
        guard deck.count == 40, CardSet(deck) == .full else {
            throw GameSetupError("a Briscola deck must hold each of the 40 cards exactly once")
        }
        guard (0..<players).contains(dealer) else { throw GameSetupError("dealer \(dealer) is not a seat") }
        playerCount = players
        self.seed = seed
        dealtDeck = deck
        self.dealer = dealer
        hands = Array(repeating: CardSet(), count: players)
        for i in 0..<(Self.handSize * players) {
            hands[(dealer + 1 + i) % players].insert(deck[i])
        }
        trumpCard = deck[Self.handSize * players]
        captured = Array(repeating: CardSet(), count: players)
        table = []
        table.reserveCapacity(players)
        leader = (dealer + 1) % players
        current = leader
        drawn = 0
        trumpDrawnBy = nil
        moveNumber = 0
        isOver = false
    }

    /// Cards in the pile, the face-up trump included.
    public var pileCount: Int { 40 - Self.handSize * playerCount - drawn }
    /// Whether the face-up trump still lies under the pile.
    public var trumpFaceUp: Bool { pileCount > 0 }

    /// The pile card `drawn` draws would hand out next.
    func pileCard(_ index: Int) -> Card {
        let firstPile = Self.handSize * playerCount + 1
        return firstPile + index < 40 ? dealtDeck[firstPile + index] : trumpCard
    }

    public var turn: Turn { isOver ? .terminal : .seat(current) }

    public func legalMoves() -> [BriscolaMove] {
        isOver ? [] : hands[current].map(BriscolaMove.init)
    }

    public mutating func apply(_ move: BriscolaMove) throws(MoveError) {
        guard !isOver else { throw MoveError(.gameOver, "the game is over") }
        guard hands[current].contains(move.card) else {
            throw MoveError(.illegal, "seat \(current) does not hold \(move.card.name)")
        }
        play(move.card)
    }

    /// Applies a card known to be in the hand of the seat to play (bots' search uses this directly).
    mutating func play(_ card: Card) {
        hands[current].remove(card)
        table.append(card)
        moveNumber += 1
        if table.count < playerCount {
            current = (current + 1) % playerCount
            return
        }
        let winner = (leader + Self.winningIndex(table, trump: trumpSuit)) % playerCount
        captured[winner] = captured[winner] | CardSet(table)
        table.removeAll(keepingCapacity: true)
        if pileCount > 0 {
            for k in 0..<playerCount {
                let seat = (winner + k) % playerCount
                if pileCount == 1 { trumpDrawnBy = seat }
                hands[seat].insert(pileCard(drawn))
                drawn += 1
            }
        }
        leader = winner
        current = winner
        if hands[winner].isEmpty { isOver = true }
    }

    /// Index into `cards` (play order) of the card that takes the trick.
    public static func winningIndex(_ cards: [Card], trump: Suit) -> Int {
        var best = 0
        for i in cards.indices.dropFirst() where beats(cards[i], cards[best], trump: trump) { best = i }
        return best
    }

    /// Whether `card`, played after `best` (the card currently taking the trick), takes it instead.
    public static func beats(_ card: Card, _ best: Card, trump: Suit) -> Bool {
        card.suit == best.suit ? card.strength > best.strength : card.suit == trump
    }

    /// Points taken per seat.
    public var capturedPoints: [Int] { captured.map(\.points) }

    /// Points per seat with partners' points added together (4 players: seats 0+2 and 1+3).
    public var sidePoints: [Int] {
        let p = capturedPoints
        return playerCount == 4 ? (0..<4).map { p[$0] + p[($0 + 2) % 4] } : p
    }

    public var outcome: GameOutcome? {
        guard isOver else { return nil }
        let scores = sidePoints
        let winners: [Int]
        if scores[0] > 60 {
            winners = playerCount == 4 ? [0, 2] : [0]
        } else if scores[1] > 60 {
            winners = playerCount == 4 ? [1, 3] : [1]
        } else {
            winners = []
        }
        return GameOutcome(winners: winners, scores: scores)
    }

    public func writeCanonical(into w: inout CanonicalWriter) {
        w.u8(UInt8(playerCount))
        w.u64(seed)
        for c in dealtDeck { w.u8(c.id) }
        w.u8(UInt8(dealer))
        w.u8(trumpCard.id)
        w.u32(UInt32(moveNumber))
        w.u8(isOver ? 0xFF : UInt8(current))
        w.u8(UInt8(leader))
        w.u8(UInt8(drawn))
        w.u8(trumpDrawnBy.map(UInt8.init) ?? 0xFF)
        for seat in 0..<playerCount {
            w.u64(hands[seat].bits)
            w.u64(captured[seat].bits)
        }
        w.count(table.count)
        for c in table { w.u8(c.id) }
    }

    /// The card played (public once played), the trick and the points: never the hand it came from.
    public func describe(_ move: BriscolaMove) -> String { describe(move, revealing: false) }

    /// As `describe`, plus the hand the card came from (`tavolo playout --transcript` only).
    public func transcriptLine(_ move: BriscolaMove) -> String { describe(move, revealing: true) }

    func describe(_ move: BriscolaMove, revealing: Bool) -> String {
        var s = ""
        if moveNumber == 0 {
            s +=
                "dealer seat \(dealer); \(trumpCard.name) [\(trumpCard.code)] turned face up: \(trumpSuit.name) are briscola (trump); "
        }
        s += "plays \(move.card.name) [\(move.card.code)]"
        if revealing { s += " from " + hands[current].map(\.code).joined(separator: " ") }
        guard hands[current].contains(move.card), table.count + 1 == playerCount else { return s }
        let trick = table + [move.card]
        let i = Self.winningIndex(trick, trump: trumpSuit)
        let winner = (leader + i) % playerCount
        let points = CardSet(trick).points
        let total = captured[winner].points + points
        s += " — trick to seat \(winner) with \(trick[i].name) (\(points) point\(points == 1 ? "" : "s"), "
        s += "seat \(winner) has \(total))"
        if pileCount == playerCount {
            s += "; the face-up \(trumpCard.code) is drawn last by seat \((winner + playerCount - 1) % playerCount)"
        } else if pileCount == 0 && hands[current].count == 1 {
            s += "; all 40 cards played"
        }
        return s
    }
}
