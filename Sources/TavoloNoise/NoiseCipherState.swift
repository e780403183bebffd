@preconcurrency import Crypto
import Foundation

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

    /// `EncryptWithAd` on any bytes, for the transport's hot path: no copy into arrays on the way in, the sealed box
    /// (ciphertext and tag, both contiguous) out, for the caller to write where it wants.
    public mutating func seal<Plaintext: DataProtocol, AD: DataProtocol>(_ plaintext: Plaintext, associatedData ad: AD)
        throws -> ChaChaPoly.SealedBox
    {
        guard let key else { throw NoiseError.outOfTurn }
        guard nonce != UInt64.max else { throw NoiseError.nonceExhausted }
        let box = try ChaChaPoly.seal(plaintext, using: key, nonce: try Self.chachaNonce(nonce), authenticating: ad)
        nonce += 1
        return box
    }

    /// `DecryptWithAd` on any bytes: ciphertext and tag given apart, the plaintext as `Data`.
    public mutating func open<Ciphertext: DataProtocol, Tag: DataProtocol, AD: DataProtocol>(
        ciphertext: Ciphertext, tag: Tag, associatedData ad: AD
    ) throws -> Data {
        guard let key else { throw NoiseError.outOfTurn }
        guard nonce != UInt64.max else { throw NoiseError.nonceExhausted }
        let plaintext: Data
        do {
            let box = try ChaChaPoly.SealedBox(nonce: try Self.chachaNonce(nonce), ciphertext: ciphertext, tag: tag)
            plaintext = try ChaChaPoly.open(box, using: key, authenticating: ad)
        } catch {
            throw NoiseError.authenticationFailed
        }
        nonce += 1
        return plaintext
    }

    /// ChaChaPoly nonce for counter `n`: 4 zero bytes, then `n` little-endian (Noise section 12.3). Built on the
    /// stack: one nonce per frame.
    public static func chachaNonce(_ n: UInt64) throws -> ChaChaPoly.Nonce {
        try withUnsafeTemporaryAllocation(byteCount: 12, alignment: 1) { raw in
            raw.storeBytes(of: UInt32(0), toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: n.littleEndian, toByteOffset: 4, as: UInt64.self)
            return try ChaChaPoly.Nonce(data: UnsafeRawBufferPointer(raw))
        }
    }
}
