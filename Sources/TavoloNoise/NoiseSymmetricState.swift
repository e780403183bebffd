import Crypto

/// Noise SymmetricState (revision 34, section 5.2) with SHA-256: the chaining key, the handshake hash and
/// the cipher state of the handshake.
public struct NoiseSymmetricState: Sendable {
    public private(set) var chainingKey: [UInt8]
    public private(set) var handshakeHash: [UInt8]
    private var cipher = NoiseCipherState()

    public init(protocolName: String) {
        let name = Array(protocolName.utf8)
        let h = name.count <= 32 ? name + [UInt8](repeating: 0, count: 32 - name.count) : Self.hash(name)
        chainingKey = h
        handshakeHash = h
    }

    public var hasKey: Bool { cipher.hasKey }

    public mutating func mixKey(_ inputKeyMaterial: [UInt8]) {
        let (ck, tempK) = Self.hkdf(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial)
        chainingKey = ck
        cipher = NoiseCipherState(key: tempK)
    }

    /// `MixKeyAndHash` (section 5.2): for the `psk` token.
    public mutating func mixKeyAndHash(_ inputKeyMaterial: [UInt8]) {
        let (ck, tempH, tempK) = Self.hkdf3(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial)
        chainingKey = ck
        mixHash(tempH)
        cipher = NoiseCipherState(key: tempK)
    }

    public mutating func mixHash(_ data: [UInt8]) {
        handshakeHash = Self.hash(handshakeHash + data)
    }

    public mutating func encryptAndHash(_ plaintext: [UInt8]) throws -> [UInt8] {
        let ciphertext = try cipher.encrypt(associatedData: handshakeHash, plaintext: plaintext)
        mixHash(ciphertext)
        return ciphertext
    }

    public mutating func decryptAndHash(_ ciphertext: [UInt8]) throws -> [UInt8] {
        let plaintext = try cipher.decrypt(associatedData: handshakeHash, ciphertext: ciphertext)
        mixHash(ciphertext)
        return plaintext
    }

    /// The two transport cipher states: the first for initiator to responder, the second for the reverse.
    public func split() -> (NoiseCipherState, NoiseCipherState) {
        let (k1, k2) = Self.hkdf(chainingKey: chainingKey, inputKeyMaterial: [])
        return (NoiseCipherState(key: k1), NoiseCipherState(key: k2))
    }

    public static func hash(_ data: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: data)) }

    /// HKDF as Noise section 4.3 defines it (HMAC-SHA256), two outputs of 32 bytes.
    public static func hkdf(chainingKey: [UInt8], inputKeyMaterial: [UInt8]) -> ([UInt8], [UInt8]) {
        let temp = SymmetricKey(data: hmac(key: SymmetricKey(data: chainingKey), inputKeyMaterial))
        let o1 = hmac(key: temp, [0x01])
        let o2 = hmac(key: temp, o1 + [0x02])
        return (o1, o2)
    }

    /// The same HKDF with three outputs.
    public static func hkdf3(chainingKey: [UInt8], inputKeyMaterial: [UInt8]) -> ([UInt8], [UInt8], [UInt8]) {
        let temp = SymmetricKey(data: hmac(key: SymmetricKey(data: chainingKey), inputKeyMaterial))
        let o1 = hmac(key: temp, [0x01])
        let o2 = hmac(key: temp, o1 + [0x02])
        let o3 = hmac(key: temp, o2 + [0x03])
        return (o1, o2, o3)
    }

    private static func hmac(key: SymmetricKey, _ data: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: data, using: key))
    }
}
