import TavoloCore
import TavoloGames
import TavoloTerminal
import XCTest

/// Briscola chiamata on the terminal: the auction's moves are offered, the call and the partner are shown only as
/// far as the seat may know.
final class BriscolaChiamataScreenTests: XCTestCase {
    /// Deck in card order, dealer 4: seat k holds the cards whose number is k mod 5.
    func chiamata() throws -> BriscolaState {
        try BriscolaState(players: 5, seed: 0, deck: Card.all, dealer: 4)
    }

    func bid(_ n: Int) throws -> BriscolaMove { .bid(try XCTUnwrap(ChiamataBid(wire: n))) }

    func testTheAuctionOffersBidsAndPass() throws {
        var state = try chiamata()
        try state.apply(try bid(3))  // seat 0
        let text = Fixtures.text(Fixtures.snapshot(state, mySeat: 1, seats: Fixtures.seats(5, mine: [1])))
        XCTAssertTrue(text.contains("auction"), text)
        XCTAssertTrue(text.contains("Auction   seat 0 Tre"), text)
        XCTAssertTrue(text.contains("Your moves  1 pass "), "the pass comes first: \(text)")
        XCTAssertTrue(text.contains("2 bid Re "), text)
        XCTAssertFalse(text.contains("bid Tre"), "a bid no higher than the Tre is offered: \(text)")
    }

    func testThePartnerIsSecretExceptToThePartner() throws {
        var state = try chiamata()
        try state.apply(try bid(10))  // seat 0: Re
        for _ in 0..<4 { try state.apply(.pass) }
        try state.apply(.call(try XCTUnwrap(Card(code: "10D"))))  // card 19: seat 4 holds it
        let declarer = Fixtures.text(Fixtures.snapshot(state, mySeat: 0, seats: Fixtures.seats(5, mine: [0])))
        XCTAssertTrue(declarer.contains("Called    Re di Denari (10D) by seat 0 (you)"), declarer)
        XCTAssertTrue(declarer.contains("Partner   secret until the called card is played"), declarer)
        XCTAssertFalse(declarer.contains("· partner"), declarer)
        let partner = Fixtures.text(Fixtures.snapshot(state, mySeat: 4, seats: Fixtures.seats(5, mine: [4])))
        XCTAssertTrue(partner.contains("Partner   you (nobody else knows"), partner)
        XCTAssertTrue(partner.contains("called: you are the partner"), partner)
    }
}
