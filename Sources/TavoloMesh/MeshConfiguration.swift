@preconcurrency import Crypto
import Foundation
import TavoloProtocol

/// Tunables of a mesh node.
public struct MeshConfiguration: Sendable {
    /// Node name: the DNS-SD instance name, unique per host.
    public var name: String
    /// TCP and UDP port; 0 picks a free one (the same number for both when possible).
    public var port: Int = 0
    /// Address to listen on.
    public var host: String = "0.0.0.0"
    public var heartbeatInterval: Duration = .seconds(1)
    /// A peer silent for this long is lost.
    public var heartbeatTimeout: Duration = .seconds(5)
    /// A connection that has not completed its handshake by then is closed.
    public var handshakeTimeout: Duration = .seconds(5)
    /// Bytes queued for one peer beyond which it is dropped as a slow reader.
    public var maxQueuedBytes: Int = 8 << 20
    /// Accepted connections from one IP address that may wait for their handshake at the same time.
    public var maxPendingPerAddress: Int = 32
    /// Accepted connections from one IP address that may begin their handshake in a minute (each may bring a fresh
    /// key: this bounds the Noise handshakes and new sessions one host gets).
    public var maxNewConnectionsPerAddressPerMinute: Int = 120
    /// Bytes that all connections waiting for their handshake may have sent, together; the oldest is cut first.
    public var maxPendingBytes: Int = 1 << 20
    /// Lost peers (no longer advertised) remembered at most, and for how long.
    public var maxLostPeers: Int = 256
    public var lostPeerRetention: Duration = .seconds(3_600)
    /// Header version sent in every frame; only tests of version mismatch change it.
    public var wireVersion: UInt8 = ProtocolVersion.current
    public var capabilities: [String] = ["datagrams", "tables"]
    /// Test hook: this share (0…1) of received datagrams is dropped on purpose before any check, as a lossy
    /// network would, and counted in `MeshStats.datagramsDropped`.
    public var datagramDropShare: Double = 0
    /// Sees every frame sent and received (the packet log); nil records nothing.
    public var recorder: (any FrameRecorder)?
    /// The node's long-term X25519 key: with one, every connection runs the Noise XX handshake and is sealed
    /// (wire version 3, §3.6–3.7), and the node id must be the one derived from it (§3.3). Without one the
    /// node speaks the clear v1 wire: only the bench (to compare) and tests of v1 behaviour do that.
    public var staticKey: Curve25519.KeyAgreement.PrivateKey?
    /// The private circle this node plays in (PROTOCOL.md §3.8): handshakes use Noise_XXpsk3 with its key, and only
    /// nodes advertising its tag are dialed. Needs `staticKey`.
    public var circle: MeshCircle?

    public init(name: String) { self.name = name }
}
