import Foundation
import TavoloControl
import TavoloCore
import TavoloTable
import TavoloTestSupport
import XCTest

/// What a person reads from the commands is words, not JSON, type names or library messages (issue 34).
final class CommandWordsTests: DaemonTestCase {
    var tavolo: String { harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path }

    func run(_ args: [String]) throws -> ProcessOutput {
        try runProcess(tavolo, args + ["--control", harness.nodes[0].controlPath])
    }

    /// One node, once its control socket answers.
    func startNode() throws {
        _ = try harness.start(1)
        try harness.eventually("the node answers", seconds: 30) {
            (try? client(0).call(.status)) != nil
        }
    }

    func othello() throws -> TableID {
        try startNode()
        return try othelloTable()
    }

    /// An Othello table of the running node's: its user at seat 0 against a greedy bot, seat 0 to play.
    func othelloTable() throws -> TableID {
        let info = try client(0).call(.host(game: "othello", players: 2))
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 0, bot: nil))
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 1, bot: "greedy"))
        _ = try client(0).call(.start(table: info.id))
        try harness.eventually("seat 0 to play", seconds: 15) {
            (try? client(0).call(.state(table: info.id)).legalMoves.isEmpty) == false
        }
        return info.id
    }

    /// `tavolo state` drew `seat 0 sees: {json}` and `legal moves: {"play":"G3"}`: now the board and the moves.
    func testStateShowsTheBoardAndTheMovesInTheGamesWords() throws {
        let id = try othello()
        let r = try run(["state", id.rawValue])
        XCTAssertEqual(r.status, 0, r.combined)
        XCTAssertTrue(r.stdout.contains("X black (seat 0): 2 discs   O white (seat 1): 2 discs"), r.stdout)
        XCTAssertTrue(r.stdout.contains("your moves: d3 · c4 · f5 · e6  (tavolo move \(id) MOVE)"), r.stdout)
        XCTAssertFalse(r.stdout.contains("sees:") || r.stdout.contains("{"), "no JSON: \(r.stdout)")
    }

    /// `host --seat` printed `seat 0: free` (the host's answer from before the seat was taken).
    func testHostWithASeatShowsTheSeatTaken() throws {
        try startNode()
        let r = try run(["host", "othello", "--seat"])
        XCTAssertEqual(r.status, 0, r.combined)
        XCTAssertTrue(r.stdout.contains("seat 0: \(harness.name(0))\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("seat 1: free"), r.stdout)
    }

    /// `tavolo join --bot` onto the third seat of a table whose first seats are this node's said `seat 0 at … is yours`
    /// (the node's first seat, not the one taken).
    func testJoinNamesTheSeatItTook() throws {
        try startNode()
        let info = try client(0).call(.host(game: "spirits", players: 3))
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 0, bot: nil))
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 1, bot: "random"))
        let r = try run(["join", "--table", info.id.rawValue, "--bot", "random"])
        XCTAssertEqual(r.status, 0, r.combined)
        XCTAssertTrue(r.stdout.hasPrefix("seat 2 at \(info.id) is yours\n"), r.stdout)
    }

    /// An illegal move printed the Othello boards before and after it as if played, then said it was not legal.
    func testAnIllegalMoveIsOneLineWithTheLegalOnes() throws {
        let id = try othello()
        let r = try run(["move", id.rawValue, "a1"])
        XCTAssertEqual(r.status, 1, r.combined)
        XCTAssertEqual(r.stderr, "tavolo: a1 is not one of your moves now; your moves: d3 · c4 · f5 · e6\n")
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(try client(0).call(.state(table: id)).moveNumber, 0)
        let ok = try run(["move", id.rawValue, "d3"])
        XCTAssertEqual(ok.status, 0, ok.combined)
    }

    /// `tavolo move` took a word only if the node decoded it as a move: `pass` in a Briscola chiamata auction (and a
    /// Spirits! flee, listed as `flee, open R1`) were listed as moves and then refused as malformed. A move named by
    /// its key or by its label is sent as the legal move it names.
    func testAMoveNamedAsTheListNamesItIsPlayed() throws {
        try startNode()
        let info = try client(0).call(.host(game: "briscola", players: 5, sealed: false))
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 0, bot: nil))
        for seat in 1..<5 { _ = try client(0).call(.join(table: info.id, game: nil, seat: seat, bot: "random")) }
        _ = try client(0).call(.start(table: info.id))
        try harness.eventually("seat 0 to bid", seconds: 30) {
            (try? client(0).call(.state(table: info.id)).legalMoves.isEmpty) == false
        }
        let before = try client(0).call(.state(table: info.id)).moveNumber ?? 0
        let r = try run(["move", info.id.rawValue, "pass"])
        XCTAssertEqual(r.status, 0, r.combined)
        try harness.eventually("the pass played", seconds: 15) {
            (try? client(0).call(.state(table: info.id)).moveNumber ?? 0).map { $0 > before } ?? false
        }
    }

    /// `tavolo state`, `move`, `leave` and `play` needed the table's id even at a node with one table: now the one
    /// table of the user's not over is taken, and with none (or several) one line says what to type.
    func testTheOneTableOfYoursNeedsNoId() throws {
        try startNode()
        let none = try run(["state"])
        XCTAssertEqual(none.status, 1, none.combined)
        XCTAssertEqual(none.stderr, "tavolo: no table of yours in play: name one (tavolo tables lists them)\n")
        let id = try othelloTable()
        let state = try run(["state"])
        XCTAssertEqual(state.status, 0, state.combined)
        XCTAssertTrue(state.stdout.hasPrefix("\(id)  othello for 2"), state.stdout)
        let move = try run(["move", "d3"])
        XCTAssertEqual(move.status, 0, move.combined)
        XCTAssertEqual(try client(0).call(.state(table: id)).moveNumber.map { $0 >= 1 }, true)
        _ = try client(0).call(.host(game: "spirits", players: 2))
        let two = try run(["state"])
        XCTAssertEqual(two.status, 1, two.combined)
        XCTAssertTrue(two.stderr.hasPrefix("tavolo: 2 tables of yours: name one of "), two.stderr)
    }

    /// `tavolo show` of a game still being played said `no recorded game of table … [records/unknown]`.
    func testShowingAGameInPlaySaysWhereToLook() throws {
        let id = try othello()
        let r = try run(["show", id.rawValue])
        XCTAssertEqual(r.status, 1, r.combined)
        XCTAssertEqual(r.stderr, "tavolo: \(id) is still being played: tavolo state \(id) shows it now\n")
    }

    /// Every SIGTERM with a client attached printed NIO's `ERROR: Cannot schedule tasks on an EventLoop that has
    /// already shut down`: the clients now go before the mesh's loop stops.
    func testSIGTERMWithAWatcherAttachedEndsCleanly() throws {
        let id = try othello()
        let watcher = try ControlClient(path: harness.nodes[0].controlPath, timeout: nil)
        try watcher.subscribe()
        _ = try client(0).call(.move(table: id, move: .string("d3")))
        _ = try watcher.nextEvent()
        harness.signal(0, SIGTERM)
        XCTAssertNotNil(harness.waitForExit(0, seconds: 30), "the node did not exit")
        let log = (try? String(contentsOfFile: harness.nodes[0].logPath, encoding: .utf8)) ?? ""
        XCTAssertTrue(log.contains("stopped"), log)
        XCTAssertFalse(log.contains("Cannot schedule tasks"), log)
    }
}
