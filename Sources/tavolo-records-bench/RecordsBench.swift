// swift-format-ignore-file: NeverForceUnwrap

// (fixed keys make a signer, and percentiles are taken of a non-empty sample)
import ArgumentParser
import Foundation
import Logging
import TavoloControl
import TavoloCore
import TavoloGames
import TavoloMesh
import TavoloProtocol
import TavoloRecords

/// `scripts/bench records`: the records database and its sync, measured in one process on real files and real
/// TCP on 127.0.0.1 (two in-process mesh nodes; discovery fed by hand, as `tavolo-bench` does).
///
/// - insert rate: one game per transaction, as a node records each game that ends; and 1,000 per transaction,
///   as an import or a sync batch does;
/// - query time with `--games` records stored: the leaderboards of every game, one game's, the latest 200
///   games, one player's games;
/// - sync time: `--sync` records that one node holds and the other lacks, from connection to the last stored;
/// - move latency next to the sync: a move-sized message A → B answered by B on its event loop (what a
///   `table.move` and its `table.confirm` cost on the same connection), idle and while the sync runs.
@main
struct RecordsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tavolo-records-bench", abstract: "Records: insert rate, leaderboard queries, LAN sync.")

    @Option(help: "Records in the database for the query measurements.") var games = 100_000
    @Option(help: "Records one node lacks in the sync measurement.") var sync = 10_000
    @Option(help: "Records inserted one per transaction.") var single = 2_000
    @Option(help: "Directory for the database files (default: a new temp directory, removed at the end).")
    var dir: String?
    @Option(
        help: ArgumentHelp(
            "Only write --sync records into DIR/records.sqlite (a state directory for a tavolod) and exit: for the table latency measurement of scripts/bench records.",
            valueName: "DIR"))
    var fill: String?

    /// The node whose bots play every bench game, and which signs them (§11.7): bench records count as real ones.
    static let signer = RecordSigner(identity: .init(), signingKey: .init())!

    /// `count` distinct records: at most 5,000 distinct Othello games (random bots), each reused under other
    /// table ids (the table id is in the body, so the id differs; the moves still replay), signed.
    static func makeRecords(_ count: Int) throws -> [SignedRecord] {
        let names = ["ann", "bob", "cat", "dan", "eve", "fay"]
        let distinct = min(count, 5_000)
        let games = try (0..<distinct).map { i in
            let r = try RecordFactory.playout(
                catalog: .standard, game: "othello", players: 2, seed: UInt64(i + 1), bot: "random",
                names: [names[i % 6], names[(i / 6 + 1 + i) % 6]], table: "T", endedAt: 0)
            var body = try r.decodedBody()
            body.seats = body.seats.map { .init(seat: $0.seat, node: signer.node, name: $0.name, bot: $0.bot) }
            return (String(decoding: try CanonicalJSON.encode(body), as: UTF8.self), body)
        }
        return (0..<count).map { i in
            var (text, body) = games[i % distinct]
            body.table = "bench-\(i + 1)"
            text = text.replacingOccurrences(of: #""table":"T""#, with: #""table":"bench-\#(i + 1)""#)
            let r = RecordedGame(body: Array(text.utf8), startedAt: nil, endedAt: 1_700_000_000_000 + Int64(i) * 1000)
            return SignedRecord(r, body, signatures: signer.sign(recordID: r.id).map { [$0] } ?? [])
        }
    }

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var h = StreamLogHandler.standardError(label: label)
            h.logLevel = ProcessInfo.processInfo.environment["RECORDS_BENCH_TRACE"] != nil ? .trace : .error
            return h
        }
        if let fill {
            try FileManager.default.createDirectory(atPath: fill, withIntermediateDirectories: true)
            let store = try RecordStore(path: fill + "/" + RecordStore.fileName, me: String(repeating: "0", count: 32))
            try store.insert(try Self.makeRecords(sync), source: .peer)
            say("wrote \(store.count) records to \(fill)/\(RecordStore.fileName)")
            return
        }
        let root =
            dir
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("records-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { if dir == nil { try? FileManager.default.removeItem(atPath: root) } }

        let count = max(games, sync, single)
        var t = Clock()
        let records = try Self.makeRecords(count)
        say(
            String(
                format: "made %d Othello records (at most 5,000 distinct games of random bots) in %.1f s", count,
                t.lap()))
        let main = try RecordStore(path: root + "/main.sqlite", me: String(repeating: "0", count: 32))
        try insertBench(main, records: records)
        try Self.queryBench(main)
        try main.close()

        try await Self.syncBench(records: Array(records.prefix(sync)), root: root)
        Foundation.exit(0)
    }

    /// Insert rates: `single` records one per transaction (as a node records each game that ends), then the rest
    /// up to `games` in transactions of 1,000 (as an import or a sync batch).
    func insertBench(_ main: RecordStore, records: [SignedRecord]) throws {
        var t = Clock()
        for r in records.prefix(single) { try main.insert([r], source: .local) }
        let singleSeconds = t.lap()
        say(
            String(
                format: "insert, one game per transaction:   %8.0f records/s  (%d in %.2f s)",
                Double(single) / singleSeconds, single, singleSeconds))
        var i = single
        while i < games {
            try main.insert(Array(records[i..<min(i + 1_000, games)]), source: .peer)
            i += 1_000
        }
        let batchSeconds = t.lap()
        say(
            String(
                format: "insert, 1,000 per transaction:      %8.0f records/s  (%d in %.2f s)",
                Double(games - single) / batchSeconds, games - single, batchSeconds))
    }

    /// The queries people run (`tavolo scores`, `tavolo history`) and a sync summary, the median of 5 each.
    static func queryBench(_ main: RecordStore) throws {
        var t = Clock()
        say("queries with \(main.count) records stored (median of 5):")
        for (label, query) in [
            (
                "scores, every game (leaderboards + achievements)",
                { _ = try main.scores(game: nil, catalog: .standard) }
            ),
            ("scores --game othello", { _ = try main.scores(game: "othello", catalog: .standard) }),
            ("history (latest 200)", { _ = try main.history(game: nil, player: nil) }),
            ("history --player ann (latest 200)", { _ = try main.history(game: nil, player: "ann") }),
            ("summary: 256 bucket digests", { _ = try main.bucketDigests() }),
        ] as [(String, () throws -> Void)] {
            var samples: [Double] = []
            for _ in 0..<5 {
                _ = t.lap()
                try query()
                samples.append(t.lap() * 1000)
            }
            say(
                "  " + label.padding(toLength: 50, withPad: " ", startingAt: 0)
                    + String(format: " %8.1f ms", samples.sorted()[2]))
        }
    }

    static func syncBench(records: [SignedRecord], root: String) async throws {
        let a = try RecordStore(path: root + "/a.sqlite", me: String(repeating: "a", count: 32))
        let b = try RecordStore(path: root + "/b.sqlite", me: String(repeating: "b", count: 32))
        try a.insert(records, source: .local)
        let nodes = try await makeNodes(2)
        let (na, nb) = (nodes[0], nodes[1])
        var logger = Logger(label: "bench.sync")
        logger.logLevel = ProcessInfo.processInfo.environment["RECORDS_BENCH_TRACE"] != nil ? .trace : .error
        let verifier = RecordVerifier(catalog: .standard)
        let open = unlimited
        let syncA = RecordSync(store: a, verifier: verifier, limits: open, logger: logger) { m, peer in
            if let bytes = try? CanonicalJSON.encode(m) { na.post(bytes, service: .records, to: [peer]) }
        }
        let syncB = RecordSync(store: b, verifier: verifier, limits: open, logger: logger) { m, peer in
            if let bytes = try? CanonicalJSON.encode(m) { nb.post(bytes, service: .records, to: [peer]) }
        }
        let tasks = [Task { await syncA.run() }, Task { await syncB.run() }]
        let pings = Pings()
        let moveBody = Array(
            #"{"move":"d3","number":12,"seat":0,"stateHash":"\#(String(repeating: "ab", count: 32))","table":"bench-1","type":"bench.move"}"#
                .utf8)
        nb.setEventHandler { event in
            guard case .message(let m) = event, m.channel == .reliable else { return }
            if m.service == .records { return syncB.post(.message(m.body, from: m.from)) }
            nb.post(m.body, service: .tables, to: [m.from])  // the confirmation of the "move"
        }
        na.setEventHandler { event in
            guard case .message(let m) = event, m.channel == .reliable else { return }
            if m.service == .records { return syncA.post(.message(m.body, from: m.from)) }
            pings.answered()
        }
        func moveLatencies(_ n: Int, while running: () -> Bool = { true }) async throws -> [Double] {
            try await Self.moveLatencies(n, from: na, to: nb, body: moveBody, pings: pings, while: running)
        }
        let idle = try await moveLatencies(200)
        if ProcessInfo.processInfo.environment["RECORDS_BENCH_TRACE"] != nil { say("idle latencies measured") }

        var clock = Clock()
        syncA.post(.connected(nb.id))
        syncB.post(.connected(na.id))
        let total = records.count
        let during = try await moveLatencies(100_000) { b.count < total }
        while b.count < total {
            if ProcessInfo.processInfo.environment["RECORDS_BENCH_TRACE"] != nil { say("b holds \(b.count)") }
            guard clock.elapsed < 300 else { throw BenchError("sync incomplete after 300 s: \(b.count) of \(total)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        let seconds = clock.lap()
        say(
            String(
                format: "sync: %d records one node lacks, over one connection: %.2f s (%.0f records/s)",
                total, seconds, Double(total) / seconds))
        say("move-sized message and its answer on the same connection (ms):")
        say("  idle          " + percentiles(idle))
        say("  during sync   " + percentiles(during))
        for t in tasks { t.cancel() }
        for n in nodes { await n.shutdown() }
    }

    /// Record quotas that hold nothing back. The shares of §11.3 are for strangers; the bench measures how fast two
    /// nodes sync when nothing holds them.
    static var unlimited: RecordQuotas.Limits {
        var open = RecordQuotas.Limits()
        (open.checksPerAddress, open.checks, open.storedPerPeer, open.storedFromPeers) = (
            .max / 2, .max / 2, .max / 2, .max / 2
        )
        (open.answerBytesPerPeer, open.answerBytesPerAddress, open.answerBytes) = (.max / 2, .max / 2, .max / 2)
        open.idsBytesPerSummary = .max / 2
        return open
    }

    /// Milliseconds from sending a move-sized message to its answer, one at a time, 10 ms apart, up to `n` of them
    /// or until `running` says stop.
    static func moveLatencies(
        _ n: Int, from na: MeshNode, to nb: MeshNode, body: [UInt8], pings: Pings, while running: () -> Bool
    ) async throws -> [Double] {
        var out: [Double] = []
        for _ in 0..<n {
            guard running() else { break }
            pings.sent()
            na.eventLoop.execute { na.post(body, service: .tables, to: [nb.id]) }
            while !pings.isAnswered { try await Task.sleep(for: .microseconds(100)) }
            out.append(pings.lastMs)
            try await Task.sleep(for: .milliseconds(10))
        }
        return out
    }

    static func percentiles(_ v: [Double]) -> String {
        guard !v.isEmpty else { return "no samples" }
        let s = v.sorted()
        func p(_ q: Double) -> Double { s[min(s.count - 1, Int(Double(s.count) * q))] }
        return String(
            format: "p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  (%d samples)", p(0.5), p(0.9), p(0.99), s.last!, s.count)
    }

    static func makeNodes(_ count: Int) async throws -> [MeshNode] {
        var made: [MeshNode] = []
        for i in 0..<count {
            var config = MeshConfiguration(name: "recbench\(i)")
            config.host = "127.0.0.1"
            var logger = Logger(label: "bench.\(i)")
            logger.logLevel = .error
            made.append(try await MeshNode.start(id: .random(), config: config, logger: logger))
        }
        for a in made {
            for b in made where a !== b {
                a.discovered(
                    DiscoveredNode(name: b.config.name, address: "127.0.0.1", port: b.tcpPort, txt: b.txtRecord))
            }
        }
        let deadline = Date().addingTimeInterval(10)
        for n in made {
            while await n.peerList().filter({ $0.state == .connected }).count < count - 1 {
                guard Date() < deadline else { throw BenchError("nodes did not connect within 10 s") }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        return made
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

struct Clock {
    var start = DispatchTime.now().uptimeNanoseconds
    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
    mutating func lap() -> Double {
        let e = elapsed
        start = DispatchTime.now().uptimeNanoseconds
        return e
    }
}

/// One outstanding "move" at a time: when it was sent and when its answer came.
final class Pings: @unchecked Sendable {
    private let lock = NSLock()
    private var sentAt: UInt64 = 0
    private var answeredAt: UInt64?
    func sent() {
        lock.withLock {
            sentAt = DispatchTime.now().uptimeNanoseconds; answeredAt = nil
        }
    }
    func answered() { lock.withLock { answeredAt = DispatchTime.now().uptimeNanoseconds } }
    var isAnswered: Bool { lock.withLock { answeredAt != nil } }
    var lastMs: Double { lock.withLock { Double((answeredAt ?? sentAt) - sentAt) / 1e6 } }
}

/// Writes a line at once (no stdio buffer): figures appear as they are measured, also into a pipe or a file.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
