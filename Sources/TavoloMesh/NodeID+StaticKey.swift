import Crypto
import TavoloNoise
import TavoloProtocol

extension NodeID {
    /// The id a static key gives (PROTOCOL.md §3.3): the first 16 bytes of
    /// SHA-256("tavolo/node-id/v2" ‖ X25519 public key). An id cannot be used without its key.
    public static func derived(from publicKey: Curve25519.KeyAgreement.PublicKey) -> NodeID? {
        NodeID(bytes: TavoloKeyDerivation.nodeIDBytes(staticPublicKey: Array(publicKey.rawRepresentation)))
    }
}
