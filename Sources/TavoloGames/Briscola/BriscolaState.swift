import TavoloCore

// Briscola (seed 001, RULES.md "Briscola"): 2 players; 3 each for themselves; 4 in fixed partnerships
// (seats 0+2 vs 1+3); 5 as Briscola chiamata (`BriscolaChiamata.swift`).
//
// - 40-card Italian deck numbered suit × 10 + (rank − 1); with 3 players the Due di Coppe (card 1) is taken out
//   first (39 cards, 13 tricks). Shuffled with Fisher–Yates by `TavoloRNG(seed)`. `dealtDeck` keeps that order:
//   index 0 is the top of the deck, the first card dealt.
// - After the shuffle the same generator picks the dealer: `bounded(players)`. The seat after the dealer
//   leads the first trick.
// - Deal (2–4 players): one card at a time, starting with the seat after the dealer, 3 rounds (3 cards each). The
//   next card is turned face up: its suit is trump (briscola). It lies under the pile and is the last card drawn.
//   Pile order: `dealtDeck[3p + 1] … dealtDeck[n − 1]`, then the face-up card `dealtDeck[3p]`.
// - No obligation to follow suit. A trick goes to the highest trump, else the highest card of the suit led.
// - The trick winner takes the cards, draws first, then the others in turn order; the winner leads next.
// - 120 points in the deck; over 60 wins (4 players: partnership totals), 60–60 is a draw; with 3 players the
//   most points win (a tie for the most is a shared win, all three equal a draw).

/// The full state of a Briscola game, hidden cards included.
public struct BriscolaState: GameState {
    public typealias Move = BriscolaMove

    public static let gameName = "briscola"
    public static let summary =
        "Italian trick-taking card game: 2 or 3 players, 4 in partnerships (0+2 vs 1+3), 5 as Briscola chiamata"
    public static let playerCounts = [2, 3, 4, 5]
    public static let scoreName = "points"
    static let handSize = 3
    /// The card left out with 3 players: the Due di Coppe (worth nothing, so the deck still holds 120 points).
    public static let removedForThree = Card(uncheckedID: 1)

    public let playerCount: Int
    public let seed: UInt64
    /// The shuffled deck, top card first: what a host deals and what peers check it against.
    public let dealtDeck: [Card]
    public let dealer: Int
    /// The face-up card under the pile (2–4 players); nil in Briscola chiamata, where the called card names trump.
    public let trumpCard: Card?
    /// The trump suit: the face-up card's, or (chiamata) the called card's once called.
    public internal(set) var trumpSuit: Suit?

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
    /// The auction, the call and the partner: Briscola chiamata (5 players) only.
    public internal(set) var chiamata: ChiamataPart?

    /// The cards in play for `players` seats: all 40, or 39 for 3 (the Due di Coppe left out).
    public static func deck(players: Int) -> [Card] {
        players == 3 ? Card.all.filter { $0 != removedForThree } : Card.all
    }

    /// Cards each seat is dealt: 3, or all 8 in Briscola chiamata.
    static func dealSize(players: Int) -> Int { players == chiamataPlayers ? 8 : handSize }

    /// Deals a new game from `seed`.
    public init(players: Int, seed: UInt64) throws(GameSetupError) {
        var rng = TavoloRNG(seed: seed)
        var deck = Self.deck(players: players)
        rng.shuffle(&deck)
        let dealer = players > 0 ? rng.below(players) : 0
        try self.init(players: players, seed: seed, deck: deck, dealer: dealer)
    }

    /// Deals a game from a deck order given by a host (top card first) and a dealer.
    /// Throws unless `deck` holds each card of `deck(players:)` once and `dealer` is a seat.
    /// The generator is used for nothing after the deal, so the state keeps the seed and the deck, not the generator.
    public init(players: Int, seed: UInt64, deck: [Card], dealer: Int) throws(GameSetupError) {
        guard Self.playerCounts.contains(players) else {
            throw GameSetupError("briscola is played by 2, 3, 4 or 5 players, not \(players)")
        }
        let cards = Self.deck(players: players)
        guard deck.count == cards.count, CardSet(deck) == CardSet(cards) else {
            throw GameSetupError(
                "a Briscola deck for \(players) must hold each of its \(cards.count) cards exactly once")
        }
        guard (0..<players).contains(dealer) else { throw GameSetupError("dealer \(dealer) is not a seat") }
        playerCount = players
        self.seed = seed
        dealtDeck = deck
        self.dealer = dealer
        hands = Array(repeating: CardSet(), count: players)
        let dealt = Self.dealSize(players: players) * players
        for i in 0..<dealt {
            hands[(dealer + 1 + i) % players].insert(deck[i])
        }
        let chiamata = players == Self.chiamataPlayers
        trumpCard = chiamata ? nil : deck[dealt]
        trumpSuit = trumpCard?.suit
        self.chiamata = chiamata ? ChiamataPart() : nil
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

    /// Cards in the pile, the face-up trump included (none in Briscola chiamata).
    public var pileCount: Int { dealtDeck.count - Self.dealSize(players: playerCount) * playerCount - drawn }
    /// Whether the face-up trump still lies under the pile.
    public var trumpFaceUp: Bool { pileCount > 0 }

    /// The pile card `drawn` draws would hand out next.
    func pileCard(_ index: Int) -> Card { dealtDeck[pilePosition(index)] }

    /// The position in `dealtDeck` of the pile's card `index` (0 first): `3p + 1` upwards, then the face-up trump
    /// at `3p`, last. One function for the draw and for the positions a sealed deck opens (`sealedDraws`).
    func pilePosition(_ index: Int) -> Int {
        let firstPile = Self.handSize * playerCount + 1
        return firstPile + index < dealtDeck.count ? firstPile + index : firstPile - 1
    }

    public var turn: Turn { isOver ? .terminal : .seat(current) }

    public func legalMoves() -> [BriscolaMove] {
        if isOver { return [] }
        if let c = chiamata, c.phase != .playing { return chiamataMoves(c) }
        return hands[current].map(BriscolaMove.init)
    }

    public mutating func apply(_ move: BriscolaMove) throws(MoveError) {
        guard !isOver else { throw MoveError(.gameOver, "the game is over") }
        if var c = chiamata, c.phase != .playing {
            try applyAuction(move, &c)
            chiamata = c
            return
        }
        guard let card = move.card else { throw MoveError(.illegal, "\(move) is not a move while cards are played") }
        guard hands[current].contains(card) else {
            throw MoveError(.illegal, "seat \(current) does not hold \(card.name)")
        }
        play(card)
    }

    /// Applies a card known to be in the hand of the seat to play (bots' search uses this directly).
    mutating func play(_ card: Card) {
        hands[current].remove(card)
        table.append(card)
        moveNumber += 1
        if chiamata != nil { chiamataPlayed(card) }
        if table.count < playerCount {
            current = (current + 1) % playerCount
            return
        }
        // Cards are played only once trump is known (at the deal, or at the call in chiamata).
        let winner = (leader + Self.winningIndex(table, trump: trumpSuit ?? .coppe)) % playerCount
        captured[winner] = captured[winner] | CardSet(table)
        if chiamata != nil { chiamataTrickDone(leader: leader, cards: table) }
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

    /// Points per seat with partners' points added together (4 players: seats 0+2 and 1+3; 5: the declarer's
    /// side and the defenders', once the call has fixed the sides).
    public var sidePoints: [Int] {
        if isChiamata { return chiamataSidePoints }
        let p = capturedPoints
        return playerCount == 4 ? (0..<4).map { p[$0] + p[($0 + 2) % 4] } : p
    }

    /// Whether two seats play on the same side: partners with 4, declarer and partner with 5.
    public func sameSide(_ a: Int, _ b: Int) -> Bool {
        if a == b { return true }
        switch playerCount {
        case 4: return a % 2 == b % 2
        case 5: return onDeclarerSide(a) == onDeclarerSide(b)
        default: return false
        }
    }

    public var outcome: GameOutcome? {
        guard isOver else { return nil }
        if isChiamata { return chiamataOutcome }
        let scores = sidePoints
        let winners: [Int]
        if playerCount == 3 {
            let best = scores.max() ?? 0
            let top = scores.indices.filter { scores[$0] == best }
            winners = top.count == playerCount ? [] : top
        } else if scores[0] > 60 {
            winners = playerCount == 4 ? [0, 2] : [0]
        } else if scores[1] > 60 {
            winners = playerCount == 4 ? [1, 3] : [1]
        } else {
            winners = []
        }
        return GameOutcome(winners: winners, scores: scores)
    }
}
