import NIOCore
import TavoloProtocol

/// The datagram keys of one connection, one per direction (PROTOCOL.md §4.6).
struct DatagramKeys {
    var send: [UInt8]
    var receive: [UInt8]

    init(_ keys: SecureChannelHandler.SessionKeys) {
        send = keys.datagramSend
        receive = keys.datagramReceive
    }
}

/// v2 datagrams: authenticated with the sender's session key before anything else is believed; then the checks of
/// §4.6 (its address, newer than the last accepted). A forged datagram is rejected, a replayed one stale.
extension MeshNode {
    func sealedDatagram(_ bytes: UnsafeRawBufferPointer, sender: NodeID, seq: UInt64, from address: SocketAddress)
        -> DatagramVerdict
    {
        guard let peer = peers[sender], let session = peer.session, session.remoteAddress?.sameIP(as: address) == true,
            let keys = peer.datagramKeys, let body = DatagramSeal.openBody(bytes, seq: seq, key: keys.receive)
        else { return .rejected }
        let datagram = Datagram(sender: sender, seq: seq, service: body.service, body: body.message)
        if tap.recorder != nil, let udp, let clear = try? Frame.datagram(datagram).encoded() {
            tap.capture(
                udp.allocator.buffer(bytes: clear), .received, .udp, local: udp.localAddress, remote: address)
        }
        guard seq > peer.lastDatagramSeq else { return .stale }
        peer.lastDatagramSeq = seq
        emit(
            .message(
                MeshMessage(
                    from: sender, channel: .unreliable, service: datagram.service, form: datagram.form,
                    body: datagram.body)))
        return .accepted
    }
}

extension SocketAddress {
    /// Whether both are the same IP address (ports aside), compared as bytes: `ipAddress` would format two strings
    /// per datagram.
    func sameIP(as other: SocketAddress) -> Bool {
        switch (self, other) {
        case (.v4(let a), .v4(let b)): return a.address.sin_addr.s_addr == b.address.sin_addr.s_addr
        case (.v6(let a), .v6(let b)):
            let (x, y) = (a.address.sin6_addr, b.address.sin6_addr)
            return withUnsafeBytes(of: x) { x in withUnsafeBytes(of: y) { y in x.elementsEqual(y) } }
        default: return false
        }
    }
}
