import TavoloCore
import TavoloGames
import TavoloTerminal
import XCTest

final class TableScreenTests: XCTestCase {
    func c(_ s: String) throws -> SpiritsCard { try XCTUnwrap(SpiritsCard(s)) }

    func spirits() throws -> SpiritsState {
        try SpiritsState(
            testPlayers: 3,
            hands: [
                [c("R1"), c("Y2"), c("B3"), c("P3"), c("P3")], [c("O1"), c("O2"), c("G1"), c("G3")],
                [c("B1"), c("B2"), c("Y1"), c("Y3"), c("R2")],
            ],
            pile: [c("G2"), c("R3")], drawPile: [c("O3"), c("P1")], turn: 0, ghosts: [1, 0, 2], roundGhosts: [0, 0, 1])
    }

    func testSpiritsShowsFearPileDirectionHandsAndGhosts() throws {
        let s = Fixtures.snapshot(try spirits(), seats: Fixtures.seats(3, mine: [0, 1], bots: [1: "heuristic"]))
        let text = Fixtures.text(s)
        let expected = """
            Tavolo · Spirits! · table t1 · round 1 of 3
            ▶ YOUR TURN — seat 0 — you (alice)

            ▶ seat 0  you (alice)              hand 5 · ghosts 1
              seat 1  alice's bot (heuristic)  hand 4 · ghosts 0
              seat 2  bob                      hand 5 · ghosts 2 (1 this round)

            Direction clockwise (ascending seats: 0 → 1 → 2)
            Fear      5 / 7 [#####..]  (a new spirit must keep it at 7 or less)
            Pile      [G2] [R3]  top [R3] red 3: same colour mirrors, other colours add
            Draw pile 2 cards · out this round: 36
            Your hand [R1] [Y2] [B3] [P3] [P3]

            Your moves  1 R1   2 Y2

            > _  ←/→ choose · Enter play · or type a number or a move · ? rules · q quit
            """
        XCTAssertEqual(text, expected)
    }

    /// Issue 34: the pile is shown as played (the observation lists it by card: R2 O2 P3), its top last.
    func testSpiritsPileIsShownInTheOrderPlayed() throws {
        let state = try SpiritsState(
            testPlayers: 2, hands: [[c("B1"), c("P1"), c("P2")], [c("Y1")]], pile: [c("P3"), c("R2"), c("O2")],
            turn: 0)
        var s = Fixtures.snapshot(state)
        s.playedMoves = [#"{"play":"G1"}"#, #"{"play":"P3"}"#, #"{"play":"R2"}"#, #"{"play":"O2"}"#].map {
            Array($0.utf8)
        }
        XCTAssertTrue(Fixtures.text(s).contains("Pile      [P3] [R2] [O2]  top [O2]"), Fixtures.text(s))
    }

    func testSpiritsCardsAreDrawnInTheirColoursWithTheirLetters() throws {
        let s = Fixtures.snapshot(try spirits())
        let lines = TableScreen(width: 100, height: 40).lines(s, PlayController())
        let hand = try XCTUnwrap(lines.first { $0.text.hasPrefix("Your hand") })
        let ansi = ScreenRenderer(width: 100, height: 40, colour: true).encode(hand)
        XCTAssertTrue(ansi.contains("\u{1B}[1;7;38;5;196m[R1]"), "red 1, legal and selected (inverse): \(ansi)")
        XCTAssertTrue(ansi.contains("\u{1B}[1;4;38;5;226m[Y2]"), "yellow 2, legal (underlined): \(ansi)")
        XCTAssertTrue(ansi.contains("\u{1B}[1;2;38;5;33m[B3]"), "blue 3, not legal (dim): \(ansi)")
        var ui = PlayController()
        ui.selected = 1
        let selected = TableScreen(width: 100, height: 40).lines(s, ui).first { $0.text.hasPrefix("Your hand") }
        XCTAssertTrue(
            ScreenRenderer(width: 100, height: 40, colour: true).encode(try XCTUnwrap(selected)).contains(
                "\u{1B}[1;7;38;5;226m[Y2]"), "the selected card is inverse")
    }

    func testSomeoneElsesTurnIsNamedAndNoMovesAreOffered() throws {
        var state = try spirits()
        try state.apply(.play(try c("R1")))
        let text = Fixtures.text(Fixtures.snapshot(state, recent: ["1. seat 0: plays R1, a mirror of R3\nmore"]))
        XCTAssertTrue(text.contains("Waiting for seat 2 — bob to play"), text)
        XCTAssertTrue(text.contains("▶ seat 2"), text)
        XCTAssertTrue(text.contains("counter-clockwise"), text)
        XCTAssertFalse(text.contains("Your moves"), text)
        XCTAssertTrue(text.contains("Latest moves\n  1. seat 0: plays R1, a mirror of R3\n"), text)
    }

    func testBriscolaFourPlayersShowsTrumpTrickPointsAndPartners() throws {
        var state = try BriscolaState(players: 4, seed: 11)
        while state.turn.seat != 0 || state.table.isEmpty {
            try state.apply(try XCTUnwrap(state.legalMoves().first))
        }
        let s = Fixtures.snapshot(state, seats: Fixtures.seats(4, mine: [0, 2], bots: [2: "strong"]))
        let text = Fixtures.text(s)
        let trump = try XCTUnwrap(state.trumpCard)
        XCTAssertTrue(text.contains("Trump     \(trump.suit.name.uppercased()) — \(trump.name) (\(trump.code))"), text)
        XCTAssertTrue(text.contains("partner: seat 2 alice's bot (strong)"), text)
        XCTAssertTrue(text.contains("partner: you"), text)
        XCTAssertTrue(text.contains("partner: seat 3 bob"), text)
        XCTAssertTrue(text.contains("seats 0+2 (your side)"), text)
        for card in state.table { XCTAssertTrue(text.contains("\(card.name) (\(card.code))"), text) }
        for card in state.hands[0] { XCTAssertTrue(text.contains("Your moves") && text.contains(card.code), text) }
        for card in state.hands[1] where !state.hands[0].contains(card) {
            XCTAssertFalse(text.contains("(\(card.code))"), "another hand shows: \(text)")
        }
    }

    func testOthelloBoardMarksLegalSquaresAndCountsDiscs() throws {
        let s = Fixtures.snapshot(try OthelloState(players: 2, seed: 0), seats: Fixtures.seats(2, bots: [:]))
        let text = Fixtures.text(s)
        let expected = """
                a b c d e f g h
             8  . . . . . . . .  8
             7  . . . . . . . .  7
             6  . . . . + . . .  6
             5  . . . X O + . .  5
             4  . . + O X . . .  4
             3  . . . + . . . .  3
             2  . . . . . . . .  2
             1  . . . . . . . .  1
                a b c d e f g h
            X black (seat 0): 2 discs   O white (seat 1): 2 discs   + legal square
            """
        XCTAssertTrue(text.contains(expected), text)
        XCTAssertTrue(text.contains("Your moves  1 d3   2 c4   3 f5   4 e6"), text)
        XCTAssertTrue(text.contains("seat 1  bob                   white O · 2 discs"), text)
    }

    func testOthelloWithH8Occupied() {
        let state = OthelloState(black: 0xFFFF_FFFF_FFFF_FFFE & ~(1 << 62) & ~(1 << 9), white: 1 << 62 | 1, toMove: 1)
        let text = Fixtures.text(Fixtures.snapshot(state, mySeat: 1, seats: Fixtures.seats(2, mine: [1])))
        XCTAssertTrue(text.contains(" 8  X X X X X X O X  8"), text)
    }

    func testRulesAreOneKeyAway() throws {
        var ui = PlayController()
        let s = Fixtures.snapshot(try OthelloState(players: 2, seed: 0))
        XCTAssertEqual(ui.handle(.character("?"), s), .none)
        let text = Fixtures.text(s, ui, height: 20)
        XCTAssertTrue(text.hasPrefix("Rules of Othello\nOthello\n"), text)
        XCTAssertTrue(text.contains("brackets"), text)
    }

    func testQuitAsksFirst() throws {
        var ui = PlayController()
        let s = Fixtures.snapshot(try OthelloState(players: 2, seed: 0))
        _ = ui.handle(.character("q"), s)
        XCTAssertTrue(
            Fixtures.text(s, ui).contains(
                "Leave? You forfeit; a bot plays on. l: leave · d: detach (come back later) · other key: stay"))
    }

    func testTheStatusLineShowsLostPeersAndNoticesAboveThePrompt() throws {
        var s = Fixtures.snapshot(try OthelloState(players: 2, seed: 0))
        s.status = ["lost: bob (the table waits for them)"]
        var ui = PlayController()
        ui.notice = "not your turn yet"
        let lines = Fixtures.text(s, ui).split(separator: "\n")
        XCTAssertEqual(lines.suffix(2).first, "lost: bob (the table waits for them) · not your turn yet")
        XCTAssertTrue(lines.last?.hasPrefix("> _") == true)
    }

    func testAStoppedTableSaysSo() throws {
        var s = Fixtures.snapshot(try OthelloState(players: 2, seed: 0))
        s.phase = .stopped
        s.status = ["the table stopped: table/member-lost: bob was lost"]
        let text = Fixtures.text(s)
        XCTAssertTrue(text.contains("The table stopped before the end."), text)
        XCTAssertTrue(text.contains("the table stopped: table/member-lost: bob was lost\n> _  ? rules · q close"), text)
        XCTAssertFalse(text.contains("Your moves"), text)
    }

    func testAFleeIsExplainedAndItsMovesFitTheWidth() throws {
        let state = try SpiritsState(
            testPlayers: 2, hands: [[c("G2"), c("B1"), c("B3"), c("P1"), c("P2")], [c("R1")]],
            pile: [c("R2"), c("O2"), c("Y3")], turn: 0)
        let text = Fixtures.text(Fixtures.snapshot(state), width: 60)
        XCTAssertTrue(text.contains("No card of yours is legal: you flee (take a ghost)"), text)
        XCTAssertTrue(text.contains("Your moves  1 G2   2 B1   3 B3   4 P1   5 P2"), text)
        let wide = Fixtures.text(Fixtures.snapshot(state), width: 120)
        XCTAssertTrue(wide.contains("Your moves  1 flee, open G2   2 flee, open B1"), wide)
    }

    func testLongMoveTextsWrapUnderTheirNumber() throws {
        let long =
            "7. seat 1: plays O2, a mirror of O2: Fear stays 7; direction reverses to counter-clockwise; draws a card"
        let s = Fixtures.snapshot(try OthelloState(players: 2, seed: 0), recent: [long])
        let text = Fixtures.text(s, width: 60)
        XCTAssertTrue(
            text.contains(
                "  7. seat 1: plays O2, a mirror of O2: Fear stays 7;\n      direction reverses to counter-clockwise; draws a card"
            ),
            text)
    }
}
