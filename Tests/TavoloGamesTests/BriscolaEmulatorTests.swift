import TavoloCore
import XCTest

@testable import TavoloGames

/// One test per rule of the seed's emulator (RULES.md Briscola rule 7). Trump is Bastoni (B) throughout;
/// each hand is chosen so every earlier rule of its list does not match.
final class BriscolaEmulatorTests: XCTestCase {
    func expect(
        hand: String, table: String?, plays expected: String, by rule: BriscolaEmulator.Rule,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let (c, r) = BriscolaEmulator.choose(
            hand: CardSet(cards(hand)), table: table.map { card($0) }, trump: .bastoni)
        XCTAssertEqual(c, card(expected), "card", file: file, line: line)
        XCTAssertEqual(r, rule, "rule", file: file, line: line)
    }

    // Leading.
    func testLead1LowestLiscio() { expect(hand: "7C 2D 1B", table: nil, plays: "2D", by: .leadLowestLiscio) }
    func testLead2LowestCarico() { expect(hand: "3C 8D 2B", table: nil, plays: "8D", by: .leadLowestCarico) }
    func testLead3LowestBriscola() { expect(hand: "2B 1B 10B", table: nil, plays: "2B", by: .leadLowestBriscola) }

    // Replying to a briscola.
    func testBriscola1HighestLiscio() {
        expect(hand: "5C 7D 1C", table: "4B", plays: "7D", by: .onBriscolaHighestLiscio)
    }
    func testBriscola2LowestCaricoUnderTenPoints() {
        expect(hand: "1C 9D 8S", table: "4B", plays: "8S", by: .onBriscolaLowestCaricoUnder10)
    }
    func testBriscola3LowestPointlessBriscola() {
        expect(hand: "1C 3D 6B 2B", table: "4B", plays: "2B", by: .onBriscolaLowestPointlessBriscola)
    }
    func testBriscola4LowestBriscolaBeatingACountingTableCard() {
        expect(hand: "1C 9B 3B", table: "10B", plays: "3B", by: .onBriscolaLowestBeatingBriscolaIfPoints)
    }
    func testBriscola5LowestCarico() {
        // The table card is worth nothing, so rule 4 does not apply even though 9B beats it.
        expect(hand: "1C 3D 9B", table: "4B", plays: "3D", by: .onBriscolaLowestCarico)
    }
    func testBriscola6LowestBriscola() {
        expect(hand: "9B 1B", table: "4B", plays: "9B", by: .onBriscolaLowestBriscola)
    }

    // Replying to a carico.
    func testCarico1HighestCaricoOfTheSuitThatBeatsIt() {
        expect(hand: "3C 1C 2D", table: "10C", plays: "1C", by: .onCaricoHighestBeatingCaricoOfSuit)
    }
    func testCarico2LowestBriscola() {
        // 3C does not beat the Asso, so rule 1 does not apply.
        expect(hand: "3C 5B 2B", table: "1C", plays: "2B", by: .onCaricoLowestBriscola)
    }
    func testCarico3HighestLiscio() {
        expect(hand: "7C 6D 1S", table: "8C", plays: "7C", by: .onCaricoHighestLiscio)
    }
    func testCarico4LowestCarico() {
        expect(hand: "3C 10D 8S", table: "1C", plays: "8S", by: .onCaricoLowestCarico)
    }

    // Replying to a liscio.
    func testLiscio1HighestCaricoOfTheSuitWhenReTreOrAsso() {
        expect(hand: "10C 8C 7D", table: "5C", plays: "10C", by: .onLiscioHighestBigCaricoOfSuit)
    }
    func testLiscio2HighestLiscioOfAnotherSuit() {
        // The highest carico of the suit is a Cavallo, so rule 1 does not apply.
        expect(hand: "9C 7D 4S", table: "5C", plays: "7D", by: .onLiscioHighestLiscioOtherSuit)
    }
    func testLiscio3LowestLiscioOfTheSuitThatDoesNotBeatIt() {
        expect(hand: "4C 7C 8C", table: "5C", plays: "4C", by: .onLiscioLowestNonBeatingLiscioOfSuit)
    }
    func testLiscio4HighestCaricoOfTheSuit() {
        expect(hand: "7C 8C 1B", table: "5C", plays: "8C", by: .onLiscioHighestCaricoOfSuit)
    }
    func testLiscio5LowestLiscio() {
        expect(hand: "7C 1B", table: "5C", plays: "7C", by: .onLiscioLowestLiscio)
    }
    func testLiscio6LowestCaricoAmongFanteCavalloRe() {
        expect(hand: "1D 10S 9D", table: "5C", plays: "9D", by: .onLiscioLowestFiguraCarico)
    }
    func testLiscio7LowestPointlessBriscola() {
        expect(hand: "1D 3S 4B", table: "5C", plays: "4B", by: .onLiscioLowestPointlessBriscola)
    }
    func testLiscio8LowestCarico() {
        expect(hand: "1D 3S 1B", table: "5C", plays: "3S", by: .onLiscioLowestCarico)
    }
    func testLiscio9LowestBriscola() {
        expect(hand: "1B 3B 10B", table: "5C", plays: "10B", by: .onLiscioLowestBriscola)
    }

    /// With four players the emulator replies to the card taking the trick, not the card led.
    func testFourPlayersReplyToTheCardTakingTheTrick() throws {
        let first = cards("2C 3C 4C 5C 6C 2B 8C 9C 10C 2D 3D 4D 7D")
        var s = try BriscolaState(players: 4, seed: 0, deck: first + Array(~CardSet(first)), dealer: 3)
        // Trump Denari (7D). Seat 0 holds 2C 6C 10C, seat 1 3C 2B 2D, seat 2 4C 8C 3D.
        try s.apply(BriscolaMove(card("2C")))
        try s.apply(BriscolaMove(card("2D")))  // seat 1 trumps
        var bot = BriscolaEmulatorBot()
        // Against the trump 2D seat 2 follows "replying to a briscola": highest liscio 4C.
        XCTAssertEqual(bot.chooseMove(in: s, seat: 2), BriscolaMove(card("4C")))
    }
}
