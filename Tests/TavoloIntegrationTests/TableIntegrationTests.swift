import Foundation
import TavoloControl
import TavoloCore
import TavoloDaemon
import TavoloMesh
import TavoloProtocol
import TavoloSimulation
import TavoloTable
import TavoloTestSupport
import XCTest

/// Tables between real `tavolod` processes (real Avahi, real sockets), with real misbehaving peers:
/// a host that injects a forged deal, and a node that injects raw table messages through its control
/// socket (`--test-allow-injection`). Every other node must catch them.
final class TableIntegrationTests: DaemonTestCase {

    /// Collects one node's table events of some kinds, on a background thread.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [TableEvent] = []
        private let client: ControlClient

        init(path: String, kinds: [TableEvent.Kind]) throws {
            client = try ControlClient(path: path, timeout: nil)
            try client.subscribe(kinds: kinds)
            let c = client
            Thread.detachNewThread { [weak self] in
                while let e = try? c.nextEvent() { self?.append(e) }
            }
        }

        private func append(_ e: TableEvent) { lock.withLock { list.append(e) } }
        var all: [TableEvent] { lock.withLock { list } }
        func close() { client.close() }
    }

    func waitFor(
        _ what: String, seconds: Double = 15, file: StaticString = #filePath, line: UInt = #line,
        _ condition: () throws -> Bool
    ) throws {
        try eventuallySync(what, within: seconds, file: file, line: line, condition)
    }

    /// Hosts a table on `host`, seats `seats[i]` (node index, bot or nil for a human) in order, returns its id.
    func table(host: Int, game: String, seats: [(node: Int, bot: String?)]) throws -> TableID {
        let info = try client(host).call(.host(game: game, players: seats.count))
        try waitFor("every node sees \(info.id)") {
            try seats.allSatisfy { s in
                try client(s.node).call(.tables).contains { $0.id == info.id }
            }
        }
        for (i, s) in seats.enumerated() {
            _ = try client(s.node).call(.join(table: info.id, game: nil, seat: i, bot: s.bot))
        }
        try waitFor("seats taken") {
            try client(host).call(.tables).first { $0.id == info.id }?.freeSeats.isEmpty == true
        }
        return info.id
    }

    /// The host deals a deck that is not the joint seed's shuffle: a forged first deal, injected as the host just
    /// before the start, reaches the others before the honest one on the same connections (a deal may come in any
    /// stage, and a deal number is taken once). Injected after the start it raced the seeding: the honest deal
    /// sometimes came first, and the forged one was rightly ignored.
    func testADealThatIsNotTheJointSeedsShuffleIsCaughtByEveryOtherNode() throws {
        _ = try harness.startNode(extraArguments: ["--test-allow-injection"])
        _ = try harness.start(2)
        try harness.eventually("full mesh of 3", seconds: 30) { harness.isFullMesh([0, 1, 2]) }
        let watchers = try (1...2).map { try Events(path: harness.nodes[$0].controlPath, kinds: [.stopped, .moved]) }
        defer { watchers.forEach { $0.close() } }
        let id = try table(host: 0, game: "spirits", seats: [(0, "random"), (1, "random"), (2, "random")])
        _ = try client(0).call(.inject(.deal(table: id, number: 1, cards: Array(0..<36))))
        _ = try client(0).call(.start(table: id))
        try waitFor("both honest nodes stop the table") {
            watchers.allSatisfy { $0.all.contains { $0.kind == .stopped } }
        }
        for w in watchers {
            XCTAssertEqual(w.all.first { $0.kind == .stopped }?.code, "deal/mismatch")
            XCTAssertFalse(w.all.contains { $0.kind == .moved }, "a move was played on a wrong deal")
        }
    }

    func testIllegalAndForeignMovesFromARealPeerAreRejectedByEveryOtherNode() throws {
        _ = try harness.startNode(extraArguments: ["--test-allow-injection"])
        _ = try harness.start(2)
        try harness.eventually("full mesh of 3", seconds: 30) { harness.isFullMesh([0, 1, 2]) }
        let watchers = try (1...2).map {
            try Events(path: harness.nodes[$0].controlPath, kinds: [.rejected, .moved, .stopped])
        }
        defer { watchers.forEach { $0.close() } }
        // Othello: node 0 plays black (seat 0, moves first), node 1 white; node 2 hosts and watches.
        let id = try table(host: 2, game: "othello", seats: [(0, nil), (1, nil)])
        _ = try client(2).call(.start(table: id))
        var state = try client(0).call(.state(table: id))
        try waitFor("black to play") {
            state = try client(0).call(.state(table: id))
            return state.turn == 0 && !state.legalMoves.isEmpty
        }
        let hash = try XCTUnwrap(state.stateHash)
        func inject(_ m: TableMessage) throws { _ = try client(0).call(.inject(m)) }
        // An illegal square for the right seat ("a1" decodes as an Othello move: illegal, not malformed).
        try inject(.move(table: id, number: 0, seat: 0, move: .string("a1"), stateHash: hash))
        try waitFor("illegal move rejected by nodes 1 and 2") {
            watchers.allSatisfy { $0.all.contains { $0.kind == .rejected } }
        }
        for w in watchers {
            XCTAssertEqual(w.all.first { $0.kind == .rejected }?.code, MoveErrorCode.illegal.rawValue)
        }
        // A legal move, but for white's seat, which node 0 does not own.
        let legal = try XCTUnwrap(state.legalMoves.first)
        try inject(.move(table: id, number: 0, seat: 1, move: legal, stateHash: hash))
        try waitFor("foreign move rejected") {
            watchers.allSatisfy { $0.all.contains { $0.code == "move/not-your-turn" } }
        }
        // The table goes on: the real move is accepted everywhere.
        _ = try client(0).call(.move(table: id, move: legal))
        try waitFor(
            "the legal move is applied by both: \(watchers.map { $0.all.map { "\($0.kind.rawValue) \($0.code ?? "") \($0.message ?? "")" } })"
        ) {
            watchers.allSatisfy { $0.all.contains { $0.kind == .moved } }
        }
        for w in watchers { XCTAssertFalse(w.all.contains { $0.kind == .stopped }) }
    }

    /// A stranger on the same network hosts, seeds and plays tables of its own the whole time a simulation runs:
    /// the simulation only ever touches its own tables, agrees, and its packet logs replay exactly its games.
    func testASimulationIgnoresAStrangersTables() throws {
        let stranger = try harness.startNode()
        try harness.eventually("the stranger's control socket", seconds: 10) { harness.peers(stranger) != nil }
        let strangerClient = try client(stranger)
        let progress = SharedProgress()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { done.signal() }
            for _ in 0..<200 {
                if progress.stopped { return }
                guard let t = try? strangerClient.call(.host(game: "othello", players: nil)) else {
                    Thread.sleep(forTimeInterval: 0.2)
                    continue
                }
                _ = try? strangerClient.call(.fill(table: t.id, bot: "random"))
                _ = try? strangerClient.call(.start(table: t.id))
                progress.count()
                Thread.sleep(forTimeInterval: 0.3)
            }
        }
        let tavolo = harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path
        let logs = harness.root.appendingPathComponent("pcap-stranger").path
        let sim = try run(
            tavolo,
            [
                "simulate", "--peers", "3", "--game", "spirits", "--bot", "random", "--games", "2", "--seed", "5",
                "--json",
                "--packet-logs", logs,
            ])
        progress.stop()
        done.wait()
        XCTAssertEqual(sim.status, 0, sim.stderr + sim.stdout)
        XCTAssertGreaterThan(progress.value, 2, "the stranger hosted too few tables to matter")
        let report = try JSONDecoder().decode(Simulation.Report.self, from: Data(sim.stdout.utf8))
        XCTAssertEqual(report.games.count, 2)
        XCTAssertTrue(report.games.allSatisfy(\.agree), "\(report.games.map { $0.stopped ?? "" })")
        let files = try FileManager.default.contentsOfDirectory(atPath: logs).filter { $0.hasSuffix(".pcapng") }
        XCTAssertEqual(files.count, 3)
        for f in files {
            let replay = try run(tavolo, ["log", "replay", "\(logs)/\(f)"])
            XCTAssertEqual(replay.status, 0, replay.stdout + replay.stderr)
            XCTAssertEqual(replay.stdout.components(separatedBy: "confirmed").count - 1, 2, replay.stdout)
        }
    }

    /// `tavolo simulate` with packet logs: every node agrees; each game equals the engine-only playout with its
    /// joint seed; every log replays; tshark with the dissector decodes as many frames as `tavolo log stats` counts.
    func testSixNodeSimulationAgreesMatchesPlayoutAndItsPacketLogsReplay() throws {
        let tavolo = harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path
        let logs = harness.root.appendingPathComponent("pcap").path
        let sim = try run(
            tavolo,
            [
                "simulate", "--peers", "6", "--game", "spirits", "--games", "2", "--seed", "11", "--json",
                "--packet-logs", logs,
            ])
        XCTAssertEqual(sim.status, 0, sim.stderr + sim.stdout)
        let report = try JSONDecoder().decode(Simulation.Report.self, from: Data(sim.stdout.utf8))
        XCTAssertEqual(report.games.count, 2)
        for g in report.games {
            XCTAssertTrue(g.agree, "\(g.table): \(g.stopped ?? "not stopped") \(g.finalHashes)")
            XCTAssertEqual(g.finalHashes.count, 6)
            XCTAssertEqual(Set(g.finalHashes.values).count, 1)
            let seed = try XCTUnwrap(g.jointSeed)
            let playout = try run(
                tavolo,
                [
                    "playout", "spirits", "--players", "6", "--games", "1", "--seed", String(seed), "--bots",
                    report.bot, "--json",
                ])
            let finalHash =
                (try JSONSerialization.jsonObject(with: Data(playout.stdout.utf8)) as? [String: Any])?["finalHash"]
                as? String
            XCTAssertEqual(
                finalHash, g.finalHashes.values.first, "mesh game differs from the engine-only game with seed \(seed)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: logs).filter { $0.hasSuffix(".pcapng") }
            .sorted()
        XCTAssertEqual(files.count, 6)
        for f in files {
            let path = "\(logs)/\(f)"
            let replay = try run(tavolo, ["log", "replay", path])
            XCTAssertEqual(replay.status, 0, replay.stdout + replay.stderr)
            XCTAssertEqual(replay.stdout.components(separatedBy: "confirmed").count - 1, 2, replay.stdout)
            let stats = try run(tavolo, ["log", "stats", path, "--json"])
            let object = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
            let frames = try XCTUnwrap(object["frames"] as? Int)
            let byType = try XCTUnwrap(object["byType"] as? [String: Any])
            XCTAssertEqual(
                Set(byType.keys),
                ["handshake", "heartbeat", "heartbeat-ack", "application", "compact", "goodbye"].filter {
                    byType[$0] != nil
                }
                .reduce(into: Set<String>()) { $0.insert($1) })
            XCTAssertNotNil(byType["application"])
            XCTAssertNotNil(byType["compact"], "moves and confirmations travel compact (PROTOCOL.md §13)")
            XCTAssertNotNil(byType["handshake"])
            if let tshark = which("tshark") {
                let dissector = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("Protocol/tavolo.lua").path
                let decoded = try run(
                    tshark,
                    ["-r", path, "-X", "lua_script:\(dissector)"] + Self.heuristicFirst + [
                        "-Y", "tavolo", "-T", "fields", "-e", "tavolo.type",
                    ])
                let count = decoded.stdout.split(separator: "\n").reduce(0) { $0 + $1.split(separator: ",").count }
                XCTAssertEqual(count, frames, "tshark and tavolo log stats disagree on \(f)")
                let malformed = try run(
                    tshark,
                    ["-r", path, "-X", "lua_script:\(dissector)"] + Self.heuristicFirst
                        + ["-Y", "_ws.malformed || _ws.expert.severity >= warning"])
                XCTAssertEqual(
                    malformed.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "", "malformed frames in \(f)")
            } else if ProcessInfo.processInfo.environment["CI"] == "true" {
                XCTFail("tshark is missing (scripts/setup installs it)")
            }
        }
    }

    /// Briscola (2 to 5 players: the solo game of 3 and the chiamata of 5 too) and Othello over real nodes: every
    /// node agrees, and each game equals the engine-only game with its joint seed.
    func testBriscolaAndOthelloOverTheMesh() throws {
        let tavolo = harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path
        let cases = [
            ("briscola", 2, "emulator"), ("briscola", 3, "random"), ("briscola", 4, "emulator"),
            ("briscola", 5, "random"), ("othello", 2, "greedy"),
        ]
        for (game, peers, bot) in cases {
            let sim = try run(
                tavolo,
                [
                    "simulate", "--peers", String(peers), "--game", game, "--games", "2", "--seed", "3", "--bot", bot,
                    "--json",
                ])
            XCTAssertEqual(sim.status, 0, "\(game) \(peers): \(sim.stderr) \(sim.stdout)")
            let report = try JSONDecoder().decode(Simulation.Report.self, from: Data(sim.stdout.utf8))
            for g in report.games {
                XCTAssertTrue(g.agree, "\(game) \(peers)")
                XCTAssertEqual(g.finalHashes.count, peers)
                let seed = try XCTUnwrap(g.jointSeed)
                let playout = try run(
                    tavolo,
                    [
                        "playout", game, "--players", String(peers), "--games", "1", "--seed", String(seed), "--bots",
                        bot, "--json",
                    ])
                let finalHash =
                    (try JSONSerialization.jsonObject(with: Data(playout.stdout.utf8)) as? [String: Any])?["finalHash"]
                    as? String
                XCTAssertEqual(finalHash, g.finalHashes.values.first, "\(game) \(peers) seed \(seed)")
            }
        }
    }

    /// Tavolo's dissector is heuristic: without these, a node's random port that another protocol registered
    /// (EtherCAT, X11, …) is decoded as that protocol and its frames go uncounted (PROTOCOL.md §8, tavolo.lua).
    static let heuristicFirst = ["-o", "tcp.try_heuristic_first:TRUE", "-o", "udp.try_heuristic_first:TRUE"]

    func run(_ path: String, _ args: [String]) throws -> ProcessOutput {
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = harness.root.path
        return try runProcess(path, args, environment: env)
    }

    func which(_ name: String) -> String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"]
        where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        return nil
    }
}

/// A counter and a stop flag shared with a background thread.
final class SharedProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    private var halted = false
    func count() { lock.withLock { n += 1 } }
    func stop() { lock.withLock { halted = true } }
    var value: Int { lock.withLock { n } }
    var stopped: Bool { lock.withLock { halted } }
}
