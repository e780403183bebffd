import NIOCore

/// Receives UDP datagrams and hands them to the node, which checks sender, address and sequence.
final class DatagramHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    unowned let node: MeshNode

    init(node: MeshNode) { self.node = node }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var envelope = unwrapInboundIn(data)
        let bytes = envelope.data.readBytes(length: envelope.data.readableBytes) ?? []
        node.datagramReceived(bytes, from: envelope.remoteAddress)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A UDP error (e.g. ICMP port unreachable) concerns one send; the socket stays open.
        node.logger.debug("udp: \(error)")
    }
}
