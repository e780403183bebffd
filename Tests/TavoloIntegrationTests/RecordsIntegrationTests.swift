import Foundation
import TavoloControl
import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloRecordFormat
import TavoloRecords
import TavoloSimulation
import TavoloTable
import TavoloTestSupport
import XCTest

/// Records between real `tavolod` processes (issue 17): shared across the mesh, caught up by a node started
/// later, refused when tampered (a raw peer: its use is kept to this one test), kept through `kill -9`, and a
/// broken database file stops the start with one line naming the rebuild.
final class RecordsIntegrationTests: DaemonTestCase {

    func scores(_ i: Int) throws -> ScoreBoard { try client(i).call(.scores(game: nil)) }

    func history(_ i: Int) throws -> [RecordSummary] {
        try client(i).call(.history(game: nil, player: nil))
    }

    /// A table of `host`'s own bots, started: only `host` is a member.
    @discardableResult
    func botGame(on host: Int, _ game: String = "othello", players: Int = 2, bot: String = "random") throws -> TableID {
        let c = try client(host)
        let info = try c.call(.host(game: game, players: players))
        _ = try c.call(.fill(table: info.id, bot: bot))
        _ = try c.call(.start(table: info.id))
        return info.id
    }

    /// One node, once its control socket answers.
    func startOne() throws {
        try harness.start(1)
        try harness.eventually("the node answers", seconds: 30) { (try? history(0)) != nil }
    }

    /// What each node holds (two records of one table would be two ids for one game) and its log's last lines,
    /// for a failure message.
    func printHoldings(_ nodes: Range<Int>) {
        for i in nodes {
            let held = ((try? history(i)) ?? []).map {
                "\($0.table) \($0.outcome)\($0.stopCode.map { " " + $0 } ?? "") \($0.moves) moves id \($0.id.prefix(12)) mine \($0.mine) \($0.source)"
            }
            let log = (try? String(contentsOfFile: harness.nodes[i].logPath, encoding: .utf8)) ?? ""
            let sync = log.split(separator: "\n").filter { $0.contains("record") || $0.contains("peer") }.suffix(80)
            print(
                "node \(i) holds:\n  " + held.joined(separator: "\n  ") + "\nlog of records and peers:\n"
                    + sync.joined(separator: "\n") + "\nlog:\n" + harness.logTail(i, lines: 30))
        }
    }

    /// `tavolo history` lists node 0's own games, and names the LAN's others that `--all` adds after them (issue 34:
    /// the games of strangers flooded it).
    func checkHistoryShowsTheNodesOwnGamesFirst(_ mine: Set<String>) throws {
        let tavolo = harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path
        let control = ["--control", harness.nodes[0].controlPath]
        let own = try runProcess(tavolo, ["history"] + control)
        let ownLines = own.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(ownLines.count, mine.count + 1, own.combined)
        XCTAssertEqual(ownLines.last, "(1 game of other nodes on the LAN not shown: --all lists them)", own.stdout)
        XCTAssertTrue(ownLines.dropLast().allSatisfy { $0.contains("[mine]") }, own.stdout)
        let all = try runProcess(tavolo, ["history", "--all"] + control)
        let allLines = all.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(allLines.count, mine.count + 1, all.combined)
        XCTAssertEqual(allLines.map { $0.contains("[mine]") }, Array(repeating: true, count: mine.count) + [false])
    }

    func finishedCount(_ i: Int) -> Int { ((try? history(i)) ?? []).filter { $0.outcome == "finished" }.count }

    func testRecordsReachEveryNodeAndANodeStartedLaterCatchesUp() throws {
        // In a private circle of their own: nodes of tests running beside this one (same Avahi) would otherwise
        // connect and sync their games' records in (seen: seven records where four were counted).
        let passphrase = harness.root.appendingPathComponent("records-circle").path
        try Data("records of this test only\n".utf8).write(to: URL(fileURLWithPath: passphrase))
        // At debug level: a failure prints what the record sync did (`printHoldings`).
        let circle = [
            "--circle", "records-\(harness.runID)", "--circle-passphrase-file", passphrase, "--log-level", "debug",
        ]
        try harness.start(2, extraArguments: circle)
        // scrypt is slow on purpose (several seconds in a debug build on a loaded machine).
        try harness.eventually("a full mesh", seconds: 90) { harness.isFullMesh([0, 1]) }
        try botGame(on: 0)
        try botGame(on: 0, "briscola", bot: "random")
        try botGame(on: 1, "spirits", players: 3, bot: "random")
        // One table with both nodes seated.
        let c0 = try client(0)
        let shared = try c0.call(.host(game: "othello", players: 2))
        try harness.eventually("node 1 sees the table", seconds: 15) {
            ((try? client(1).call(.tables)) ?? []).contains { $0.id == shared.id }
        }
        _ = try c0.call(.join(table: shared.id, game: nil, seat: 0, bot: "random"))
        _ = try client(1).call(.join(table: shared.id, game: nil, seat: 1, bot: "random"))
        try harness.eventually("seats taken", seconds: 15) {
            ((try? c0.call(.tables)) ?? []).first { $0.id == shared.id }?.freeSeats.isEmpty
                == true
        }
        _ = try c0.call(.start(table: shared.id))

        // Generous: under CI load every move waits for durable game-log writes on both nodes.
        do {
            try harness.eventually("both nodes hold the 4 games", seconds: 150) {
                finishedCount(0) == 4 && finishedCount(1) == 4
            }
        } catch {
            printHoldings(0..<2)
            throw error
        }
        try harness.eventually("both leaderboards agree", seconds: 30) { (try? scores(0)) == (try? scores(1)) }
        let mine0 = Set(try history(0).filter(\.mine).map(\.table))
        let mine1 = Set(try history(1).filter(\.mine).map(\.table))
        XCTAssertEqual(mine0.count, 3, "node 0 played three of the four")
        XCTAssertEqual(mine1.count, 2, "node 1 played two of the four")
        XCTAssertEqual(mine0.intersection(mine1), [shared.id.rawValue])
        try checkHistoryShowsTheNodesOwnGamesFirst(mine0)

        try harness.startNode(extraArguments: circle)
        try harness.eventually("the late node joins the mesh", seconds: 90) { harness.isFullMesh([0, 1, 2]) }
        do {
            try harness.eventually("the late node shows the same leaderboard", seconds: 90) {
                (try? scores(2)) == (try? scores(0))
            }
        } catch {
            printHoldings(0..<3)
            throw error
        }
        XCTAssertEqual(try history(2).count, 4)
        XCTAssertTrue(try history(2).allSatisfy { !$0.mine && $0.source == "peer" })
        XCTAssertEqual(try scores(2).games.map(\.finished).reduce(0, +), 4)
    }

    func testATamperedRecordFromARawPeerIsRefusedAndTheGenuineOneKept() throws {
        try startOne()
        let port = try harness.status(0).tcpPort
        // An authenticated stranger (the real Noise handshake, its own key), with an id below the node's so the
        // node accepts the connection (the smaller id dials, §4.7).
        let key = RawPeer.strangerKey(below: [try XCTUnwrap(NodeID(hex: try harness.status(0).id))])
        let raw = try RawPeer(port: port)
        try raw.noiseHandshake(
            key: key,
            handshake: Handshake(
                version: 3, nodeId: RawPeer.nodeID(of: key), name: "forger", udpPort: 9, capabilities: ["tables"]))

        // The stranger's own bots' game, signed by it (§11.7): genuine. The same with the winner changed: signed too,
        // refused by the replay.
        let signer = try XCTUnwrap(RecordSigner(identity: key, signingKey: .init()))
        let genuine = try ownedBy(
            signer, RecordFactory.playout(catalog: .standard, game: "othello", players: 2, seed: 5, bot: "greedy"))
        var body = try genuine.decodedBody()
        XCTAssertFalse(body.winners.isEmpty, "seed 5 is not a draw")
        body.winners = body.winners == [0] ? [1] : [0]  // the loser claims the win, with a matching id
        let tampered = RecordedGame(body: try CanonicalJSON.encode(body), startedAt: nil, endedAt: genuine.endedAt)
        let message = RecordMessage.data([
            .init(tampered, signatures: [try XCTUnwrap(signer.sign(recordID: tampered.id))]),
            .init(genuine, signatures: [try XCTUnwrap(signer.sign(recordID: genuine.id))]),
        ])
        try raw.send(Frame.application(.records, try CanonicalJSON.encode(message)))

        var ack: RecordMessage?
        let deadline = Date().addingTimeInterval(20)
        while ack == nil, Date() < deadline {
            guard case .application(.records, let bytes) = try raw.readFrame() else { continue }
            if let m = try? CanonicalJSON.decode(RecordMessage.self, bytes), case .ack = m { ack = m }
        }
        XCTAssertEqual(ack, .ack(accepted: 1, refused: 1, refusedIDs: [tampered.id]))
        let ids = Set(try history(0).map(\.id))
        XCTAssertTrue(ids.contains(genuine.id))
        XCTAssertFalse(ids.contains(tampered.id))
        let log = try String(contentsOfFile: harness.nodes[0].logPath, encoding: .utf8)
        XCTAssertTrue(log.contains("refused: winners or scores are not the ones the moves give"), harness.logTail(0))
    }

    /// `record` with every seat owned by `signer`'s node.
    func ownedBy(_ signer: RecordSigner, _ record: RecordedGame) throws -> RecordedGame {
        var body = try record.decodedBody()
        body.seats = body.seats.map { .init(seat: $0.seat, node: signer.node, name: "forger", bot: $0.bot) }
        return RecordedGame(body: try CanonicalJSON.encode(body), startedAt: nil, endedAt: record.endedAt)
    }

    func testKill9DuringABatchOfGamesLosesNoGameReportedFinished() throws {
        // The game thread may be writing to the control socket when the node dies: an error, not a SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        try startOne()
        let events = try ControlClient(path: harness.nodes[0].controlPath, timeout: nil)
        try events.subscribe(kinds: [.finished])
        let finished = LockedSet()
        Thread.detachNewThread {
            while let e = try? events.nextEvent() { finished.insert(e.table.rawValue) }
        }
        // Games on a background thread, while this one kills the node once some have finished.
        let c = try client(0)
        let stop = LockedSet()
        Thread.detachNewThread {
            while stop.isEmpty {
                guard let info = try? c.call(.host(game: "othello", players: 2)) else { return }
                _ = try? c.call(.fill(table: info.id, bot: "random"))
                _ = try? c.call(.start(table: info.id))
                usleep(20_000)
            }
        }
        try harness.eventually("some games finished", seconds: 60) { finished.count >= 8 }
        harness.kill9(0)
        stop.insert("stop")
        events.close()
        let reported = finished.all
        try harness.restart(0)
        try harness.eventually("the node answers again", seconds: 30) { (try? history(0)) != nil }
        let recorded = Set(try history(0).map(\.table))
        XCTAssertTrue(reported.isSubset(of: recorded), "lost: \(reported.subtracting(recorded).sorted())")
        print("kill -9 after \(reported.count) games reported finished; \(recorded.count) recorded after restart")
    }

    func testABrokenDatabaseStopsTheStartWithOneLineAndTheRebuildRecoversTheGames() throws {
        try startOne()
        let table = try botGame(on: 0)
        try harness.eventually("the game is recorded", seconds: 60) { finishedCount(0) == 1 }
        harness.kill9(0)
        let state = harness.nodes[0].stateDir
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: state + "/records.sqlite" + suffix)
        }
        try Data(repeating: 0x5A, count: 32_768).write(to: URL(fileURLWithPath: state + "/records.sqlite"))

        let broken = runTavolod([
            "--state-dir", state, "--name", harness.name(0) + "x", "--control", harness.root.path + "/b.sock",
        ])
        XCTAssertEqual(broken.status, 1)
        let lines = broken.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, broken.stderr)
        XCTAssertTrue(broken.stderr.contains("--rebuild-records"), broken.stderr)

        let rebuilt = Process()
        rebuilt.executableURL = harness.binary
        let sock = harness.root.path + "/r.sock"
        rebuilt.arguments = [
            "--state-dir", state, "--name", harness.name(0) + "r", "--control", sock, "--rebuild-records",
        ]
        rebuilt.standardError = FileHandle.nullDevice
        try rebuilt.run()
        defer {
            rebuilt.terminate()
            rebuilt.waitUntilExit()
        }
        var tables: [String] = []
        try harness.eventually("the rebuilt node answers", seconds: 30) {
            tables =
                ((try? ControlClient(path: sock).call(.history(game: nil, player: nil))) ?? [])
                .map(\.table)
            return !tables.isEmpty
        }
        XCTAssertEqual(tables, [table.rawValue])
    }

    func testAfterASimulationEveryNodesLeaderboardsAgree() throws {
        let tavolo = harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo")
        let p = Process()
        p.executableURL = tavolo
        p.arguments = ["simulate", "--peers", "3", "--games", "2", "--game", "spirits", "--bot", "random", "--json"]
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = harness.root.path
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let report = try JSONDecoder().decode(Simulation.Report.self, from: data)
        XCTAssertEqual(report.scoresAgree, true)
    }

}

final class LockedSet: @unchecked Sendable {
    private let lock = NSLock()
    private var set = Set<String>()
    func insert(_ s: String) { _ = lock.withLock { set.insert(s) } }
    var all: Set<String> { lock.withLock { set } }
    var count: Int { lock.withLock { set.count } }
    var isEmpty: Bool { lock.withLock { set.isEmpty } }
}
