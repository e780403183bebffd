import TavoloCore
import TavoloGames
import TavoloTerminal
import XCTest

final class PlayControllerTests: XCTestCase {
    let start = Fixtures.snapshot(
        (try? OthelloState(players: 2, seed: 0)) ?? OthelloState(black: 0, white: 0, toMove: 0))

    func json(_ s: String) -> [UInt8] { Array("\"\(s)\"".utf8) }

    func testArrowsMoveTheSelectionAroundAndEnterPlaysIt() {
        var ui = PlayController()
        XCTAssertEqual(ui.handle(.left, start), .none)
        XCTAssertEqual(ui.selected, 3, "left from the first wraps to the last")
        _ = ui.handle(.right, start)
        _ = ui.handle(.down, start)
        XCTAssertEqual(ui.handle(.enter, start), .play(json("c4")))
    }

    func testTypedMovesByNumberOrNameAndOneClearErrorForOthers() {
        var ui = PlayController()
        for k in "F5" { _ = ui.handle(.character(k), start) }
        XCTAssertEqual(ui.handle(.enter, start), .play(json("f5")))
        for k in "4" { _ = ui.handle(.character(k), start) }
        XCTAssertEqual(ui.handle(.enter, start), .play(json("e6")))
        for k in "h9x" { _ = ui.handle(.character(k), start) }
        _ = ui.handle(.backspace, start)
        XCTAssertEqual(ui.typed, "h9")
        XCTAssertEqual(ui.handle(.enter, start), .none)
        XCTAssertEqual(ui.notice, "not one of your moves: h9 (type a number 1-4 or a move as listed)")
        XCTAssertEqual(ui.typed, "")
    }

    func testNothingIsPlayedWhenItIsNotYourTurn() throws {
        var state = try OthelloState(players: 2, seed: 0)
        try state.apply(try XCTUnwrap(OthelloMove(name: "d3")))
        var ui = PlayController()
        XCTAssertEqual(ui.handle(.enter, Fixtures.snapshot(state)), .none)
        XCTAssertEqual(ui.notice, "not your turn yet")
    }

    func testQuitConfirmsLeaveOffersDetachAndStaysOnAnyOtherKey() {
        var ui = PlayController()
        _ = ui.handle(.character("q"), start)
        XCTAssertEqual(ui.mode, .confirmQuit)
        XCTAssertEqual(ui.handle(.character("n"), start), .none)
        XCTAssertEqual(ui.mode, .table)
        _ = ui.handle(.character("q"), start)
        XCTAssertEqual(ui.handle(.character("l"), start), .leave)
        _ = ui.handle(.character("q"), start)
        XCTAssertEqual(ui.handle(.character("d"), start), .detach)
        XCTAssertEqual(ui.handle(.endOfInput, start), .detach)
    }

    /// `g` in a race asks first, as `q` does: giving up cannot be undone (issue 28: it used to leave at once).
    func testGivingUpARaceAsksFirst() throws {
        let race = Fixtures.snapshot(try FifteenState4(players: 2, seed: 3))
        let giveUp = Array(#""give-up""#.utf8)
        var ui = PlayController()
        XCTAssertEqual(ui.handle(.character("g"), race), .none)
        XCTAssertEqual(ui.mode, .confirmGiveUp(giveUp))
        XCTAssertTrue(Fixtures.text(race, ui).contains("Give up? You leave the race, unranked."))
        XCTAssertEqual(ui.handle(.character("n"), race), .none, "any other key keeps racing")
        XCTAssertEqual(ui.mode, .table)
        _ = ui.handle(.character("g"), race)
        XCTAssertEqual(ui.handle(.character("y"), race), .play(giveUp))
        let slides = [Key.up, .down, .left, .right].filter { key in
            var fresh = PlayController()
            if case .play = fresh.handle(key, race) { return true }
            return false
        }
        XCTAssertFalse(slides.isEmpty, "an arrow still slides at once")
    }

    func testAFinishedGameClosesWithoutAsking() {
        var over = start
        over.phase = .finished
        var ui = PlayController()
        XCTAssertEqual(ui.handle(.character("q"), over), .detach)
    }

    func testRulesScrollAndAnyOtherKeyReturns() {
        var ui = PlayController()
        _ = ui.handle(.character("?"), start)
        _ = ui.handle(.pageDown, start, rulesLines: 30, page: 10)
        _ = ui.handle(.down, start, rulesLines: 30, page: 10)
        XCTAssertEqual(ui.mode, .rules(offset: 11))
        _ = ui.handle(.end, start, rulesLines: 30, page: 10)
        XCTAssertEqual(ui.mode, .rules(offset: 20))
        _ = ui.handle(.character("x"), start)
        XCTAssertEqual(ui.mode, .table)
    }

    func testANewMoveClearsSelectionAndTyping() throws {
        var ui = PlayController()
        ui.sync(start)
        _ = ui.handle(.right, start)
        _ = ui.handle(.character("c"), start)
        ui.sync(start)
        XCTAssertEqual(ui.selected, 1)
        var next = start
        next.moveNumber = 2
        ui.sync(next)
        XCTAssertEqual(ui.selected, 0)
        XCTAssertEqual(ui.typed, "")
    }

    func testTheBellRingsOnceWhenItBecomesYourTurn() throws {
        var ui = PlayController()
        XCTAssertTrue(ui.ringsBell(for: start))
        XCTAssertFalse(ui.ringsBell(for: start), "not again for the same turn")
        var state = try OthelloState(players: 2, seed: 0)
        try state.apply(try XCTUnwrap(OthelloMove(name: "d3")))
        XCTAssertFalse(ui.ringsBell(for: Fixtures.snapshot(state)), "the other seat's turn")
        try state.apply(try XCTUnwrap(OthelloMove(name: "c3")))
        XCTAssertTrue(ui.ringsBell(for: Fixtures.snapshot(state)))
    }
}
