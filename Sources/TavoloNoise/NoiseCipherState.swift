@preconcurrency import Crypto

/// Noise CipherState (revision 34, section 5.1) for ChaChaPoly: a key and a 64-bit counter nonce, encoded as
/// 32 bits of zeros followed by the counter little-endian. Without a key, encryption is the identity.
public struct NoiseCipherState: Sendable {
    private var key: SymmetricKey?
    /// The next nonce; it advances only after a successful encryption or decryption.
    public private(set) var nonce: UInt64 = 0

    public init(key: [UInt8]? = nil) {
        self.key = key.map { SymmetricKey(data: $0) }
    }

    public var hasKey: Bool { key != nil }

    public mutating func encrypt(associatedData ad: [UInt8], plaintext: [UInt8]) throws -> [UInt8] {
        guard let key else { return plaintext }
        guard nonce != UInt64.max else { throw NoiseError.nonceExhausted }
        let box = try ChaChaPoly.seal(plaintext, using: key, nonce: try Self.chachaNonce(nonce), authenticating: ad)
        nonce += 1
        return Array(box.ciphertext) + Array(box.tag)
    }

    public mutating func decrypt(associatedData ad: [UInt8], ciphertext: [UInt8]) throws -> [UInt8] {
        guard let key else { return ciphertext }
        guard nonce != UInt64.max else { throw NoiseError.nonceExhausted }
        guard ciphertext.count >= 16 else { throw NoiseError.authenticationFailed }
        let plaintext: [UInt8]
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: try Self.chachaNonce(nonce), ciphertext: ciphertext.dropLast(16), tag: ciphertext.suffix(16))
            plaintext = Array(try ChaChaPoly.open(box, using: key, authenticating: ad))
        } catch {
            throw NoiseError.authenticationFailed
        }
        nonce += 1
        return plaintext
    }

    /// ChaChaPoly nonce for counter `n`: 4 zero bytes, then `n` little-endian (Noise section 12.3).
    public static func chachaNonce(_ n: UInt64) throws -> ChaChaPoly.Nonce {
        var bytes = [UInt8](repeating: 0, count: 12)
        for i in 0..<8 { bytes[4 + i] = UInt8(truncatingIfNeeded: n >> (8 * UInt64(i))) }
        return try ChaChaPoly.Nonce(data: bytes)
    }
}
