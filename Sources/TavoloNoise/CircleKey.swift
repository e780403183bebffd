import Crypto
import _CryptoExtras

/// The keys of a private circle (PROTOCOL.md §3.8): the Noise PSK from the circle's passphrase, and the public tag
/// advertised in DNS-SD.
public enum CircleKey {
    /// scrypt cost: N = 2^15, r = 8, p = 1 (32 MiB, RFC 7914's interactive figures). Slow on purpose: the PSK never
    /// crosses the wire, but whoever learns it (or a node's memory) should pay for each passphrase guessed.
    public static let scryptRounds = 1 << 15
    public static let scryptBlockSize = 8
    public static let scryptParallelism = 1

    /// The salt: "tavolo/circle/v2/" followed by the circle name's UTF-8 bytes, so one passphrase gives different
    /// keys in different circles and no table of precomputed guesses serves every circle.
    public static func salt(circle: String) -> [UInt8] { Array("tavolo/circle/v2/".utf8) + Array(circle.utf8) }

    /// The 32-byte PSK: scrypt(passphrase, salt(circle), N, r, p).
    public static func psk(passphrase: String, circle: String) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(passphrase.utf8), salt: salt(circle: circle), outputByteCount: 32, rounds: scryptRounds,
            blockSize: scryptBlockSize, parallelism: scryptParallelism, maxMemory: 64 << 20)
        return key.withUnsafeBytes { Array($0) }
    }

    /// TXT `c`: the first 8 bytes of SHA-256("tavolo/circle-tag/v2" ‖ circle name), 16 lower-case hex digits. It
    /// depends on the name only: it tells which nodes claim the same circle, never anything of the passphrase.
    public static func tag(circle: String) -> String {
        SHA256.hash(data: Array("tavolo/circle-tag/v2".utf8) + Array(circle.utf8)).prefix(8)
            .map { String($0, radix: 16).leftPadded(2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
