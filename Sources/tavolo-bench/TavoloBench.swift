import ArgumentParser
import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers
import TavoloMesh
import TavoloProtocol

/// In-process mesh measurements for `scripts/bench mesh` (the script drives the `tavolod` processes itself):
/// reliable and unreliable round trips between two nodes, broadcast throughput in a six-node mesh, and a plain
/// blocking-socket TCP ping-pong of the same frame size as the baseline. Real TCP/UDP on 127.0.0.1; discovery
/// is fed by hand (DNS-SD is not what is measured here).
@main
struct TavoloBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tavolo-bench", abstract: "Mesh round trips and throughput against a plain-socket baseline.")

    @Option(help: "Ping-pongs per round-trip measurement (after 10% warm-up).")
    var pings = 5_000

    @Option(help: "Padding bytes in the ping message (its JSON is about 30 bytes more).")
    var pad = 32

    @Option(help: "Nodes in the broadcast measurement; players (and table directories) with --profile table.")
    var nodes = 6

    @Option(help: "Broadcasts sent by each node in the broadcast measurement.")
    var broadcasts = 5_000

    @Flag(help: "Round trips only (skips the broadcast), for profiling.")
    var roundTripsOnly = false

    @Option(help: "With --profile table: the games to play.")
    var games = 20

    @Flag(help: "Print one JSON object.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Runs one on-loop round trip only and prints its figures, for perf (raw, raw-clear, loop, clear, datagram, raw-datagram or broadcast), times the pieces of one (micro), plays six-player games through six in-process table directories (table), or times sealed deals and moves (sealed).",
            valueName: "phase"))
    var profile: String?

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var h = StreamLogHandler.standardError(label: label)
            h.logLevel = .error
            return h
        }
        // A lost datagram (or a bug) must not hang the benchmark forever.
        let watchdog = Thread {
            Thread.sleep(forTimeInterval: 300)
            FileHandle.standardError.write(Data("tavolo-bench: watchdog: still running after 300 s\n".utf8))
            Foundation.exit(3)
        }
        watchdog.start()

        let message = Ping(seq: 0, pad: String(repeating: "x", count: pad))
        if let profile { try await runProfile(profile, message) } else { try await runAll(message) }
    }

    /// `--profile`: one phase alone, for perf.
    func runProfile(_ profile: String, _ message: Ping) async throws {
        if profile == "micro" {
            for (label, ns) in try MicroTimings.run(pad: message.pad) {
                print(label.padding(toLength: 32, withPad: " ", startingAt: 0) + String(format: " %8.0f ns", ns))
            }
            return
        }
        if profile == "table" {
            guard games >= 1 else { throw ValidationError("--games must be at least 1") }
            let r = try TableMachineTimings.run(games: games, players: nodes)
            let perMove = r.seconds * 1e6 / Double(r.moves)
            print(
                String(
                    format:
                        "table: %d %d-player Spirits! games, %d moves, %d messages delivered in %.2f s: %.1f us a move "
                        + "for all %d table directories, %.1f us per node per move (no sockets, no event loop, no disk)",
                    r.games, nodes, r.moves, r.messages, r.seconds, perMove, nodes, perMove / Double(nodes)))
            return
        }
        if profile == "sealed" {
            try SealedReport.print()
            return
        }
        do {
            let samples: [Double]
            switch profile {
            case "raw": samples = try await Self.loopRoundTrips(pings: pings, pad: message.pad, codable: false)
            case "loop": samples = try await Self.loopRoundTrips(pings: pings, pad: message.pad)
            case "clear": samples = try await Self.loopRoundTrips(pings: pings, pad: message.pad, clear: true)
            case "raw-clear":
                samples = try await Self.loopRoundTrips(pings: pings, pad: message.pad, codable: false, clear: true)
            case "datagram":
                samples = try await Self.loopRoundTrips(pings: pings, pad: message.pad, channel: .unreliable)
            case "raw-datagram":
                samples = try await Self.loopRoundTrips(
                    pings: pings, pad: message.pad, codable: false, channel: .unreliable)
            case "broadcast":
                let (n, seconds) = try await Self.loopBroadcastThroughput(nodes: nodes, each: broadcasts)
                print(
                    String(
                        format: "broadcast on the loop: %.0f messages/s (%d in %.2f s)", Double(n) / seconds, n, seconds
                    ))
                return
            default:
                throw ValidationError(
                    "--profile: micro, table, raw, raw-clear, loop, clear, datagram, raw-datagram or broadcast, not '\(profile)'"
                )
            }
            let p = Percentiles(samples)
            print(
                String(
                    format: "%@: p50 %.1f us  p99 %.1f us  mean %.1f us  (%d round trips)", profile, p.p50, p.p99,
                    p.mean, pings))
            return
        }
    }

    /// Every figure of the wire: the baselines, round trips, mesh formation and broadcasts.
    func runAll(_ message: Ping) async throws {
        let frameBytes = FrameLimits.headerSize + (try WireJSON.encode(message)).count
        let baseline = try PlainSocketPingPong.run(frameBytes: frameBytes, count: pings)
        let udpBaseline = try PlainSocketPingPong.runUDP(frameBytes: frameBytes, count: pings)
        let nioBaseline = try await NIOPingPong.run(frameBytes: frameBytes, count: pings)
        let nioUDPBaseline = try await NIOUDPPingPong.run(frameBytes: frameBytes, count: pings)
        let (reliable, unreliable) = try await Self.roundTrips(pings: pings, pad: message.pad)
        let onLoop = try await Self.loopRoundTrips(pings: pings, pad: message.pad)
        let raw = try await Self.loopRoundTrips(pings: pings, pad: message.pad, codable: false)
        let onLoopClear = try await Self.loopRoundTrips(pings: pings, pad: message.pad, clear: true)
        let unreliableOnLoop = try await Self.loopRoundTrips(pings: pings, pad: message.pad, channel: .unreliable)
        let unreliableRaw = try await Self.loopRoundTrips(
            pings: pings, pad: message.pad, codable: false, channel: .unreliable)
        let meshSealed = try await Self.meshFormation(nodes: nodes, clear: false)
        let meshClear = try await Self.meshFormation(nodes: nodes, clear: true)
        let (delivered, seconds) =
            roundTripsOnly ? (0, 1) : try await Self.broadcastThroughput(nodes: nodes, each: broadcasts)
        let (deliveredOnLoop, secondsOnLoop) =
            roundTripsOnly ? (0, 1) : try await Self.loopBroadcastThroughput(nodes: nodes, each: broadcasts)
        // The broadcasts' seq runs to `broadcasts - 1`: the frame of the last one (the longest) stands for them all.
        let broadcastFrameBytes =
            FrameLimits.headerSize + (try WireJSON.encode(Ping(seq: broadcasts - 1, pad: "broadcast"))).count
        let result = BenchResult(
            frameBytes: frameBytes, pings: pings,
            baseline: Percentiles(baseline), udpBaseline: Percentiles(udpBaseline),
            nioBaseline: Percentiles(nioBaseline), nioUDPBaseline: Percentiles(nioUDPBaseline),
            reliable: Percentiles(reliable),
            reliableOnLoop: Percentiles(onLoop), reliableRaw: Percentiles(raw),
            reliableOnLoopClear: Percentiles(onLoopClear),
            meshFormationSeconds: meshSealed, meshFormationClearSeconds: meshClear,
            unreliable: Percentiles(unreliable), unreliableOnLoop: Percentiles(unreliableOnLoop),
            unreliableRaw: Percentiles(unreliableRaw),
            broadcastNodes: nodes, broadcastEach: broadcasts, broadcastFrameBytes: broadcastFrameBytes,
            broadcastMessagesReceived: delivered, broadcastSeconds: seconds,
            broadcastMessagesPerSecond: Double(delivered) / seconds,
            broadcastOnLoopMessagesReceived: deliveredOnLoop, broadcastOnLoopSeconds: secondsOnLoop,
            broadcastOnLoopMessagesPerSecond: Double(deliveredOnLoop) / secondsOnLoop)
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.sortedKeys]
            print(String(decoding: try enc.encode(result), as: UTF8.self))
        } else {
            print(result.text)
        }
    }

    /// Nodes of the v2 wire (a static key each, Noise-sealed), or with `clear` of the v1 wire, for comparison.
    static func makeNodes(_ count: Int, prefix: String, clear: Bool = false) async throws -> [MeshNode] {
        var made: [MeshNode] = []
        for i in 0..<count {
            var config = MeshConfiguration(name: "\(prefix)\(i)")
            config.host = "127.0.0.1"
            var logger = Logger(label: "bench.\(prefix)\(i)")
            logger.logLevel = .error
            var id = NodeID.random()
            if !clear {
                let key = Curve25519.KeyAgreement.PrivateKey()
                config.staticKey = key
                id = NodeID.derived(from: key.publicKey) ?? id
            }
            made.append(try await MeshNode.start(id: id, config: config, logger: logger))
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

    /// Seconds from introducing `nodes` fresh nodes to each other until all are fully connected (handshakes
    /// included): with Noise XX (v2) or in clear (v1).
    static func meshFormation(nodes count: Int, clear: Bool) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let made = try await makeNodes(count, prefix: clear ? "mfc" : "mfs", clear: clear)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        for n in made { await n.shutdown() }
        return seconds
    }

    /// A pings B, B answers each ping with the same value; A waits for each answer before the next ping.
    static func roundTrips(pings: Int, pad: String) async throws -> (reliable: [Double], unreliable: [Double]) {
        let nodes = try await makeNodes(2, prefix: "rtt")
        let (a, b) = (nodes[0], nodes[1])
        let echo = Task {
            for await event in b.events {
                guard case .message(let m) = event, let p = try? m.decode(Ping.self) else { continue }
                try? await b.send(p, service: .tables, to: m.from, on: m.channel)
            }
        }
        var replies = a.events.makeAsyncIterator()
        func measure(_ channel: MeshChannel) async throws -> [Double] {
            let warmup = pings / 10
            var samples: [Double] = []
            samples.reserveCapacity(pings)
            for i in 0..<(warmup + pings) {
                let start = DispatchTime.now().uptimeNanoseconds
                try await a.send(Ping(seq: i, pad: pad), service: .tables, to: b.id, on: channel)
                while true {
                    guard let event = await replies.next() else { throw BenchError("event stream ended") }
                    if case .message(let m) = event, m.channel == channel, let p = try? m.decode(Ping.self), p.seq == i
                    {
                        break
                    }
                }
                if i >= warmup { samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000) }
            }
            return samples
        }
        let reliable = try await measure(.reliable)
        let unreliable = try await measure(.unreliable)
        echo.cancel()
        for n in nodes { await n.shutdown() }
        return (reliable, unreliable)
    }

    /// The same ping-pong with both ends handled on the nodes' event loops (`setEventHandler` + `post` or
    /// `postDatagram`), as the table layer runs: each end decodes the ping and encodes its answer, but no task or
    /// thread hop. With `codable` false the JSON is encoded once up front and echoed as bytes: the transport alone.
    /// On the unreliable channel a ping or answer lost is sent again after 100 ms (never seen on loopback).
    static func loopRoundTrips(
        pings: Int, pad: String, codable: Bool = true, clear: Bool = false, channel: MeshChannel = .reliable
    ) async throws -> [Double] {
        let nodes = try await makeNodes(2, prefix: codable ? "rttl" : "rttr", clear: clear)
        let (a, b) = (nodes[0], nodes[1])
        @Sendable func post(_ node: MeshNode, _ body: [UInt8], to peer: NodeID) {
            if channel == .reliable {
                node.post(body, service: .tables, to: [peer])
            } else {
                node.postDatagram(body, service: .tables, to: [peer])
            }
        }
        b.setEventHandler { event in
            guard case .message(let m) = event, m.channel == channel else { return }
            if !codable { return post(b, m.body, to: m.from) }
            guard let p = try? m.decode(Ping.self), let answer = try? WireJSON.encode(p) else { return }
            post(b, answer, to: m.from)
        }
        let fixed = try WireJSON.encode(Ping(seq: 0, pad: pad))
        let warmup = pings / 10
        let samples: [Double] = await withCheckedContinuation { continuation in
            final class Run: @unchecked Sendable {  // confined to a's event loop
                var samples: [Double] = []
                var seq = 0
                var start: UInt64 = 0
                /// The seq seen by the last look of the lost-datagram watch.
                var watched = -1
            }
            let run = Run()
            @Sendable func ping() {
                run.start = DispatchTime.now().uptimeNanoseconds
                if !codable { return post(a, fixed, to: b.id) }
                if let bytes = try? WireJSON.encode(Ping(seq: run.seq, pad: pad)) { post(a, bytes, to: b.id) }
            }
            a.setEventHandler { event in
                guard case .message(let m) = event, m.channel == channel else { return }
                if codable {
                    guard let p = try? m.decode(Ping.self), p.seq == run.seq else { return }
                }
                if run.seq >= warmup {
                    run.samples.append(Double(DispatchTime.now().uptimeNanoseconds - run.start) / 1_000)
                }
                run.seq += 1
                if run.seq == warmup + pings { continuation.resume(returning: run.samples) } else { ping() }
            }
            // Handlers are installed on each loop in order; start once both are in place.
            b.eventLoop.execute { a.eventLoop.execute { ping() } }
            if channel == .unreliable {
                // One timer for the whole run, not one per ping: a round trip stuck for 100 ms is pinged again.
                a.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(100), delay: .milliseconds(100)) { task in
                    if run.seq == warmup + pings { return task.cancel() }
                    if run.seq == run.watched { ping() }
                    run.watched = run.seq
                }
            }
        }
        for n in nodes { await n.shutdown() }
        return samples
    }
}

struct Ping: Codable, Sendable {
    var seq: Int
    var pad: String
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    var value: Int { lock.withLock { n } }
    func add(_ k: Int) -> Int {
        lock.withLock {
            n += k; return n
        }
    }
}
