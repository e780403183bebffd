import TavoloCore
import XCTest

@testable import TavoloGames

/// Scripted checks of Briscola for 3 and of Briscola chiamata (5): the cases the random playouts and the vectors
/// reach only by chance.
final class BriscolaVariantTests: XCTestCase {
    func testThreePlayersPlayWithoutTheDueDiCoppe() throws {
        let s = try BriscolaState(players: 3, seed: 8)
        XCTAssertEqual(s.dealtDeck.count, 39)
        XCTAssertFalse(s.dealtDeck.contains(card("2C")))
        XCTAssertEqual(CardSet(s.dealtDeck).points, 120)
        XCTAssertEqual(s.trumpCard, s.dealtDeck[9])
        XCTAssertEqual(s.pileCount, 30)
        XCTAssertEqual(s.hands.map(\.count), [3, 3, 3])
    }

    func testThreePlayersTheMostPointsWinTiesShare() throws {
        var s = try BriscolaState(players: 3, seed: 8)
        s.hands = [CardSet(), CardSet(), CardSet()]
        s.isOver = true
        s.captured = [CardSet(cards("1C 3C 10C")), CardSet(cards("1D 3D 10D")), CardSet(cards("1S 3S 9S"))]
        XCTAssertEqual(s.outcome, GameOutcome(winners: [0, 1], scores: [25, 25, 24]))
        s.captured[2] = CardSet(cards("1S 3S 10S"))
        XCTAssertEqual(s.outcome?.winners, [], "all equal: a draw")
        s.captured[2] = CardSet(cards("1S 3S 10S 8B"))
        XCTAssertEqual(s.outcome?.winners, [2])
    }

    /// Deck in card order, dealer 4: seat k holds the cards whose number is k mod 5.
    func chiamata() throws -> BriscolaState {
        try BriscolaState(players: 5, seed: 0, deck: Card.all, dealer: 4)
    }

    func testTheAuctionRaisesSkipsPassedSeatsAndEndsWithTheLastBidder() throws {
        var s = try chiamata()
        XCTAssertNil(s.trumpSuit)
        XCTAssertEqual(s.hands.map(\.count), [8, 8, 8, 8, 8])
        XCTAssertEqual(s.turn, .seat(0))
        try s.apply(.bid(ChiamataBid(wire: 1)!))  // seat 0: Asso
        try s.apply(.bid(ChiamataBid(wire: 3)!))  // seat 1: Tre
        XCTAssertThrowsError(try s.apply(.bid(ChiamataBid(wire: 1)!)), "seat 2 may not bid below the Tre")
        XCTAssertFalse(s.legalMoves().contains(.bid(ChiamataBid(wire: 3)!)))
        for _ in 0..<3 { try s.apply(.pass) }  // seats 2, 3, 4
        XCTAssertEqual(s.turn, .seat(0), "passed seats are skipped")
        try s.apply(.bid(ChiamataBid(wire: 10)!))  // seat 0: Re
        try s.apply(.pass)  // seat 1
        XCTAssertEqual(s.chiamata?.phase, .calling)
        XCTAssertEqual(s.chiamata?.declarer, 0)
        XCTAssertEqual(s.turn, .seat(0))
        XCTAssertEqual(s.legalMoves(), cards("10C 10D 10S 10B").map(BriscolaMove.call))
        XCTAssertThrowsError(try s.apply(.call(card("3D"))), "the call is of the rank bid")
        try s.apply(.call(card("10D")))  // card 19: seat 4 holds it
        XCTAssertEqual(s.trumpSuit, .denari)
        XCTAssertEqual(s.chiamata?.partner, 4)
        XCTAssertEqual(s.turn, .seat(0), "the seat after the dealer leads")
        XCTAssertEqual((0..<5).map { s.observation(for: $0).partner }, [nil, nil, nil, nil, 4])
        while s.hands[4].contains(card("10D")) {
            let seat = try XCTUnwrap(s.turn.seat)
            let move = s.hands[seat].contains(card("10D")) ? card("10D") : try XCTUnwrap(s.hands[seat].lowest)
            try s.apply(BriscolaMove(move))
        }
        XCTAssertEqual((0..<5).map { s.observation(for: $0).partner }, [4, 4, 4, 4, 4], "revealed by the card")
    }

    func testTheDealerMustBidAfterFourPasses() throws {
        var s = try chiamata()
        for _ in 0..<4 { try s.apply(.pass) }
        XCTAssertEqual(s.turn, .seat(4))
        XCTAssertFalse(s.legalMoves().contains(.pass))
        XCTAssertThrowsError(try s.apply(.pass))
        try s.apply(.bid(.lowest))
        XCTAssertEqual(s.chiamata?.declarer, 4)
    }

    func testCallingOwnCardPlaysAloneAndScoresFour() throws {
        var s = try chiamata()
        try s.apply(.bid(ChiamataBid(wire: 1)!))  // seat 0 holds 1C (card 0)
        for _ in 0..<4 { try s.apply(.pass) }
        try s.apply(.call(card("1C")))
        XCTAssertEqual(s.chiamata?.partner, 0)
        XCTAssertEqual(s.observation(for: 0).partner, 0, "the declarer knows it is alone")
        XCTAssertNil(s.observation(for: 1).partner)
        var bot = BriscolaEmulatorBot()
        while case .seat(let seat) = s.turn { try s.apply(bot.chooseMove(in: s, seat: seat)) }
        let outcome = try XCTUnwrap(s.outcome)
        let points = try XCTUnwrap(s.chiamataGamePoints)
        XCTAssertEqual(points.reduce(0, +), 0, "zero-sum")
        XCTAssertEqual(abs(points[0]), 4)
        XCTAssertEqual(outcome.winners.contains(0), points[0] > 0)
        XCTAssertEqual(outcome.scores[0] + outcome.scores[1], 120)
    }

    func testAPointsBidCallsTheDueAndSetsTheTarget() throws {
        var s = try chiamata()
        try s.apply(.bid(ChiamataBid(wire: 70)!))
        for _ in 0..<4 { try s.apply(.pass) }
        XCTAssertEqual(s.legalMoves(), cards("2C 2D 2S 2B").map(BriscolaMove.call))
        try s.apply(.call(card("2S")))
        XCTAssertEqual(s.observation(for: 3).target, 70)
        var bot = BriscolaEmulatorBot()
        while case .seat(let seat) = s.turn { try s.apply(bot.chooseMove(in: s, seat: seat)) }
        let o = try XCTUnwrap(s.outcome)
        XCTAssertEqual(o.winners.contains(0), o.scores[0] >= 70)
    }
}
