import Foundation
import TavoloControl
import TavoloCore
import TavoloTable
import TavoloTestSupport
import XCTest

/// Leaving says one thing (issue 34): `tavolo leave` said "a game in progress is lost for everyone", the leaver's
/// page "The table stopped … a bot plays their seats", the others still saw the leaver seated (and `state` said
/// "human") until the next move, and the bot that took the seat was "bob's bot", then announced as the winner.
final class LeaveIntegrationTests: DaemonTestCase {
    var tavolo: String { harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path }

    func tavolo(_ node: Int, _ args: [String]) throws -> ProcessOutput {
        try runProcess(tavolo, args + ["--control", harness.nodes[node].controlPath])
    }

    /// Othello between two nodes' people: node 0 black (to play first), node 1 white; `tavolo watch` at node 0
    /// listening from before the table exists.
    func othello() throws -> (TableID, WatchProcess) {
        _ = try harness.start(2)
        try harness.eventually("two nodes connected", seconds: 30) { harness.isFullMesh([0, 1]) }
        let watch = try WatchProcess(tavolo, ["watch", "--all", "--control", harness.nodes[0].controlPath])
        let probes = try watch.waitUntilSubscribed(harness, offering: client(1))
        for p in probes { _ = try? client(1).call(.leave(table: p)) }
        let info = try client(0).call(.host(game: "othello", players: 2))
        try harness.eventually("node 1 sees the table", seconds: 15) {
            (try? client(1).call(.tables).contains { $0.id == info.id }) == true
        }
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 0, bot: nil))
        _ = try client(1).call(.join(table: info.id, game: nil, seat: 1, bot: nil))
        try harness.eventually("both seats taken", seconds: 15) {
            (try? client(0).call(.state(table: info.id)).info.freeSeats.isEmpty) == true
        }
        _ = try client(0).call(.start(table: info.id))
        try harness.eventually("black to play", seconds: 15) {
            (try? client(0).call(.state(table: info.id)).legalMoves.isEmpty) == false
        }
        return (info.id, watch)
    }

    func testALeaverIsShownAsLeftAtOnceAndItsBotIsNamedForTheHeirEverywhere() throws {
        let (id, watch) = try othello()
        defer { watch.stop() }
        let (alice, bob) = (harness.name(0), harness.name(1))
        let bot = try XCTUnwrap(GameCatalog.standard["othello"]?.defaultBot)

        // The leaver is told what leaving did, in the words of the page and `tavolo play`.
        let left = try tavolo(1, ["leave", id.rawValue])
        XCTAssertEqual(left.status, 0, left.combined)
        XCTAssertEqual(
            left.stdout, "You left the game: it counts as lost for you; bot (\(bot)) for \(alice) plays seat 1 on\n")

        // The other sees it before any move: the seat is not bob's any more, a bot of its own node takes it.
        var state = try client(0).call(.state(table: id))
        try harness.eventually("alice's node agrees bob left", seconds: 15) {
            state = (try? client(0).call(.state(table: id))) ?? state
            return state.departures != nil
        }
        XCTAssertEqual(state.moveNumber, 0, "no move was played: the seat has not passed yet")
        XCTAssertEqual(state.seatNames?[1], "\(bob) (left: bot (\(bot)) for \(alice) takes over)")
        XCTAssertTrue(
            state.notices?.contains("\(bob) left the game (lost for them): bot (\(bot)) for \(alice) takes seat 1 now")
                == true, "\(state.notices ?? [])")
        let shown = try tavolo(0, ["state", id.rawValue])
        XCTAssertTrue(
            shown.stdout.contains("seat 1: \(bob) (left: bot (\(bot)) for \(alice) takes over)"), shown.stdout)
        XCTAssertFalse(shown.stdout.contains("human"), shown.stdout)

        // Alice plays; the bot answers for seat 1 and is named as alice's node's bot from then on.
        _ = try client(0).call(.move(table: id, move: .string("d3")))
        try harness.eventually("the bot plays seat 1", seconds: 15) {
            state = (try? client(0).call(.state(table: id))) ?? state
            return (state.moveNumber ?? 0) >= 2
        }
        XCTAssertEqual(state.seatNames?[1], "bot (\(bot)) for \(alice)")
        XCTAssertNil(state.departures)
        XCTAssertTrue(
            state.notices?.contains(
                "\(bob) left the game (lost for them): bot (\(bot)) for \(alice) plays seat 1 from move 2")
                == true, "\(state.notices ?? [])")

        // `tavolo watch` says the same, and which seat each move was, by whom.
        try harness.eventually("watch prints the bot's move", seconds: 15) { watch.output.contains("move 2, seat 1") }
        let said = watch.output
        XCTAssertTrue(
            said.contains(
                "\(id) updated: \(bob) left the game (lost for them): bot (\(bot)) for \(alice) takes seat 1 now"), said
        )
        XCTAssertTrue(said.contains("\(id) moved: move 1, seat 0 (\(alice)): "), said)
        XCTAssertTrue(said.contains("\(id) moved: move 2, seat 1 (bot (\(bot)) for \(alice)): "), said)
        XCTAssertFalse(said.contains("'s bot"), said)
    }
}

/// `tavolo watch` running in the background, its output collected (it runs until stopped). Its standard error
/// goes with the output, or, `errorsApart`, to `errors` (read once it has exited).
final class WatchProcess: @unchecked Sendable {
    private let process = Process()
    private let pipe = Pipe()
    private let errorPipe = Pipe()
    private let lock = NSLock()
    private var text = ""

    init(_ path: String, _ args: [String], errorsApart: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = args
        process.standardOutput = pipe
        process.standardError = errorsApart ? errorPipe : pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard !data.isEmpty else { return }
            self?.lock.withLock { self?.text += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    var output: String { lock.withLock { text } }
    var isRunning: Bool { process.isRunning }
    var terminationStatus: Int32 { process.terminationStatus }
    /// Its standard error, with `errorsApart`, once it has exited.
    var errors: String { String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }

    /// The barrier that it has subscribed (it prints nothing before its first event): `node` offers tables until
    /// watch prints one. Returns the tables offered, for the caller to leave.
    func waitUntilSubscribed(_ harness: DaemonHarness, offering node: ControlClient) throws -> [TableID] {
        var probes: [TableID] = []
        try harness.eventually("tavolo watch subscribed", seconds: 30) {
            if let t = try? node.call(.host(game: "othello", players: 2)) { probes.append(t.id) }
            Thread.sleep(forTimeInterval: 0.3)
            return output.contains(" offered")
        }
        return probes
    }

    func stop() {
        pipe.fileHandleForReading.readabilityHandler = nil
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
