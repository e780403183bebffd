import Foundation
import TavoloControl
import TavoloCore
import TavoloTable
import TavoloTestSupport
import XCTest

/// A person plays each game in the terminal (`tavolo play`, full screen, driven through tmux) against bots on two
/// real nodes: what the screen shows, the keys, the rules, quitting, Ctrl-C, reattaching, and the result.
final class TerminalPlayTests: DaemonTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        _ = try harness.start(2)
        try harness.eventually("two nodes meshed", seconds: 30) { harness.isFullMesh([0, 1]) }
    }

    var tavolo: String { harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path }

    /// Hosts a table on node 0 with `seats` (node index, bot or nil for the person), starts it, returns its id.
    func startTable(_ game: String, _ seats: [(node: Int, bot: String?)], sealed: Bool = false) throws -> TableID {
        let info = try client(0).call(.host(game: game, players: seats.count, sealed: sealed))
        try harness.eventually("node 1 sees \(info.id)", seconds: 15) {
            (try? client(1).call(.tables).contains { $0.id == info.id }) == true
        }
        for (i, s) in seats.enumerated() {
            _ = try client(s.node).call(.join(table: info.id, game: nil, seat: i, bot: s.bot))
        }
        try harness.eventually("seats taken", seconds: 15) {
            (try? client(0).call(.tables).first { $0.id == info.id }?.freeSeats.isEmpty) == true
        }
        _ = try client(0).call(.start(table: info.id))
        return info.id
    }

    func terminal(_ id: TableID, _ tag: String) throws -> TmuxTerminal {
        try TmuxTerminal(
            socket: "tavolo-\(tag)-\(harness.runID)",
            command: "\(tavolo) play \(id) --control \(harness.nodes[0].controlPath)")
    }

    /// Plays the person's turns with `keys` until the game is over; returns the last screen.
    func playToTheEnd(_ term: TmuxTerminal, keys: (String) -> [String]) throws -> String {
        for _ in 0..<2000 {
            let s = term.screen()
            if s.contains("Game over.") { return s }
            if s.contains("The table stopped") { break }
            if s.contains("▶ YOUR TURN") && s.contains("Your moves") {
                for k in keys(s) { term.send(k) }
                try term.waitFor("the move to be taken", seconds: 15) { $0 != s }
            } else {
                usleep(100_000)
            }
        }
        XCTFail("the game did not end: \(term.screen())")
        throw HarnessError("the game did not end")
    }

    /// After the end: the winner by seat owner, "you" only for the person's seat, and `q` closes cleanly.
    func checkResult(_ term: TmuxTerminal, _ screen: String, table id: TableID, scores: String) throws {
        let state = try client(0).call(.state(table: id))
        let winners = try XCTUnwrap(state.winners)
        let winnerLine = screen.split(separator: "\n").first { $0.hasPrefix("Winner") || $0.hasPrefix("Draw") } ?? ""
        if winners.contains(0) {
            XCTAssertTrue(screen.contains("You won."), screen)
        } else {
            XCTAssertFalse(winnerLine.contains("you"), "a bot of this node won, not the person: \(winnerLine)")
            if !winners.isEmpty { XCTAssertTrue(screen.contains("You lost."), screen) }
        }
        XCTAssertTrue(screen.contains(scores), screen)
        term.send("q")
        let end = try term.waitFor("tavolo play to exit") { $0.contains("EXIT=") && $0.contains("icanon") }
        XCTAssertTrue(end.contains("game over — "), end)
        XCTAssertTrue(end.contains("EXIT=0"), end)
        XCTAssertTrue(end.contains(" icanon") && !end.contains("-icanon"), "terminal restored: \(end)")
    }

    /// No text about a move, at either node, names a hand, a drawn card or a deal.
    func checkMoveTextsArePublic(_ id: TableID, forbidden: String) throws {
        let pattern = try NSRegularExpression(pattern: forbidden)
        for node in 0..<2 {
            let texts = try client(node).call(.state(table: id)).lastMoves
            for t in texts {
                XCTAssertNil(pattern.firstMatch(in: t, range: NSRange(t.startIndex..., in: t)), "node \(node): \(t)")
            }
        }
    }

    func testSpiritsInTheTerminal() throws {
        let id = try startTable("spirits", [(0, nil), (1, "heuristic"), (0, "random")])
        let term = try terminal(id, "sp")
        let first = try term.waitFor("the person's first turn") { $0.contains("▶ YOUR TURN — seat 0 — you (") }
        for text in [
            "Direction", "Fear      ", " / 7 [", "Pile      ", "Draw pile", "Your hand [", "hand 5 · ghosts 0",
        ] {
            XCTAssertTrue(first.contains(text), "\(text) missing:\n\(first)")
        }
        XCTAssertTrue(first.contains("seat 1  bot (heuristic) for \(harness.name(1))"), first)
        term.send("?")
        try term.waitFor("the rules") {
            $0.contains("Rules of Spirits!") && $0.contains("Fear total may never exceed 7")
        }
        term.send("Escape")
        try term.waitFor("the table again") { $0.contains("▶ YOUR TURN") }
        // SIGTERM gives the terminal back too; a new `tavolo play` takes the game up again.
        try term.signalProgram(SIGTERM)
        let out = try term.waitFor("tavolo play to end on SIGTERM") { $0.contains("EXIT=") && $0.contains("icanon") }
        XCTAssertTrue(out.contains("EXIT=143"), out)
        XCTAssertTrue(out.contains(" icanon") && !out.contains("-icanon"), "terminal restored after SIGTERM: \(out)")
        let again = try terminal(id, "sp2")
        try again.waitFor("the same turn again") { $0.contains("▶ YOUR TURN") }
        var turn = 0
        let last = try playToTheEnd(again) { _ in
            turn += 1
            return turn % 2 == 0 ? ["Right", "Enter"] : ["1", "Enter"]
        }
        try checkMoveTextsArePublic(id, forbidden: "hand [ROYGBP][1-3]|draws [ROYGBP][1-3]|deal: ")
        try checkResult(again, last, table: id, scores: "Ghosts (lower is better):")
    }

    /// Sealed, as `tavolo host spirits` deals by default: every flee was listed as `flee, open R1 (rejected: …)` (the
    /// node checked it against the placeholders of the hands it cannot see), and the end says the deck's verdict.
    func testSealedSpiritsInTheTerminal() throws {
        let id = try startTable("spirits", [(0, nil), (1, "heuristic"), (0, "random")], sealed: true)
        let term = try terminal(id, "sps")
        try term.waitFor("the person's first turn") { $0.contains("▶ YOUR TURN — seat 0 — you (") }
        var turn = 0
        let last = try playToTheEnd(term) { _ in
            turn += 1
            return turn % 2 == 0 ? ["Right", "Enter"] : ["1", "Enter"]
        }
        XCTAssertTrue(last.contains("Deck verified."), last)
        for node in 0..<2 {
            // Every move's text, from the node's complete game log.
            let file = URL(fileURLWithPath: harness.nodes[node].stateDir).appendingPathComponent("games/\(id).json")
            let log = try JSONDecoder().decode(GameLog.self, from: Data(contentsOf: file))
            let texts = log.moves.map(\.text)
            XCTAssertTrue(texts.contains { $0.contains("flees") }, "node \(node): no flee to check in this game")
            XCTAssertFalse(
                texts.contains { $0.contains("rejected") }, "node \(node): \(texts.filter { $0.contains("rejected") })")
        }
        try checkMoveTextsArePublic(id, forbidden: "hand [ROYGBP][1-3]|draws [ROYGBP][1-3]|deal: ")
        try checkResult(term, last, table: id, scores: "Ghosts (lower is better):")
    }

    func testBriscolaForFourInTheTerminal() throws {
        let id = try startTable("briscola", [(0, nil), (1, "strong"), (0, "emulator"), (1, "random")])
        let term = try terminal(id, "br")
        let first = try term.waitFor("the person's first turn") { $0.contains("▶ YOUR TURN") }
        for text in [
            "Trump     ", "On table  ", "seats 0+2 (your side)", "partner: seat 2", "partner: you", "Your hand ",
        ] {
            XCTAssertTrue(first.contains(text), "\(text) missing:\n\(first)")
        }
        term.send("q")
        try term.waitFor("the question") { $0.contains("Leave? You forfeit; a bot plays on.") }
        term.send("n")
        try term.waitFor("the table again") { $0.contains("←/→ choose") }
        let code = try NSRegularExpression(pattern: "Your moves +1 [^(]*\\(([0-9]+[CDSB])\\)")
        let last = try playToTheEnd(term) { s in
            guard let m = code.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)),
                let r = Range(m.range(at: 1), in: s)
            else { return ["Enter"] }
            return [String(s[r]), "Enter"]  // typed, e.g. 10B
        }
        try checkMoveTextsArePublic(id, forbidden: " from ")
        try checkResult(term, last, table: id, scores: "Points:")
    }

    func testOthelloInTheTerminalSurvivesCtrlCAndReattaches() throws {
        let id = try startTable("othello", [(0, nil), (1, "greedy")])
        try checkLineMode(id)
        let unknown = try runProcess(
            tavolo, ["play", "nope-1", "--control", harness.nodes[0].controlPath], environment: [:])
        XCTAssertEqual(unknown.status, 1, unknown.combined)
        XCTAssertEqual(unknown.combined, "tavolo: no table 'nope-1' is known [table/unknown]\n")
        var term = try terminal(id, "ot1")
        let first = try term.waitFor("the person's first turn") { $0.contains("▶ YOUR TURN") }
        XCTAssertTrue(first.contains(" 5  . . . X O + . .  5"), first)
        XCTAssertTrue(first.contains("Your moves  1 d3   2 c4   3 f5   4 e6"), first)
        for _ in 0..<4 {
            let s = try term.waitFor("the person's turn") { $0.contains("▶ YOUR TURN") && $0.contains("Your moves") }
            term.send("Right", "Enter")
            try term.waitFor("the move to be taken") { $0 != s }
        }
        try term.waitFor("the person's turn") { $0.contains("▶ YOUR TURN") && $0.contains("Your moves") }
        term.send("C-c")
        let out = try term.waitFor("tavolo play to end on SIGINT") { $0.contains("EXIT=") && $0.contains("icanon") }
        XCTAssertTrue(out.contains("EXIT=130"), out)
        XCTAssertTrue(out.contains(" icanon") && !out.contains("-icanon"), "terminal restored after Ctrl-C: \(out)")
        // Not silently (issue 34): the seat stays at the node, and the way back.
        XCTAssertTrue(out.contains("interrupted: \(id) goes on at your node (tavolo play \(id) to come back)"), out)
        // Reattach: the screen shows the position as it is now.
        term = try terminal(id, "ot2")
        let back = try term.waitFor("the position after reattaching") { $0.contains("▶ YOUR TURN") }
        let state = try client(0).call(.state(table: id))
        guard case .object(let obs) = state.observations.first, case .array(let discs) = obs["discs"] ?? .null,
            discs.count == 2
        else { return XCTFail("no Othello observation: \(state.observations)") }
        XCTAssertTrue(
            back.contains(
                "X black (seat 0): \(discs[0].jsonText) discs   O white (seat 1): \(discs[1].jsonText) discs"),
            back)
        let last = try playToTheEnd(term) { _ in ["Enter"] }
        try checkResult(term, last, table: id, scores: "Discs:")
    }

    /// A member that disappears pauses the table: the screen says who, for how long, and when a bot takes over as a
    /// local clock time and a countdown, once (issue 34: `Paused — paused: X lost since 2026-11-24T20:04:15Z`), and
    /// stays usable.
    func testALostPeerShowsOnTheStatusLine() throws {
        let id = try startTable("othello", [(0, nil), (1, "greedy")])
        let term = try terminal(id, "lost")
        try term.waitFor("the person's first turn") { $0.contains("▶ YOUR TURN") }
        harness.kill9(1)
        let screen = try term.waitFor("the pause line") { $0.contains("Paused for ") }
        let name = NSRegularExpression.escapedPattern(for: harness.name(1))
        let pause = try NSRegularExpression(
            pattern:
                "Paused for [0-9]+ (min|s)( [0-9]+ s)?: \(name) was lost at [0-2][0-9]:[0-5][0-9]:[0-5][0-9]; a bot "
                + "takes their seat at [0-2][0-9]:[0-5][0-9]:[0-5][0-9], in [0-9]+ (min|s)( [0-9]+ s)?, unless they come back"
        )
        let joined = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(
            separator: " ")
        XCTAssertNotNil(
            pause.firstMatch(in: joined, range: NSRange(joined.startIndex..., in: joined)), "the pause line: \(screen)")
        XCTAssertEqual(screen.components(separatedBy: "Paused").count, 2, "said once: \(screen)")
        XCTAssertTrue(screen.contains("> _"), "the prompt is still there: \(screen)")
        term.send("q")
        let out = try term.waitFor("tavolo play to close") { $0.contains("EXIT=") || $0.contains("Leave?") }
        if out.contains("Leave?") { term.send("d") }
        let end = try term.waitFor("tavolo play to exit") { $0.contains("EXIT=") && $0.contains("icanon") }
        XCTAssertTrue(end.contains("EXIT=0"), end)
        XCTAssertTrue(end.contains(" icanon") && !end.contains("-icanon"), end)
    }

    /// Without a terminal on stdin: the table as text, one clear line for a bad move, end of input detaches.
    func checkLineMode(_ id: TableID) throws {
        let run = try runProcess(
            tavolo, ["play", id.rawValue, "--control", harness.nodes[0].controlPath], input: Data("zz\n".utf8))
        let text = run.combined
        XCTAssertEqual(run.status, 0, text)
        XCTAssertTrue(text.contains("legal moves:\n   1) d3\n   2) c4\n   3) f5\n   4) e6"), text)
        XCTAssertTrue(text.contains("not one of your moves: zz (type a number 1-4 or a move as listed)"), text)
        XCTAssertTrue(text.contains("stopped watching"), text)
        XCTAssertFalse(text.contains("\u{1B}["), "no escapes without a terminal: \(text)")
    }
}
