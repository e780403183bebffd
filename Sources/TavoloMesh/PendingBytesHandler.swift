import NIOCore

/// First in the pipeline of an accepted connection: reports every byte that arrives while the connection's
/// handshake is not yet accepted, so the node can hold all such connections to one budget (`PendingConnections`).
/// The node stops counting once the handshake is accepted; the handler then only passes bytes on.
final class PendingBytesHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let onBytes: (Int) -> Void

    init(onBytes: @escaping (Int) -> Void) { self.onBytes = onBytes }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        onBytes(unwrapInboundIn(data).readableBytes)
        context.fireChannelRead(data)
    }
}
