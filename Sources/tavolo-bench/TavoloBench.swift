import ArgumentParser
import Crypto
import Foundation
import Logging
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

    @Option(help: "Nodes in the broadcast measurement.")
    var nodes = 6

    @Option(help: "Broadcasts sent by each node in the broadcast measurement.")
    var broadcasts = 5_000

    @Flag(help: "Round trips only (skips the broadcast), for profiling.")
    var roundTripsOnly = false

    @Flag(help: "Print one JSON object.")
    var json = false

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
        let frameBytes = FrameLimits.headerSize + (try WireJSON.encode(message)).count
        let baseline = try PlainSocketPingPong.run(frameBytes: frameBytes, count: pings)
        let (reliable, unreliable) = try await Self.roundTrips(pings: pings, pad: message.pad)
        let onLoop = try await Self.loopRoundTrips(pings: pings, pad: message.pad)
        let raw = try await Self.loopRoundTrips(pings: pings, pad: message.pad, codable: false)
        let onLoopClear = try await Self.loopRoundTrips(pings: pings, pad: message.pad, clear: true)
        let meshSealed = try await Self.meshFormation(nodes: nodes, clear: false)
        let meshClear = try await Self.meshFormation(nodes: nodes, clear: true)
        let (delivered, seconds) =
            roundTripsOnly ? (0, 1) : try await Self.broadcastThroughput(nodes: nodes, each: broadcasts)
        let result = BenchResult(
            frameBytes: frameBytes, pings: pings,
            baseline: Percentiles(baseline), reliable: Percentiles(reliable), reliableOnLoop: Percentiles(onLoop),
            reliableRaw: Percentiles(raw), reliableOnLoopClear: Percentiles(onLoopClear),
            meshFormationSeconds: meshSealed, meshFormationClearSeconds: meshClear,
            unreliable: Percentiles(unreliable),
            broadcastNodes: nodes, broadcastMessagesReceived: delivered, broadcastSeconds: seconds,
            broadcastMessagesPerSecond: Double(delivered) / seconds)
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
                try? await b.send(p, to: m.from, on: m.channel)
            }
        }
        var replies = a.events.makeAsyncIterator()
        func measure(_ channel: MeshChannel) async throws -> [Double] {
            let warmup = pings / 10
            var samples: [Double] = []
            samples.reserveCapacity(pings)
            for i in 0..<(warmup + pings) {
                let start = DispatchTime.now().uptimeNanoseconds
                try await a.send(Ping(seq: i, pad: pad), to: b.id, on: channel)
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

    /// The same reliable ping-pong with both ends handled on the nodes' event loops (`setEventHandler` + `post`),
    /// as the table layer runs: each end decodes the ping and encodes its answer, but no task or thread hop.
    /// With `codable` false the JSON is encoded once up front and echoed as bytes: the transport alone.
    static func loopRoundTrips(pings: Int, pad: String, codable: Bool = true, clear: Bool = false) async throws
        -> [Double]
    {
        let nodes = try await makeNodes(2, prefix: codable ? "rttl" : "rttr", clear: clear)
        let (a, b) = (nodes[0], nodes[1])
        b.setEventHandler { event in
            guard case .message(let m) = event, m.channel == .reliable else { return }
            if !codable { return b.post(m.body, to: [m.from]) }
            guard let p = try? m.decode(Ping.self), let answer = try? WireJSON.encode(p) else { return }
            b.post(answer, to: [m.from])
        }
        let fixed = try WireJSON.encode(Ping(seq: 0, pad: pad))
        let warmup = pings / 10
        let samples: [Double] = await withCheckedContinuation { continuation in
            final class Run: @unchecked Sendable {  // confined to a's event loop
                var samples: [Double] = []
                var seq = 0
                var start: UInt64 = 0
            }
            let run = Run()
            @Sendable func ping() {
                run.start = DispatchTime.now().uptimeNanoseconds
                if !codable { return a.post(fixed, to: [b.id]) }
                if let bytes = try? WireJSON.encode(Ping(seq: run.seq, pad: pad)) { a.post(bytes, to: [b.id]) }
            }
            a.setEventHandler { event in
                guard case .message(let m) = event, m.channel == .reliable else { return }
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
        }
        for n in nodes { await n.shutdown() }
        return samples
    }

    /// Every node broadcasts `each` messages at once; returns the messages received by all nodes and the time taken.
    static func broadcastThroughput(nodes count: Int, each: Int) async throws -> (Int, Double) {
        let nodes = try await makeNodes(count, prefix: "bc")
        let expected = count * (count - 1) * each
        let received = Counter()
        let counters = nodes.map { n in
            Task {
                for await event in n.events {
                    if case .message = event {
                        if received.add(1) == expected { return }
                    }
                }
            }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in nodes {
                group.addTask {
                    for i in 0..<each { try await n.broadcast(Ping(seq: i, pad: "broadcast")) }
                }
            }
            try await group.waitForAll()
        }
        let deadline = Date().addingTimeInterval(60)
        while received.value < expected && Date() < deadline { try await Task.sleep(for: .milliseconds(1)) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        for c in counters { c.cancel() }
        for n in nodes { await n.shutdown() }
        return (received.value, seconds)
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

/// Microseconds.
struct Percentiles: Codable {
    var p50: Double
    var p99: Double
    var mean: Double
    init(_ samples: [Double]) {
        let s = samples.sorted()
        p50 = s.isEmpty ? 0 : s[s.count / 2]
        p99 = s.isEmpty ? 0 : s[min(s.count - 1, s.count * 99 / 100)]
        mean = s.isEmpty ? 0 : s.reduce(0, +) / Double(s.count)
    }
}

struct BenchResult: Encodable {
    var frameBytes: Int
    var pings: Int
    var baseline: Percentiles
    var reliable: Percentiles
    var reliableOnLoop: Percentiles
    /// On the loop, JSON encoded once and echoed as bytes: the transport alone.
    var reliableRaw: Percentiles
    /// On the loop, v1 wire in clear (no Noise): what encryption costs.
    var reliableOnLoopClear: Percentiles
    /// Nodes started and introduced until a full mesh, v2 (Noise XX) and v1.
    var meshFormationSeconds: Double
    var meshFormationClearSeconds: Double
    var unreliable: Percentiles
    var broadcastNodes: Int
    var broadcastMessagesReceived: Int
    var broadcastSeconds: Double
    var broadcastMessagesPerSecond: Double
    var reliableToBaselineP50: Double { reliable.p50 / baseline.p50 }
    var reliableOnLoopToBaselineP50: Double { reliableOnLoop.p50 / baseline.p50 }
    var reliableRawToBaselineP50: Double { reliableRaw.p50 / baseline.p50 }
    var sealedToClearP50: Double { reliableOnLoop.p50 / reliableOnLoopClear.p50 }

    enum CodingKeys: String, CodingKey {
        case frameBytes, pings, baseline, reliable, reliableOnLoop, reliableRaw, unreliable, broadcastNodes,
            broadcastMessagesReceived
        case broadcastSeconds, broadcastMessagesPerSecond, reliableToBaselineP50, reliableOnLoopToBaselineP50,
            reliableRawToBaselineP50
        case reliableOnLoopClear, meshFormationSeconds, meshFormationClearSeconds, sealedToClearP50
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(frameBytes, forKey: .frameBytes)
        try c.encode(pings, forKey: .pings)
        try c.encode(baseline, forKey: .baseline)
        try c.encode(reliable, forKey: .reliable)
        try c.encode(reliableOnLoop, forKey: .reliableOnLoop)
        try c.encode(reliableRaw, forKey: .reliableRaw)
        try c.encode(unreliable, forKey: .unreliable)
        try c.encode(broadcastNodes, forKey: .broadcastNodes)
        try c.encode(broadcastMessagesReceived, forKey: .broadcastMessagesReceived)
        try c.encode(broadcastSeconds, forKey: .broadcastSeconds)
        try c.encode(broadcastMessagesPerSecond, forKey: .broadcastMessagesPerSecond)
        try c.encode(reliableToBaselineP50, forKey: .reliableToBaselineP50)
        try c.encode(reliableOnLoopToBaselineP50, forKey: .reliableOnLoopToBaselineP50)
        try c.encode(reliableRawToBaselineP50, forKey: .reliableRawToBaselineP50)
        try c.encode(reliableOnLoopClear, forKey: .reliableOnLoopClear)
        try c.encode(meshFormationSeconds, forKey: .meshFormationSeconds)
        try c.encode(meshFormationClearSeconds, forKey: .meshFormationClearSeconds)
        try c.encode(sealedToClearP50, forKey: .sealedToClearP50)
    }

    var text: String {
        func f(_ p: Percentiles) -> String {
            String(format: "p50 %7.1f us  p99 %7.1f us  mean %7.1f us", p.p50, p.p99, p.mean)
        }
        return """
            plain TCP ping-pong (baseline) \(f(baseline))   (\(pings) round trips, \(frameBytes)-byte frames)
            mesh reliable round trip       \(f(reliable))   = \(String(format: "%.2f", reliableToBaselineP50)) x baseline p50 (async API)
            mesh reliable, on event loop   \(f(reliableOnLoop))   = \(String(format: "%.2f", reliableOnLoopToBaselineP50)) x baseline p50 (goal <= 2)
            mesh reliable, bytes echoed    \(f(reliableRaw))   = \(String(format: "%.2f", reliableRawToBaselineP50)) x baseline p50 (transport alone)
            mesh reliable, on loop, v1     \(f(reliableOnLoopClear))   sealed (v2) / clear (v1) p50 = \(String(format: "%.2f", sealedToClearP50)) (goal <= 1.3)
            mesh unreliable round trip     \(f(unreliable))
            \(broadcastNodes) fresh nodes to a full mesh   v2 (Noise XX) \(String(format: "%.3f", meshFormationSeconds)) s, v1 clear \(String(format: "%.3f", meshFormationClearSeconds)) s (goal <= 2 s)
            broadcast, \(broadcastNodes) nodes              \(String(format: "%.0f", broadcastMessagesPerSecond)) messages/s received (\(broadcastMessagesReceived) in \(String(format: "%.2f", broadcastSeconds)) s)
            """
    }
}
