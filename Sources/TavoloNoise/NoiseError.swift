/// Why a Noise handshake or transport message was refused. Any of them ends the session: Noise has no recovery.
public enum NoiseError: Error, Equatable, Sendable {
    /// A message failed ChaCha20-Poly1305 authentication (wrong key, a flipped byte, a replay or a reordering).
    case authenticationFailed
    /// A handshake message is shorter than its tokens require.
    case truncatedMessage
    /// A public key is not a valid X25519 key, or the Diffie-Hellman result was refused (low-order point).
    case badKey
    /// `writeMessage`/`readMessage` called out of turn, or after the handshake ended.
    case outOfTurn
    /// The 2^64-1 nonces of a cipher state are used up.
    case nonceExhausted
}
