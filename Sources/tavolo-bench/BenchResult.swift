import Foundation

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

/// Every figure of one run, with its in-process baselines. `scripts/bench mesh` adds the peers measured by other
/// programs (ENet, the C mesh) and prints the ratios to them.
struct BenchResult: Encodable {
    var frameBytes: Int
    var pings: Int
    /// Plain TCP ping-pong, blocking sockets (the reliable figures' baseline).
    var baseline: Percentiles
    /// Plain UDP ping-pong, blocking sockets (the unreliable figures' baseline).
    var udpBaseline: Percentiles
    /// The TCP ping-pong on two SwiftNIO event loops, bytes echoed by a bare handler: the event loop's share.
    var nioBaseline: Percentiles
    /// The UDP ping-pong on two SwiftNIO event loops, each datagram echoed by a bare handler.
    var nioUDPBaseline: Percentiles
    var reliable: Percentiles
    var reliableOnLoop: Percentiles
    /// On the loop, JSON encoded once and echoed as bytes: the transport alone.
    var reliableRaw: Percentiles
    /// On the loop, v1 wire in clear (no Noise): what encryption costs.
    var reliableOnLoopClear: Percentiles
    /// Nodes started and introduced until a full mesh, v2 (Noise XX) and v1.
    var meshFormationSeconds: Double
    var meshFormationClearSeconds: Double
    /// Through the async API (`send` awaited, answers from the `events` stream).
    var unreliable: Percentiles
    /// Both ends on their event loops (`postDatagram` + `setEventHandler`), sealed v2 datagrams.
    var unreliableOnLoop: Percentiles
    /// The same with bytes echoed (no JSON): the datagram transport alone, as ENet's unreliable ping-pong.
    var unreliableRaw: Percentiles
    var broadcastNodes: Int
    var broadcastEach: Int
    /// The size of one broadcast frame (header + JSON), for the C mesh to send the same.
    var broadcastFrameBytes: Int
    var broadcastMessagesReceived: Int
    var broadcastSeconds: Double
    var broadcastMessagesPerSecond: Double
    /// The broadcast as tables send it: `post` on each node's loop, events by handler, pre-encoded bytes.
    var broadcastOnLoopMessagesReceived: Int
    var broadcastOnLoopSeconds: Double
    var broadcastOnLoopMessagesPerSecond: Double

    var reliableToBaselineP50: Double { reliable.p50 / baseline.p50 }
    var reliableOnLoopToBaselineP50: Double { reliableOnLoop.p50 / baseline.p50 }
    var reliableRawToBaselineP50: Double { reliableRaw.p50 / baseline.p50 }
    var sealedToClearP50: Double { reliableOnLoop.p50 / reliableOnLoopClear.p50 }
    var unreliableToUDPP50: Double { unreliable.p50 / udpBaseline.p50 }
    var unreliableOnLoopToUDPP50: Double { unreliableOnLoop.p50 / udpBaseline.p50 }
    var nioToBaselineP50: Double { nioBaseline.p50 / baseline.p50 }
    var nioUDPToUDPP50: Double { nioUDPBaseline.p50 / udpBaseline.p50 }
    /// Issue 31's goals: the sealed transport on the loop against the bare event loop's echo, each channel.
    var reliableRawToNIOP50: Double { reliableRaw.p50 / nioBaseline.p50 }
    var unreliableRawToNIOUDPP50: Double { unreliableRaw.p50 / nioUDPBaseline.p50 }

    private enum CodingKeys: String, CodingKey {
        case frameBytes, pings, baseline, udpBaseline, nioBaseline, nioUDPBaseline
        case reliable, reliableOnLoop, reliableRaw, reliableOnLoopClear
        case meshFormationSeconds, meshFormationClearSeconds, unreliable, unreliableOnLoop, unreliableRaw
        case broadcastNodes, broadcastEach, broadcastFrameBytes, broadcastMessagesReceived, broadcastSeconds
        case broadcastMessagesPerSecond, broadcastOnLoopMessagesReceived, broadcastOnLoopSeconds
        case broadcastOnLoopMessagesPerSecond
        case reliableToBaselineP50, reliableOnLoopToBaselineP50, reliableRawToBaselineP50, sealedToClearP50
        case unreliableToUDPP50, unreliableOnLoopToUDPP50, nioToBaselineP50, nioUDPToUDPP50, reliableRawToNIOP50
        case unreliableRawToNIOUDPP50
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(frameBytes, forKey: .frameBytes)
        try c.encode(pings, forKey: .pings)
        try c.encode(baseline, forKey: .baseline)
        try c.encode(udpBaseline, forKey: .udpBaseline)
        try c.encode(nioBaseline, forKey: .nioBaseline)
        try c.encode(nioUDPBaseline, forKey: .nioUDPBaseline)
        try c.encode(reliable, forKey: .reliable)
        try c.encode(reliableOnLoop, forKey: .reliableOnLoop)
        try c.encode(reliableRaw, forKey: .reliableRaw)
        try c.encode(reliableOnLoopClear, forKey: .reliableOnLoopClear)
        try c.encode(meshFormationSeconds, forKey: .meshFormationSeconds)
        try c.encode(meshFormationClearSeconds, forKey: .meshFormationClearSeconds)
        try c.encode(unreliable, forKey: .unreliable)
        try c.encode(unreliableOnLoop, forKey: .unreliableOnLoop)
        try c.encode(unreliableRaw, forKey: .unreliableRaw)
        try c.encode(broadcastNodes, forKey: .broadcastNodes)
        try c.encode(broadcastEach, forKey: .broadcastEach)
        try c.encode(broadcastFrameBytes, forKey: .broadcastFrameBytes)
        try c.encode(broadcastMessagesReceived, forKey: .broadcastMessagesReceived)
        try c.encode(broadcastSeconds, forKey: .broadcastSeconds)
        try c.encode(broadcastMessagesPerSecond, forKey: .broadcastMessagesPerSecond)
        try c.encode(broadcastOnLoopMessagesReceived, forKey: .broadcastOnLoopMessagesReceived)
        try c.encode(broadcastOnLoopSeconds, forKey: .broadcastOnLoopSeconds)
        try c.encode(broadcastOnLoopMessagesPerSecond, forKey: .broadcastOnLoopMessagesPerSecond)
        try c.encode(reliableToBaselineP50, forKey: .reliableToBaselineP50)
        try c.encode(reliableOnLoopToBaselineP50, forKey: .reliableOnLoopToBaselineP50)
        try c.encode(reliableRawToBaselineP50, forKey: .reliableRawToBaselineP50)
        try c.encode(sealedToClearP50, forKey: .sealedToClearP50)
        try c.encode(unreliableToUDPP50, forKey: .unreliableToUDPP50)
        try c.encode(unreliableOnLoopToUDPP50, forKey: .unreliableOnLoopToUDPP50)
        try c.encode(nioToBaselineP50, forKey: .nioToBaselineP50)
        try c.encode(nioUDPToUDPP50, forKey: .nioUDPToUDPP50)
        try c.encode(reliableRawToNIOP50, forKey: .reliableRawToNIOP50)
        try c.encode(unreliableRawToNIOUDPP50, forKey: .unreliableRawToNIOUDPP50)
    }

    var text: String {
        func f(_ p: Percentiles) -> String {
            String(format: "p50 %7.1f us  p99 %7.1f us  mean %7.1f us", p.p50, p.p99, p.mean)
        }
        func r(_ x: Double) -> String { String(format: "%.2f", x) }
        return """
            plain TCP ping-pong (baseline) \(f(baseline))   (\(pings) round trips, \(frameBytes)-byte frames)
            plain UDP ping-pong (baseline) \(f(udpBaseline))
            NIO TCP echo, 2 event loops    \(f(nioBaseline))   = \(r(nioToBaselineP50)) x TCP p50 (the event loop alone)
            NIO UDP echo, 2 event loops    \(f(nioUDPBaseline))   = \(r(nioUDPToUDPP50)) x UDP p50 (the event loop alone)
            mesh reliable round trip       \(f(reliable))   = \(r(reliableToBaselineP50)) x TCP p50 (async API)
            mesh reliable, on event loop   \(f(reliableOnLoop))   = \(r(reliableOnLoopToBaselineP50)) x TCP p50
            mesh reliable, bytes echoed    \(f(reliableRaw))   = \(r(reliableRawToBaselineP50)) x TCP p50 (transport alone), \(r(reliableRawToNIOP50)) x the NIO TCP echo (issue 31: <= 1.3)
            mesh reliable, on loop, v1     \(f(reliableOnLoopClear))   sealed (v2) / clear (v1) p50 = \(r(sealedToClearP50))
            mesh unreliable round trip     \(f(unreliable))   = \(r(unreliableToUDPP50)) x UDP p50 (async API)
            mesh unreliable, on event loop \(f(unreliableOnLoop))   = \(r(unreliableOnLoopToUDPP50)) x UDP p50
            mesh unreliable, bytes echoed  \(f(unreliableRaw))   = \(r(unreliableRaw.p50 / udpBaseline.p50)) x UDP p50 (transport alone), \(r(unreliableRawToNIOUDPP50)) x the NIO UDP echo (issue 31: <= 1.3)
            \(broadcastNodes) fresh nodes to a full mesh   v2 (Noise XX) \(String(format: "%.3f", meshFormationSeconds)) s, v1 clear \(String(format: "%.3f", meshFormationClearSeconds)) s (goal <= 2 s)
            broadcast, \(broadcastNodes) nodes              \(String(format: "%.0f", broadcastMessagesPerSecond)) messages/s received (\(broadcastMessagesReceived) in \(String(format: "%.2f", broadcastSeconds)) s, \(broadcastFrameBytes)-byte frames; async API)
            broadcast, \(broadcastNodes) nodes, on loop      \(String(format: "%.0f", broadcastOnLoopMessagesPerSecond)) messages/s received (\(broadcastOnLoopMessagesReceived) in \(String(format: "%.2f", broadcastOnLoopSeconds)) s; post + handler, as tables)
            """
    }
}
