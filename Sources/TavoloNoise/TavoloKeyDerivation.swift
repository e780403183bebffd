import Crypto

/// What Tavolo derives from Noise keys (PROTOCOL.md 3.3 and 4.6).
public enum TavoloKeyDerivation {
    /// The prologue both sides mix in: binds the handshake to the wire version.
    public static let prologue = Array("tavolo/v2".utf8)

    /// A node id: the first 16 bytes of SHA-256("tavolo/node-id/v2" ‖ X25519 static public key).
    public static func nodeIDBytes(staticPublicKey: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: Array("tavolo/node-id/v2".utf8) + staticPublicKey).prefix(16))
    }

    /// The datagram keys of a session, `(initiator → responder, responder → initiator)`:
    /// Noise HKDF(chaining key = handshake hash, input = "tavolo/datagram/v2").
    public static func datagramKeys(handshakeHash: [UInt8]) -> ([UInt8], [UInt8]) {
        NoiseSymmetricState.hkdf(chainingKey: handshakeHash, inputKeyMaterial: Array("tavolo/datagram/v2".utf8))
    }
}
