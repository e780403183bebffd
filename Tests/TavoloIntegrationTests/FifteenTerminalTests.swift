import Foundation
import TavoloControl
import TavoloCore
import TavoloTable
import XCTest

/// The Fifteen-puzzle race in the terminal (`tavolo play` through tmux): arrows slide tiles, the opponent's board
/// moves live beside the person's, and giving up ends the person's race.
extension TerminalPlayTests {
    func testFifteenRaceInTheTerminal() throws {
        let id = try startTable("fifteen", [(0, nil), (1, "reduce@3")])
        let term = try terminal(id, "ff")
        let first = try term.waitFor("the person's board") { $0.contains("your board (seat 0)") }
        XCTAssertTrue(first.contains("seat 1:"), first)
        XCTAssertTrue(first.contains("Fifteen-puzzle race"), first)
        // Whatever the scramble, two of the four arrows slide a tile: the move count goes up.
        term.send("Up", "Left", "Down", "Right")
        let moved = try term.waitFor("the person's moves counted") { screen in
            screen.contains("4×4 · 2 moves") || screen.contains("4×4 · 3 moves") || screen.contains("4×4 · 4 moves")
        }
        XCTAssertTrue(moved.contains("your board"), moved)
        // The bot's board moves on the person's screen while the person does nothing.
        try term.waitFor("the opponent's board to move", seconds: 30) { screen in
            screen.range(of: #"seat 1: [1-9][0-9]* moves"#, options: .regularExpression) != nil
        }
        // Giving up asks first; any other key keeps racing, `y` gives up.
        term.send("g")
        _ = try term.waitFor("the give-up question") { $0.contains("Give up? You leave the race, unranked.") }
        term.send("y")
        let over = try term.waitFor("the race to end", seconds: 120) { $0.contains("Game over.") }
        let state = try client(0).call(.state(table: id))
        XCTAssertEqual(state.winners, [1], "the bot solved, the person gave up")
        XCTAssertTrue(over.contains("You lost."), over)
    }
}
