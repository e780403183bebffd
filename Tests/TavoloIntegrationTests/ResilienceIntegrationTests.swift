import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// A game survives a lost player (PROTOCOL.md §9.9–): real `tavolod` processes killed with `kill -9`, stopped with
/// SIGSTOP and restarted with their state directory, on real sockets and real Avahi.
final class ResilienceIntegrationTests: DaemonTestCase {
    /// Short heartbeats: a killed or stopped node is noticed in 1.5 s.
    override var heartbeat: (interval: Double, timeout: Double) { (0.3, 1.5) }

    func state(_ i: Int, _ id: TableID) throws -> TableState {
        try client(i).call(.state(table: id))
    }

    func waitFor(
        _ what: String, seconds: Double = 30, file: StaticString = #filePath, line: UInt = #line,
        _ condition: () throws -> Bool
    ) throws {
        let harness: DaemonHarness = harness
        try eventuallySync(
            what, within: seconds, file: file, line: line,
            context: {
                harness.nodes.indices.map { "--- \(harness.name($0)):\n\(harness.logTail($0, lines: 12))" }
                    .joined(separator: "\n")
            }, condition)
    }

    /// Hosts a table on `host` (with `grace` seconds when given), seats `seats[i]` in order and starts it.
    func startTable(host: Int, game: String, seats: [(node: Int, bot: String?)], grace: Int? = nil) throws -> TableID {
        let info = try client(host).call(.host(game: game, players: seats.count, grace: grace))
        // Which nodes do not list it yet, printed when that changes: this wait timed out twice in full runs
        // (never alone), and the node logs do not say which node missed the offer.
        var lastMissing: [Int] = []
        try waitFor("every node sees \(info.id)") {
            let missing = try seats.map(\.node).filter { n in
                !(try client(n).call(.tables).contains { $0.id == info.id })
            }
            if missing != lastMissing { print("startTable: \(info.id) not listed yet by nodes \(missing)") }
            lastMissing = missing
            return missing.isEmpty
        }
        for (i, s) in seats.enumerated() {
            _ = try client(s.node).call(.join(table: info.id, game: nil, seat: i, bot: s.bot))
        }
        try waitFor("seats taken") {
            try client(host).call(.tables).first { $0.id == info.id }?.freeSeats.isEmpty == true
        }
        _ = try client(host).call(.start(table: info.id))
        return info.id
    }

    /// Plays the first legal move for node `i`'s human seat once it is that seat's turn; returns the move number.
    @discardableResult
    func playHumanMove(_ i: Int, _ id: TableID) throws -> Int {
        var st = try state(i, id)
        try waitFor("node \(i)'s turn") {
            st = try state(i, id)
            return st.info.phase == .playing && st.turn.map { st.mySeats.contains($0) } == true
                && !st.legalMoves.isEmpty
        }
        _ = try client(i).call(.move(table: id, move: st.legalMoves[0]))
        return st.moveNumber ?? 0
    }

    /// Node `i`'s log of table `id` on disk: its journal while the game goes on, its complete log after (§9.9).
    func gameLog(_ i: Int, _ id: TableID) throws -> GameLog {
        try XCTUnwrap(SavedGames.load(stateDirectory: harness.nodes[i].stateDir, table: id), "no log of \(id) on disk")
    }

    // MARK: Durability and ids

    func testARestartedHostNeverReusesATableID() throws {
        try harness.start(1)
        try waitFor("node up") { try client(0).call(.tables).isEmpty }
        let first = try client(0).call(.host(game: "othello", players: 2)).id
        harness.kill9(0)
        try harness.restart(0)
        try waitFor("node up again") { try client(0).call(.tables).isEmpty }
        let second = try client(0).call(.host(game: "othello", players: 2)).id
        XCTAssertNotEqual(first, second, "a restarted host reused table id \(first)")
    }

    /// `kill -9` a member mid-game: its log on disk holds every move it had applied (and so confirmed).
    func testAKilledMembersLogHoldsEveryMoveItConfirmed() throws {
        try harness.start(2)
        try harness.eventually("full mesh of 2", seconds: 30) { harness.isFullMesh([0, 1]) }
        // Othello: node 0 plays black by hand, node 1's bot white; the game waits at each of black's turns.
        let id = try startTable(host: 0, game: "othello", seats: [(0, nil), (1, "greedy")])
        for _ in 0..<3 { try playHumanMove(0, id) }
        var applied = 0
        try waitFor("black to play again") {
            let st = try state(1, id)
            applied = st.moveNumber ?? 0
            return st.turn == 0 && applied == 6
        }
        let hash = try state(1, id).stateHash
        harness.kill9(1)
        let log = try gameLog(1, id)
        XCTAssertEqual(log.moves.count, applied, "moves on disk after kill -9")
        XCTAssertEqual(log.moves.last?.after, hash?.hex)
        XCTAssertEqual(log.moves.map(\.number), Array(0..<applied))
    }

    // MARK: Pause, resume, takeover, host succession

    /// A three-player Spirits! table of bots, one seat per node, node 0 hosting; returns once it reached `moves`.
    func spiritsUnderWay(grace: Int? = nil, moves: Int = 10) throws -> TableID {
        try harness.start(3)
        try harness.eventually("full mesh of 3", seconds: 30) { harness.isFullMesh([0, 1, 2]) }
        let id = try startTable(
            host: 0, game: "spirits", seats: [(0, "random"), (1, "random"), (2, "random")], grace: grace)
        try waitFor("move \(moves)") { (try state(0, id).moveNumber ?? 0) >= moves }
        return id
    }

    func finishedHashes(_ nodes: [Int], _ id: TableID, seconds: Double = 90) throws -> [TableState] {
        var states: [TableState] = []
        try waitFor("the game finishes on nodes \(nodes)", seconds: seconds) {
            states = try nodes.map { try state($0, id) }
            return states.allSatisfy { $0.info.phase == .finished }
        }
        XCTAssertEqual(Set(states.compactMap(\.stateHash)).count, 1, "final hashes differ")
        return states
    }

    func playoutHash(_ game: String, players: Int, seed: UInt64, bots: String) throws -> String? {
        let tavolo = harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path
        let out = try runProcess(
            tavolo,
            [
                "playout", game, "--players", String(players), "--games", "1", "--seed", String(seed), "--bots", bots,
                "--json",
            ])
        return (try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])?["finalHash"]
            as? String
    }

    /// kill -9 a member mid-game and restart it with its state dir: it reloads the table from its log, catches up,
    /// and the game finishes exactly as the engine-only game of the same seed.
    func testAMemberKilledAndRestartedCatchesUpAndTheGameFinishes() throws {
        let id = try spiritsUnderWay()
        harness.kill9(2)
        try waitFor("the others pause") { try (0...1).allSatisfy { try state($0, id).info.phase == .paused } }
        XCTAssertEqual(try state(0, id).absent, [harness.name(2)])
        XCTAssertNotNil(try state(0, id).pausedSince)
        try harness.restart(2)
        let states = try finishedHashes([0, 1, 2], id)
        XCTAssertTrue(states.allSatisfy { $0.takeovers.isEmpty })
        let seed = try XCTUnwrap(states[0].jointSeed)
        XCTAssertEqual(
            try playoutHash("spirits", players: 3, seed: seed, bots: "random"), states[0].stateHash?.hex,
            "the resumed game differs from the engine-only game of seed \(seed)")
        let log = try gameLog(2, id)
        XCTAssertEqual(log.moves.map(\.number), Array(0..<log.moves.count), "a move lost or applied twice")
    }

    /// SIGSTOP a member past the grace period: the two others are a majority of three, a bot takes its seat, and
    /// the game finishes on both; the log records the takeover and replays.
    func testABotTakesTheSeatOfAMemberStoppedPastTheGrace() throws {
        let id = try spiritsUnderWay(grace: 3)
        harness.signal(2, SIGSTOP)
        let states = try finishedHashes([0, 1], id)
        for st in states {
            XCTAssertEqual(st.takeovers.map(\.memberName), [harness.name(2)])
            XCTAssertEqual(st.takeovers.first?.seats, [2])
        }
        let log = try gameLog(0, id)
        let replay = try TableMachine(
            restoring: log, TableContext(me: log.table.host, myName: "replay", catalog: .standard))
        XCTAssertEqual(replay.session?.stateHash, states[0].stateHash)
        harness.signal(2, SIGCONT)
    }

    /// SIGSTOP a member past the grace period, then SIGCONT: it learns from the others' votes that a bot took its
    /// seat, drops any move it played alone, follows the rest of the game as a spectator of that seat, and ends with
    /// the same log as the two others: the same moves, takeover and final hashes (§9.12).
    func testAMemberVotedOutFollowsTheRestOfTheGameAsASpectator() throws {
        let id = try spiritsUnderWay(grace: 3)
        harness.signal(2, SIGSTOP)
        try waitFor("a bot takes node 2's seat") { try (0...1).allSatisfy { try !state($0, id).takeovers.isEmpty } }
        harness.signal(2, SIGCONT)
        let states = try finishedHashes([0, 1, 2], id)
        XCTAssertEqual(states[2].spectatorOf, [2])
        XCTAssertNil(states[0].spectatorOf)
        // The game log's end is written on the table shell's disk thread, a moment after the state says finished (a
        // full CI run read node 2's file before it held its final hashes): wait for every file to hold them.
        var logs: [GameLog] = []
        try waitFor("every node's game log to hold the final hashes") {
            logs = try (0...2).map { try gameLog($0, id) }
            return logs.allSatisfy { $0.finalHash != nil && $0.finalHashes == logs[0].finalHashes }
        }
        for (i, log) in logs.enumerated().dropFirst() {
            XCTAssertEqual(log.moves.map(\.move), logs[0].moves.map(\.move), "node \(i)'s moves")
            XCTAssertEqual(log.moves.map(\.after), logs[0].moves.map(\.after), "node \(i)'s hashes")
            XCTAssertEqual(log.takeovers ?? [], logs[0].takeovers ?? [], "node \(i)'s takeovers")
            XCTAssertEqual(log.finalHash, logs[0].finalHash, "node \(i)'s final hash")
            XCTAssertEqual(log.finalHashes, logs[0].finalHashes, "node \(i)'s final hashes")
        }
        XCTAssertEqual(logs[0].takeovers?.map(\.memberName), [harness.name(2)])
    }

    /// Kill the host mid-game: its seat goes to a bot and its jobs (the deals of the next rounds) to the remaining
    /// member first in the heirs' order (§9.13); the game finishes on the two others.
    func testTheGameFinishesWhenTheHostIsKilled() throws {
        let id = try spiritsUnderWay(grace: 3)
        harness.kill9(0)
        let states = try finishedHashes([1, 2], id)
        XCTAssertEqual(states[0].takeovers.map(\.memberName), [harness.name(0)])
        XCTAssertNotEqual(states[0].info.host.short, "")
        let ids = try [1, 2].map { try XCTUnwrap(NodeID(hex: try harness.status($0).id)) }
        let next = HeirOrder.first(of: ids, jointSeed: try XCTUnwrap(states[0].jointSeed))
        XCTAssertEqual(states[0].info.host, next, "the host's jobs go to the first in the heirs' order")
    }

    /// SIGSTOP a member within the grace period, then SIGCONT: its connections come back, it catches up, and the
    /// game finishes as the engine-only game of the same seed, with no takeover.
    func testAMemberStoppedWithinTheGraceComesBack() throws {
        let id = try spiritsUnderWay(grace: 120)
        harness.signal(2, SIGSTOP)
        try waitFor("the others pause") { try (0...1).allSatisfy { try state($0, id).info.phase == .paused } }
        harness.signal(2, SIGCONT)
        let states = try finishedHashes([0, 1, 2], id)
        XCTAssertTrue(states.allSatisfy { $0.takeovers.isEmpty })
        let seed = try XCTUnwrap(states[0].jointSeed)
        XCTAssertEqual(try playoutHash("spirits", players: 3, seed: seed, bots: "random"), states[0].stateHash?.hex)
    }
}
