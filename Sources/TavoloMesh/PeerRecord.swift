import NIOCore
import TavoloProtocol

/// Everything the node knows about one peer. Confined to the node's event loop (hence unchecked: the dial's
/// completion handler runs on that loop too).
final class PeerRecord: @unchecked Sendable {
    let id: NodeID
    var name: String
    /// Its DNS-SD service while advertised: where to dial.
    var advertised: DiscoveredNode?
    var state: PeerState = .discovered
    /// The established session, if any.
    var session: PeerSession? {
        didSet { udpAddress = Self.address(session?.remoteAddress, port: udpPort) }
    }
    var dial = DialState()
    /// Where its datagrams go: the handshake's, else the TXT record's.
    var udpPort: Int? {
        didSet { udpAddress = Self.address(session?.remoteAddress, port: udpPort) }
    }
    /// The session's address with `udpPort`: built once per connection, not parsed from a string per datagram.
    private(set) var udpAddress: SocketAddress?
    var rttMs: Double?
    var reason: String?
    /// When its established connection ended (lost peers are forgotten after a while, `LostPeerRetention`).
    var lostAt: NIODeadline?
    /// The newest datagram accepted from it on the current connection (§4.6 check 4).
    var lastDatagramSeq: UInt64 = 0
    /// The current connection's datagram keys (v2, §4.6).
    var datagramKeys: DatagramKeys?

    init(id: NodeID, name: String) {
        self.id = id
        self.name = name
    }

    private static func address(_ remote: SocketAddress?, port: Int?) -> SocketAddress? {
        guard var address = remote, let port, address.ipAddress != nil else { return nil }
        address.port = port
        return address
    }

    var info: PeerInfo {
        let address: String
        if let s = session, s.remoteAddress != nil {
            address = s.remoteDescription
        } else if let a = advertised {
            address = "\(a.address):\(a.port)"
        } else {
            address = ""
        }
        return PeerInfo(id: id, name: name, address: address, state: state, rttMs: rttMs, reason: reason)
    }
}
