@preconcurrency import Crypto

/// Noise HandshakeState (revision 34, section 5.3) for the pattern Tavolo uses, `Noise_XX_25519_ChaChaPoly_SHA256`,
/// and its `psk3` variant for private circles, `Noise_XXpsk3_25519_ChaChaPoly_SHA256` (section 9):
///
///     -> e                       -> e
///     <- e, ee, s, es            <- e, ee, s, es
///     -> s, se                   -> s, se, psk
///
/// With a PSK every `e` token also calls `MixKey(e.public_key)` (section 9.2), and `psk` calls `MixKeyAndHash(psk)`
/// after `se`, before message 3's payload is encrypted.
///
/// A pure value: no I/O. The initiator writes messages 1 and 3, the responder message 2. After message 3
/// `split()` gives the transport cipher states; `remoteStatic` is the peer's authenticated static key from
/// message 2 (initiator) or 3 (responder) on.
public struct NoiseHandshakeState: Sendable {
    public static let protocolName = "Noise_XX_25519_ChaChaPoly_SHA256"
    public static let pskProtocolName = "Noise_XXpsk3_25519_ChaChaPoly_SHA256"
    public typealias PrivateKey = Curve25519.KeyAgreement.PrivateKey
    public typealias PublicKey = Curve25519.KeyAgreement.PublicKey

    public let isInitiator: Bool
    private var symmetric: NoiseSymmetricState
    private let staticKey: PrivateKey
    private var ephemeral: PrivateKey?
    private var presetEphemeral: PrivateKey?
    public private(set) var remoteStatic: PublicKey?
    private var remoteEphemeral: PublicKey?
    /// Messages written or read so far (0...3).
    public private(set) var messageIndex = 0

    /// The 32-byte pre-shared key of `XXpsk3`; nil for plain `XX`.
    private let psk: [UInt8]?

    /// `ephemeral` fixes the ephemeral key, for test vectors only; by default a fresh one is generated. A `psk`
    /// (32 bytes) selects `XXpsk3`.
    public init(
        initiator: Bool, prologue: [UInt8], staticKey: PrivateKey, ephemeral: PrivateKey? = nil, psk: [UInt8]? = nil
    ) {
        isInitiator = initiator
        self.psk = psk
        symmetric = NoiseSymmetricState(protocolName: psk == nil ? Self.protocolName : Self.pskProtocolName)
        symmetric.mixHash(prologue)
        self.staticKey = staticKey
        presetEphemeral = ephemeral
    }

    public var isComplete: Bool { messageIndex == 3 }
    /// Whether the next message is ours to write.
    public var isMyTurn: Bool { !isComplete && (messageIndex % 2 == 0) == isInitiator }
    public var handshakeHash: [UInt8] { symmetric.handshakeHash }

    public mutating func writeMessage(payload: [UInt8]) throws -> [UInt8] {
        guard isMyTurn else { throw NoiseError.outOfTurn }
        var out: [UInt8] = []
        switch messageIndex {
        case 0:  // -> e
            out += writeEphemeral()
        case 1:  // <- e, ee, s, es
            out += writeEphemeral()
            try mixDH(ephemeral, remoteEphemeral)
            out += try symmetric.encryptAndHash(Array(staticKey.publicKey.rawRepresentation))
            try mixDH(staticKey, remoteEphemeral)
        default:  // -> s, se [, psk]
            out += try symmetric.encryptAndHash(Array(staticKey.publicKey.rawRepresentation))
            try mixDH(staticKey, remoteEphemeral)
            if let psk { symmetric.mixKeyAndHash(psk) }
        }
        out += try symmetric.encryptAndHash(payload)
        messageIndex += 1
        return out
    }

    public mutating func readMessage(_ message: [UInt8]) throws -> [UInt8] {
        guard !isComplete, !isMyTurn else { throw NoiseError.outOfTurn }
        var rest = message[...]
        switch messageIndex {
        case 0:  // -> e
            try readEphemeral(&rest)
        case 1:  // <- e, ee, s, es
            try readEphemeral(&rest)
            try mixDH(ephemeral, remoteEphemeral)
            try readStatic(&rest)
            try mixDH(ephemeral, remoteStatic)
        default:  // -> s, se [, psk]
            try readStatic(&rest)
            try mixDH(ephemeral, remoteStatic)
            if let psk { symmetric.mixKeyAndHash(psk) }
        }
        let payload = try symmetric.decryptAndHash(Array(rest))
        messageIndex += 1
        return payload
    }

    /// The transport cipher states `(send, receive)` once the handshake is complete.
    public func split() throws -> (send: NoiseCipherState, receive: NoiseCipherState) {
        guard isComplete else { throw NoiseError.outOfTurn }
        let (c1, c2) = symmetric.split()
        return isInitiator ? (c1, c2) : (c2, c1)
    }

    private mutating func writeEphemeral() -> [UInt8] {
        let e = presetEphemeral ?? PrivateKey()
        ephemeral = e
        let pub = Array(e.publicKey.rawRepresentation)
        symmetric.mixHash(pub)
        if psk != nil { symmetric.mixKey(pub) }
        return pub
    }

    private mutating func readEphemeral(_ rest: inout ArraySlice<UInt8>) throws {
        guard rest.count >= 32 else { throw NoiseError.truncatedMessage }
        let bytes = Array(rest.prefix(32))
        rest = rest.dropFirst(32)
        remoteEphemeral = try Self.publicKey(bytes)
        symmetric.mixHash(bytes)
        if psk != nil { symmetric.mixKey(bytes) }
    }

    private mutating func readStatic(_ rest: inout ArraySlice<UInt8>) throws {
        let length = symmetric.hasKey ? 48 : 32
        guard rest.count >= length else { throw NoiseError.truncatedMessage }
        let bytes = Array(rest.prefix(length))
        rest = rest.dropFirst(length)
        remoteStatic = try Self.publicKey(try symmetric.decryptAndHash(bytes))
    }

    private mutating func mixDH(_ privateKey: PrivateKey?, _ publicKey: PublicKey?) throws {
        guard let privateKey, let publicKey else { throw NoiseError.outOfTurn }
        let secret: [UInt8]
        do {
            secret = try privateKey.sharedSecretFromKeyAgreement(with: publicKey).withUnsafeBytes { Array($0) }
        } catch {
            throw NoiseError.badKey
        }
        symmetric.mixKey(secret)
    }

    private static func publicKey(_ bytes: [UInt8]) throws -> PublicKey {
        do { return try PublicKey(rawRepresentation: bytes) } catch { throw NoiseError.badKey }
    }
}
