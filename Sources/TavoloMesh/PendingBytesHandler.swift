import NIOCore

/// First in the pipeline of an accepted connection: reports every byte that arrives while the connection's
/// handshake is not yet accepted, so the node can hold all such connections to one budget (`PendingConnections`).
/// The node stops counting once the handshake is accepted (`onBytes` answers false): the handler then leaves
/// the pipeline, so an established connection's reads do not pass through it.
final class PendingBytesHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Reports bytes; answers whether the connection still counts as pending.
    private let onBytes: (Int) -> Bool

    init(onBytes: @escaping (Int) -> Bool) { self.onBytes = onBytes }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let pending = onBytes(unwrapInboundIn(data).readableBytes)
        context.fireChannelRead(data)
        if !pending { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }
}
