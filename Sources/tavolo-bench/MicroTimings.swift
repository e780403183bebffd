import Crypto
import Dispatch
import Foundation
import TavoloCore
import TavoloNoise
import TavoloProtocol
import TavoloTable

/// Nanoseconds per call of the pieces a round trip is made of, on one thread without the network
/// (`tavolo-bench --profile micro`): where a round trip's microseconds go, without perf.
enum MicroTimings {
    static func run(pad: String) throws -> [(String, Double)] {
        let ping = Ping(seq: 12_345, pad: pad)
        let json = try WireJSON.encode(ping)
        var clock = Stopwatch()
        try timeJSON(ping, encoded: json, &clock)
        try timeSealing(json, &clock)
        return clock.figures
    }

    /// Times each call `n` times (after a tenth as many to warm up) and keeps nanoseconds a call.
    struct Stopwatch {
        var figures: [(String, Double)] = []

        mutating func time(_ label: String, _ n: Int = 200_000, _ body: () throws -> Void) rethrows {
            for _ in 0..<(n / 10) { try body() }
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<n { try body() }
            figures.append((label, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n)))
        }
    }

    /// The JSON a move passes through: the wire's messages, the journal's lines and a finished game's log.
    static func timeJSON(_ ping: Ping, encoded json: [UInt8], _ clock: inout Stopwatch) throws {
        try clock.time("JSON encode (Ping)") { _ = try WireJSON.encode(ping) }
        try clock.time("JSON encode, Foundation (Ping)") { _ = try CanonicalJSON.encodeWithFoundation(ping) }
        try clock.time("JSON decode (Ping)") { _ = try WireJSON.decode(Ping.self, json) }
        // What a node writes to its game journal for every move it applies (`{"move": {…}}`, PROTOCOL.md §9.9).
        let move = try CanonicalJSON.decode(
            GameLog.LoggedMove.self,
            Array(
                """
                {"after":"\(String(repeating: "cd", count: 32))","before":"\(String(repeating: "ab", count: 32))",
                "move":{"card":17,"row":2},"number":57,"seat":3,"text":"seat 3 plays 17 on row 2"}
                """.utf8))
        try clock.time("JSON encode (journal move)", 50_000) { _ = try GameJournal.Record.move(move).line() }
        // The moves of a complete game log, written by every node when a game ends (§9.6): a Spirits! game has ~140.
        let moves = [GameLog.LoggedMove](repeating: move, count: 140)
        try clock.time("JSON pretty (140 logged moves)", 500) { _ = try CanonicalJSON.encodePretty(moves) }
        clock.time("JSON syntax check") { _ = JSONSyntax.isWellFormed(json) }
    }

    /// Sealing a frame of `json`, and sealing then opening it with the receiver's nonce kept in step.
    static func timeSealing(_ json: [UInt8], _ clock: inout Stopwatch) throws {
        let frame = [UInt8](repeating: 0, count: FrameLimits.headerSize) + json
        let key = [UInt8](repeating: 7, count: 32)
        var sender = NoiseCipherState(key: key)
        var receiver = NoiseCipherState(key: key)
        var sealed = [UInt8](repeating: 0, count: frame.count + 16)
        var opened = [UInt8](repeating: 0, count: json.count)
        func sealFrame() throws {
            try frame.withUnsafeBytes { raw in
                try sealed.withUnsafeMutableBytes { out in
                    try sender.seal(
                        UnsafeRawBufferPointer(rebasing: raw[FrameLimits.headerSize...]),
                        associatedData: UnsafeRawBufferPointer(rebasing: raw[..<FrameLimits.headerSize]),
                        into: UnsafeMutableRawBufferPointer(rebasing: out[FrameLimits.headerSize...]))
                }
            }
        }
        clock.time("seal (frame)") { try? sealFrame() }
        // Each seal with a fresh nonce, each open of that seal with the receiver's nonce kept in step.
        sender = NoiseCipherState(key: key)
        try clock.time("seal + open (frame)") {
            try sealFrame()
            try sealed.withUnsafeBytes { raw in
                try opened.withUnsafeMutableBytes { out in
                    try receiver.open(
                        UnsafeRawBufferPointer(rebasing: raw[FrameLimits.headerSize...]),
                        associatedData: UnsafeRawBufferPointer(rebasing: raw[..<FrameLimits.headerSize]),
                        into: out)
                }
            }
        }
        precondition(opened == json, "what was sealed opens to the same bytes")
    }
}
