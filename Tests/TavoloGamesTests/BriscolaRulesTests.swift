import TavoloCore
import XCTest

@testable import TavoloGames

/// A card from its short code, failing the test on a typo.
func card(_ code: String, file: StaticString = #filePath, line: UInt = #line) -> Card {
    guard let c = Card(code: code) else {
        XCTFail("bad card code \(code)", file: file, line: line)
        return Card.all[0]
    }
    return c
}

func cards(_ codes: String) -> [Card] { codes.split(separator: " ").map { card(String($0)) } }

/// Scripted tests, one rule of RULES.md "Briscola" each.
final class BriscolaRulesTests: XCTestCase {
    func testDeckHasFortyCardsAndOneHundredTwentyPoints() {
        XCTAssertEqual(Card.all.count, 40)
        XCTAssertEqual(CardSet.full.points, 120)
        XCTAssertEqual(card("1C").name, "Asso di Coppe")
        XCTAssertEqual(card("8D").name, "Fante di Denari")
        XCTAssertEqual(card("9S").name, "Cavallo di Spade")
        XCTAssertEqual(card("10B").name, "Re di Bastoni")
        XCTAssertEqual(cards("1C 3C 10C 9C 8C 7C 2C").map(\.points), [11, 10, 4, 3, 2, 0, 0])
        // Strength: Asso > Tre > Re > Cavallo > Fante > 7 > 6 > 5 > 4 > 2.
        let order = cards("2S 4S 5S 6S 7S 8S 9S 10S 3S 1S")
        XCTAssertEqual(order.map(\.strength), Array(0..<10))
        XCTAssertEqual(Card(code: "11C"), nil)
        XCTAssertEqual(Card(code: "1X"), nil)
    }

    func testShuffleIsFisherYatesWithTheGameRNGThenDealerFromTheSameStream() throws {
        for seed: UInt64 in [1, 3, 42, 0xDEAD_BEEF] {
            let s = try BriscolaState(players: 2, seed: seed)
            var rng = TavoloRNG(seed: seed)
            var deck = Card.all
            rng.shuffle(&deck)
            XCTAssertEqual(s.dealtDeck, deck)
            XCTAssertEqual(s.dealer, rng.below(2))
        }
    }

    func testDealThreeCardsEachFromTheSeatAfterTheDealerThenTrumpFaceUp() throws {
        for players in [2, 3, 4] {
            let s = try BriscolaState(players: players, seed: 7)
            for seat in 0..<players {
                let k = (seat - s.dealer - 1 + players) % players
                XCTAssertEqual(
                    s.hands[seat], CardSet([s.dealtDeck[k], s.dealtDeck[k + players], s.dealtDeck[k + 2 * players]]))
            }
            XCTAssertEqual(s.trumpCard, s.dealtDeck[3 * players])
            XCTAssertEqual(s.pileCount, (players == 3 ? 39 : 40) - 3 * players)
            XCTAssertTrue(s.trumpFaceUp)
            XCTAssertEqual(s.turn, .seat((s.dealer + 1) % players), "the seat after the dealer leads")
        }
    }

    func testNoObligationToFollowSuit() throws {
        let deck = cards("2C 3D 4S 5C 6D 7S 1B") + Array(~CardSet(cards("2C 3D 4S 5C 6D 7S 1B")))
        var s = try BriscolaState(players: 2, seed: 0, deck: deck, dealer: 1)
        // Seat 0 holds 2C 4S 6D, seat 1 holds 3D 5C 7S; trump is Bastoni.
        XCTAssertEqual(s.hands[0], CardSet(cards("2C 4S 6D")))
        try s.apply(BriscolaMove(card("2C")))
        XCTAssertEqual(s.legalMoves().compactMap(\.card), cards("5C 3D 7S").sorted(), "every card in hand is legal")
        try s.apply(BriscolaMove(card("3D")))
        XCTAssertEqual(s.leader, 0, "an off-suit card never takes the trick")
    }

    func testTrickGoesToHighestTrumpElseHighestOfSuitLed() {
        let trump = Suit.bastoni
        XCTAssertEqual(BriscolaState.winningIndex(cards("7C 1C"), trump: trump), 1)
        XCTAssertEqual(BriscolaState.winningIndex(cards("3C 1C"), trump: trump), 1)
        XCTAssertEqual(BriscolaState.winningIndex(cards("1C 3C"), trump: trump), 0)
        XCTAssertEqual(BriscolaState.winningIndex(cards("10C 2C"), trump: trump), 0)
        XCTAssertEqual(BriscolaState.winningIndex(cards("1C 2B"), trump: trump), 1, "any trump beats the suit led")
        XCTAssertEqual(BriscolaState.winningIndex(cards("2C 1D"), trump: trump), 0, "other suits never win")
        XCTAssertEqual(BriscolaState.winningIndex(cards("1C 2B 3C 4B"), trump: trump), 3, "highest trump")
        XCTAssertEqual(BriscolaState.winningIndex(cards("2B 1C"), trump: trump), 0, "trump led holds")
        XCTAssertEqual(BriscolaState.winningIndex(cards("5C 9C 1D 8C"), trump: trump), 1)
    }

    func testWinnerTakesCardsDrawsFirstAndLeads() throws {
        let first = cards("2C 3D 4S 5C 6D 7S 1B 8C 9C")
        let deck = first + Array(~CardSet(first))
        var s = try BriscolaState(players: 2, seed: 0, deck: deck, dealer: 1)
        try s.apply(BriscolaMove(card("4S")))  // seat 0 leads
        try s.apply(BriscolaMove(card("7S")))  // seat 1 takes it
        XCTAssertEqual(s.captured[1], CardSet(cards("4S 7S")))
        XCTAssertTrue(s.hands[1].contains(card("8C")), "the winner draws the top pile card")
        XCTAssertTrue(s.hands[0].contains(card("9C")), "then the other seat")
        XCTAssertEqual(s.turn, .seat(1), "the winner leads")
        XCTAssertEqual(s.hands.map(\.count), [3, 3])
    }

    func testFourPlayersDrawInTurnOrderFromTheWinner() throws {
        let first = cards("2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D 4D 1B 5D 6D 7D 8D")
        let deck = first + Array(~CardSet(first))
        var s = try BriscolaState(players: 4, seed: 0, deck: deck, dealer: 3)
        // Seat 0 holds 2C 6C 10C, seat 1 3C 7C 2D, seat 2 4C 8C 3D, seat 3 5C 9C 4D.
        for code in ["2C", "7C", "8C", "9C"] { try s.apply(BriscolaMove(card(code))) }
        XCTAssertEqual(s.leader, 3)
        XCTAssertTrue(s.hands[3].contains(card("5D")))
        XCTAssertTrue(s.hands[0].contains(card("6D")))
        XCTAssertTrue(s.hands[1].contains(card("7D")))
        XCTAssertTrue(s.hands[2].contains(card("8D")))
    }

    func testFaceUpTrumpIsTheLastCardDrawnAndThenHandsArePlayedOut() throws {
        for players in [2, 3, 4] {
            var s = try BriscolaState(players: players, seed: 11)
            var bot = BriscolaEmulatorBot()
            while s.pileCount > 0 {
                if s.pileCount == players && s.table.count == players - 1 {
                    let winnerSeatOffset = players - 1
                    try s.apply(bot.chooseMove(in: s, seat: s.current))
                    let lastDrawer = (s.leader + winnerSeatOffset) % players
                    XCTAssertEqual(s.trumpDrawnBy, lastDrawer)
                    XCTAssertTrue(s.hands[lastDrawer].contains(try XCTUnwrap(s.trumpCard)))
                    XCTAssertFalse(s.trumpFaceUp)
                } else {
                    try s.apply(bot.chooseMove(in: s, seat: s.current))
                }
            }
            XCTAssertEqual(s.hands.map(\.count), Array(repeating: 3, count: players))
            for _ in 0..<(3 * players) {
                XCTAssertNil(s.outcome)
                try s.apply(bot.chooseMove(in: s, seat: s.current))
            }
            XCTAssertEqual(s.turn, .terminal)
            XCTAssertEqual(s.captured.reduce(CardSet()) { $0 | $1 }, CardSet(BriscolaState.deck(players: players)))
        }
    }

    func testOverSixtyWinsAndSixtySixtyDraws() throws {
        var s = try BriscolaState(players: 2, seed: 5)
        s.hands = [CardSet(), CardSet()]
        s.isOver = true
        let sixty = CardSet(cards("1C 3C 1D 3D 1S 3S"))  // 63
        s.captured = [sixty, ~sixty]
        XCTAssertEqual(s.outcome, GameOutcome(winners: [0], scores: [63, 57]))
        let exactly60 = CardSet(cards("1C 3C 1D 3D 10C 10D 10S 2C"))  // 42 + 12 = 54
        var draw = exactly60
        draw.insert(card("9C"))
        draw.insert(card("9D"))  // 60
        XCTAssertEqual(draw.points, 60)
        s.captured = [draw, ~draw]
        XCTAssertEqual(s.outcome, GameOutcome(winners: [], scores: [60, 60]))
    }

    func testFourPlayersScoreByPartnership() throws {
        var s = try BriscolaState(players: 4, seed: 5)
        s.hands = Array(repeating: CardSet(), count: 4)
        s.isOver = true
        s.captured = [
            CardSet(cards("1C 3C")), CardSet(cards("1D")), CardSet(cards("1S 3S 10B")),
            ~CardSet(cards("1C 3C 1D 1S 3S 10B")),
        ]
        // Seats 0+2: 21 + 25 = 46; seats 1+3: 74.
        XCTAssertEqual(s.outcome, GameOutcome(winners: [1, 3], scores: [46, 74, 46, 74]))
    }

    func testRejectsCardsNotInHandAndMovesAfterTheEnd() throws {
        var s = try BriscolaState(players: 2, seed: 9)
        let seat = s.current
        let notHeld = Card.all.first { !s.hands[seat].contains($0) } ?? Card.all[0]
        let before = s.stateHash
        XCTAssertThrowsError(try s.apply(BriscolaMove(notHeld))) { XCTAssertEqual(($0 as? MoveError)?.code, .illegal) }
        XCTAssertEqual(s.stateHash, before)
        var bot = BriscolaEmulatorBot()
        while case .seat(let p) = s.turn { try s.apply(bot.chooseMove(in: s, seat: p)) }
        XCTAssertThrowsError(try s.apply(BriscolaMove(notHeld))) { XCTAssertEqual(($0 as? MoveError)?.code, .gameOver) }
    }

    func testSetupRejectsBadPlayerCountsAndDecks() {
        XCTAssertThrowsError(try BriscolaState(players: 1, seed: 1))
        XCTAssertThrowsError(try BriscolaState(players: 6, seed: 1))
        XCTAssertThrowsError(try BriscolaState(players: 3, seed: 1, deck: Card.all, dealer: 0), "3 players: 39 cards")
        XCTAssertThrowsError(try BriscolaState(players: 5, seed: 1, deck: BriscolaState.deck(players: 3), dealer: 0))
        XCTAssertThrowsError(try BriscolaState(players: 2, seed: 1, deck: Array(Card.all.dropLast()), dealer: 0))
        XCTAssertThrowsError(
            try BriscolaState(players: 2, seed: 1, deck: Card.all.dropLast() + [Card.all[0]], dealer: 0))
        XCTAssertThrowsError(try BriscolaState(players: 2, seed: 1, deck: Card.all, dealer: 2))
    }

    func testHostDealtDeckGivesTheSameStateAsTheSeed() throws {
        let a = try BriscolaState(players: 4, seed: 1234)
        let b = try BriscolaState(players: 4, seed: 1234, deck: a.dealtDeck, dealer: a.dealer)
        XCTAssertEqual(a.stateHash, b.stateHash)
    }

    func testObservationShowsOwnHandTrumpTableAndCapturesOnly() throws {
        var s = try BriscolaState(players: 2, seed: 21)
        var bot = BriscolaEmulatorBot()
        for _ in 0..<5 { try s.apply(bot.chooseMove(in: s, seat: s.current)) }
        let seat = s.current
        let o = s.observation(for: seat)
        XCTAssertEqual(o.hand, s.hands[seat])
        XCTAssertEqual(o.table, s.table)
        XCTAssertEqual(o.trumpCard, s.trumpCard)
        XCTAssertEqual(o.captured, s.captured)
        XCTAssertEqual(o.handCounts, s.hands.map(\.count))
        XCTAssertEqual(o.unseen.count, 40 - 1 - o.hand.count - o.table.count - o.captured.reduce(0) { $0 + $1.count })
        XCTAssertTrue((o.unseen & s.hands[1 - seat]) == s.hands[1 - seat], "the other hand is unseen")
        let json = String(decoding: try JSONEncoder().encode(o), as: UTF8.self)
        XCTAssertFalse(json.contains("dealtDeck"))
    }

    func testMoveCodableAsCardCode() throws {
        let data = try JSONEncoder().encode(BriscolaMove(card("10B")))
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "{\"card\":\"10B\"}")
        XCTAssertEqual(try JSONDecoder().decode(BriscolaMove.self, from: data), BriscolaMove(card("10B")))
        XCTAssertThrowsError(try JSONDecoder().decode(BriscolaMove.self, from: Data("{\"card\":\"0Z\"}".utf8)))
    }
}
