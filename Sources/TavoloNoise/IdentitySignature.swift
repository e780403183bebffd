import CSodium
import Crypto

/// Signatures made with a node's X25519 identity key, so that a signing key can be bound to a node id in a way
/// anyone can check without ever meeting the node (PROTOCOL.md §11.7). An X25519 private key `k` gives the scalar
/// `a = clamp(k)`, and `u(a·B)` is the X25519 public key; the same scalar signs as Ed25519 under the Edwards point
/// `A = a·B`. A verifier checks that `A` maps to the X25519 public key (libsodium's birational map) and then checks
/// an ordinary Ed25519 signature under `A`. Only the signing needs scalar arithmetic, done with libsodium's
/// `crypto_core_ed25519_*`; the verification is the library's Ed25519 and nothing of ours.
public enum IdentitySignature {
    /// The nonce's domain: r = SHA-512(domain ‖ a ‖ message) mod L (deterministic, as in Ed25519).
    static let nonceDomain = Array("tavolo/identity-nonce/v1".utf8)

    /// The Edwards point `A` and the 64-byte signature `R ‖ S` of `message` by the X25519 private key `privateKey`
    /// (32 bytes); nil only if libsodium refuses a scalar (never for a valid key).
    public static func sign(_ message: [UInt8], privateKey: [UInt8]) -> (edwards: [UInt8], signature: [UInt8])? {
        guard privateKey.count == 32, sodium_init() >= 0 else { return nil }
        var a = privateKey
        a[0] &= 248
        a[31] &= 127
        a[31] |= 64
        var edwards = [UInt8](repeating: 0, count: 32)
        guard crypto_scalarmult_ed25519_base_noclamp(&edwards, a) == 0 else { return nil }
        var aReduced = [UInt8](repeating: 0, count: 32)
        crypto_core_ed25519_scalar_reduce(&aReduced, a + [UInt8](repeating: 0, count: 32))
        var r = [UInt8](repeating: 0, count: 32)
        crypto_core_ed25519_scalar_reduce(&r, Array(SHA512.hash(data: nonceDomain + a + message)))
        var bigR = [UInt8](repeating: 0, count: 32)
        guard crypto_scalarmult_ed25519_base_noclamp(&bigR, r) == 0 else { return nil }
        var h = [UInt8](repeating: 0, count: 32)
        crypto_core_ed25519_scalar_reduce(&h, Array(SHA512.hash(data: bigR + edwards + message)))
        var ha = [UInt8](repeating: 0, count: 32)
        crypto_core_ed25519_scalar_mul(&ha, h, aReduced)
        var s = [UInt8](repeating: 0, count: 32)
        crypto_core_ed25519_scalar_add(&s, r, ha)
        return (edwards, bigR + s)
    }

    /// Whether `signature` signs `message` under the Edwards point `edwards`, and `edwards` is the Edwards form of
    /// the X25519 public key `x25519Public`.
    public static func verify(
        _ signature: [UInt8], of message: [UInt8], edwards: [UInt8], x25519Public: [UInt8]
    ) -> Bool {
        guard signature.count == 64, edwards.count == 32, x25519Public.count == 32, sodium_init() >= 0 else {
            return false
        }
        var montgomery = [UInt8](repeating: 0, count: 32)
        guard crypto_sign_ed25519_pk_to_curve25519(&montgomery, edwards) == 0, montgomery == x25519Public,
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: edwards)
        else { return false }
        return key.isValidSignature(signature, for: message)
    }
}
