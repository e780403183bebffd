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
        let frame = [UInt8](repeating: 0, count: FrameLimits.headerSize) + json
        let key = [UInt8](repeating: 7, count: 32)
        var sender = NoiseCipherState(key: key)
        var receiver = NoiseCipherState(key: key)
        var figures: [(String, Double)] = []
        func time(_ label: String, _ n: Int = 200_000, _ body: () throws -> Void) rethrows {
            for _ in 0..<(n / 10) { try body() }
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<n { try body() }
            figures.append((label, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n)))
        }
        try time("JSON encode (Ping)") { _ = try WireJSON.encode(ping) }
        try time("JSON encode, Foundation (Ping)") { _ = try CanonicalJSON.encodeWithFoundation(ping) }
        try time("JSON decode (Ping)") { _ = try WireJSON.decode(Ping.self, json) }
        // What a node writes to its game journal for every move it applies (`{"move": {…}}`, PROTOCOL.md §9.9).
        let move = try CanonicalJSON.decode(
            GameLog.LoggedMove.self,
            Array(
                """
                {"after":"\(String(repeating: "cd", count: 32))","before":"\(String(repeating: "ab", count: 32))",
                "move":{"card":17,"row":2},"number":57,"seat":3,"text":"seat 3 plays 17 on row 2"}
                """.utf8))
        try time("JSON encode (journal move)", 50_000) { _ = try GameJournal.Record.move(move).line() }
        // The moves of a complete game log, written by every node when a game ends (§9.6): a Spirits! game has ~140.
        let moves = [GameLog.LoggedMove](repeating: move, count: 140)
        try time("JSON pretty (140 logged moves)", 500) { _ = try CanonicalJSON.encodePretty(moves) }
        time("JSON syntax check") { _ = JSONSyntax.isWellFormed(json) }
        var sealed = [UInt8](repeating: 0, count: frame.count + 16)
        var opened = [UInt8](repeating: 0, count: json.count)
        time("seal (frame)") {
            frame.withUnsafeBytes { raw in
                sealed.withUnsafeMutableBytes { out in
                    try? sender.seal(
                        UnsafeRawBufferPointer(rebasing: raw[FrameLimits.headerSize...]),
                        associatedData: UnsafeRawBufferPointer(rebasing: raw[..<FrameLimits.headerSize]),
                        into: UnsafeMutableRawBufferPointer(rebasing: out[FrameLimits.headerSize...]))
                }
            }
        }
        // Each seal with a fresh nonce, each open of that seal with the receiver's nonce kept in step.
        sender = NoiseCipherState(key: key)
        try time("seal + open (frame)") {
            try frame.withUnsafeBytes { raw in
                try sealed.withUnsafeMutableBytes { out in
                    try sender.seal(
                        UnsafeRawBufferPointer(rebasing: raw[FrameLimits.headerSize...]),
                        associatedData: UnsafeRawBufferPointer(rebasing: raw[..<FrameLimits.headerSize]),
                        into: UnsafeMutableRawBufferPointer(rebasing: out[FrameLimits.headerSize...]))
                }
            }
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
        return figures
    }
}
