import TavoloCore
import XCTest

@testable import TavoloGames

/// A race move's text (issue 28): said from the board of the seat that moved, once, with the tile it moved — not
/// from seat 0's board, and not "seat 0: seat 0: down" (the table adds the seat itself).
final class FifteenMoveTextTests: XCTestCase {
    func testARaceMoveIsSaidFromItsOwnSeatsBoard() throws {
        // Every racer starts from the same scramble: seat 0 slides once, so the two boards differ where the blank is
        // and one slide moves different tiles on each.
        var state = try FifteenState4(players: 2, seed: 9)
        try state.apply(state.boards[0].slides[0], seat: 0)
        let slide = try XCTUnwrap(
            state.boards[1].slides.first {
                state.boards[0].canSlide($0) && state.boards[0].tile(movedBy: $0) != state.boards[1].tile(movedBy: $0)
            })
        let tile1 = try XCTUnwrap(state.boards[1].tile(movedBy: slide))
        let text = state.describe(slide, seat: 1)
        XCTAssertEqual(text, "tile \(tile1) \(slide)")
        XCTAssertNotEqual(text, state.describe(slide, seat: 0), "seat 0's board moves another tile")
        XCTAssertFalse(text.contains("seat"), "the seat is the table's to say, once: \(text)")
        XCTAssertEqual(state.describe(.giveUp, seat: 1), "gives up")

    }
}
