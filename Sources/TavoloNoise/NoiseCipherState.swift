/// Noise CipherState (revision 34, section 5.1) for ChaChaPoly: a key and a 64-bit counter nonce, encoded as
/// 32 bits of zeros followed by the counter little-endian. Without a key, encryption is the identity.
/// The cipher itself is `ChaChaPolyAEAD` (libsodium).
public struct NoiseCipherState: Sendable {
    private var key: [UInt8]?
    /// The next nonce; it advances only after a successful encryption or decryption.
    public private(set) var nonce: UInt64 = 0

    public init(key: [UInt8]? = nil) {
        precondition(key == nil || key?.count == ChaChaPolyAEAD.keyBytes, "a ChaChaPoly key is 32 bytes")
        self.key = key
    }

    public var hasKey: Bool { key != nil }

    public mutating func encrypt(associatedData ad: [UInt8], plaintext: [UInt8]) throws -> [UInt8] {
        guard let key else { return plaintext }
        guard nonce != UInt64.max else { throw NoiseError.nonceExhausted }
        let sealed = ChaChaPolyAEAD.seal(key: key, nonce: nonce, plaintext: plaintext, ad: ad)
        nonce += 1
        return sealed
    }

    public mutating func decrypt(associatedData ad: [UInt8], ciphertext: [UInt8]) throws -> [UInt8] {
        guard let key else { return ciphertext }
        guard nonce != UInt64.max else { throw NoiseError.nonceExhausted }
        guard let plaintext = ChaChaPolyAEAD.open(key: key, nonce: nonce, sealed: ciphertext, ad: ad) else {
            throw NoiseError.authenticationFailed
        }
        nonce += 1
        return plaintext
    }

    /// `EncryptWithAd` on raw memory, for the transport's hot path: ciphertext then tag written into `out`, which
    /// holds exactly `plaintext.count + 16` bytes.
    public mutating func seal(
        _ plaintext: UnsafeRawBufferPointer, associatedData ad: UnsafeRawBufferPointer,
        into out: UnsafeMutableRawBufferPointer
    ) throws {
        guard let key else { throw NoiseError.outOfTurn }
        guard nonce != UInt64.max else { throw NoiseError.nonceExhausted }
        let n = nonce
        key.withUnsafeBytes { ChaChaPolyAEAD.seal(key: $0, nonce: n, plaintext: plaintext, ad: ad, into: out) }
        nonce += 1
    }

    /// `DecryptWithAd` on raw memory: `sealed` is ciphertext then tag, the plaintext goes into `out`, which holds
    /// exactly `sealed.count - 16` bytes.
    public mutating func open(
        _ sealed: UnsafeRawBufferPointer, associatedData ad: UnsafeRawBufferPointer,
        into out: UnsafeMutableRawBufferPointer
    ) throws {
        guard let key else { throw NoiseError.outOfTurn }
        guard nonce != UInt64.max else { throw NoiseError.nonceExhausted }
        let n = nonce
        let ok = key.withUnsafeBytes { ChaChaPolyAEAD.open(key: $0, nonce: n, sealed: sealed, ad: ad, into: out) }
        guard ok else { throw NoiseError.authenticationFailed }
        nonce += 1
    }
}
