import Crypto
import Foundation

/// Where this node's joint-seed nonces come from, as a pure function of a key and a counter, so the table
/// machine needs no system randomness: the shell draws the key once, at start.
public struct NonceSource: Sendable {
    enum Kind: Sendable {
        /// HMAC-SHA256(key, "tavolo/nonce/v1" ‖ u64(k)): secret as long as the key is.
        case secret(key: [UInt8])
        /// `tavolo simulate --seed`: the reproducible nonce of PROTOCOL.md §9.3.
        case reproducible(seed: UInt64, nodeIndex: UInt64)
    }

    let kind: Kind
    /// Tables this node has seeded since it started (k).
    public private(set) var counter: UInt64 = 0

    /// Secret nonces from a fresh random key.
    public static func random() -> NonceSource { NonceSource(kind: .secret(key: JointSeed.randomNonce())) }

    /// The reproducible nonces of `tavolod --nonce-seed S --nonce-index I`.
    public static func reproducible(seed: UInt64, nodeIndex: UInt64) -> NonceSource {
        NonceSource(kind: .reproducible(seed: seed, nodeIndex: nodeIndex))
    }

    /// The next nonce (32 bytes).
    public mutating func next() -> [UInt8] {
        defer { counter += 1 }
        switch kind {
        case .reproducible(let seed, let index):
            return JointSeed.testNonce(seed: seed, nodeIndex: index, counter: counter)
        case .secret(let key):
            var message = Array("tavolo/nonce/v1".utf8)
            withUnsafeBytes(of: counter.bigEndian) { message += $0 }
            return Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        }
    }
}
