import Crypto
import NIOCore
import TavoloProtocol

/// The datagram keys of one connection, one per direction (PROTOCOL.md §4.6).
struct DatagramKeys {
    var send: SymmetricKey
    var receive: SymmetricKey

    init(_ keys: SecureChannelHandler.SessionKeys) {
        send = SymmetricKey(data: keys.datagramSend)
        receive = SymmetricKey(data: keys.datagramReceive)
    }
}

/// v2 datagrams: authenticated with the sender's session key before anything else is believed; then the checks of
/// §4.6 (its address, newer than the last accepted). A forged datagram is rejected, a replayed one stale.
extension MeshNode {
    func sealedDatagram(_ bytes: [UInt8], sender: NodeID, from address: SocketAddress) -> DatagramVerdict {
        guard let peer = peers[sender], let session = peer.session, session.remoteIP == address.ipAddress,
            let keys = peer.datagramKeys, let d = DatagramSeal.open(bytes, key: keys.receive), d.sender == sender
        else { return .rejected }
        if let clear = try? Frame.datagram(d).encoded(), let udp {
            tap.capture(
                udp.allocator.buffer(bytes: clear), .received, .udp, local: udp.localAddress, remote: address)
        }
        guard d.seq > peer.lastDatagramSeq else { return .stale }
        peer.lastDatagramSeq = d.seq
        emit(.message(MeshMessage(from: d.sender, channel: .unreliable, body: d.body)))
        return .accepted
    }
}
