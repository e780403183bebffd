import Crypto
import Foundation
import TavoloCore
import TavoloProtocol

/// The commit–reveal deal nobody can bias (PROTOCOL.md §9.3).
public enum JointSeed {
    public static let nonceLength = 32
    static let domain = Array("tavolo/joint-seed/v1".utf8)

    /// Hex SHA-256 of a nonce: what a node commits to before anyone reveals.
    public static func commitment(for nonce: [UInt8]) -> String {
        Array(SHA256.hash(data: nonce)).hexString
    }

    /// The game seed: the first 8 bytes, big-endian, of SHA-256("tavolo/joint-seed/v1" ‖ nonce₁ ‖ … ‖ nonceₖ),
    /// nonces in the order of each participant's first seat.
    public static func seed(nonces: [[UInt8]]) -> UInt64 {
        var h = SHA256()
        h.update(data: domain)
        for n in nonces { h.update(data: n) }
        return Array(h.finalize()).prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A fresh secret nonce from the system's secure generator.
    public static func randomNonce() -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<nonceLength).map { _ in UInt8.random(in: 0...255, using: &g) }
    }

    /// A reproducible nonce for `tavolo simulate --seed`: SHA-256("tavolo/test-nonce/v1" ‖ seed ‖ node index ‖ k),
    /// integers as u64 big-endian, where k counts the tables this node has seeded since it started.
    public static func testNonce(seed: UInt64, nodeIndex: UInt64, counter: UInt64) -> [UInt8] {
        var bytes = Array("tavolo/test-nonce/v1".utf8)
        for v in [seed, nodeIndex, counter] { withUnsafeBytes(of: v.bigEndian) { bytes += $0 } }
        return Array(SHA256.hash(data: bytes))
    }
}
