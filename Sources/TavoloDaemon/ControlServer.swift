import Foundation
import Logging
import NIOCore
import NIOPosix
import TavoloProtocol

/// Answers one request line with one response line (JSON, no newline).
public typealias ControlDispatcher = @Sendable (_ request: ControlRequest, _ line: [UInt8]) async -> [UInt8]

/// The daemon's Unix-domain control socket: JSON lines, one task per request, errors answered not thrown.
public final class ControlServer: Sendable {
    public let path: String
    private let channel: Channel

    private init(path: String, channel: Channel) {
        self.path = path
        self.channel = channel
    }

    /// Binds `path` (replacing a stale socket file, creating the directory) on `group`.
    public static func start(path: String, group: EventLoopGroup, logger: Logger, dispatch: @escaping ControlDispatcher)
        async throws -> ControlServer
    {
        let dir = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let channel = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
                    try channel.pipeline.syncOperations.addHandler(ControlConnection(logger: logger, dispatch: dispatch))
                }
            }
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).get()
        return ControlServer(path: path, channel: channel)
    }

    public func close() async {
        try? await channel.close()
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// One control client.
final class ControlConnection: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let logger: Logger
    let dispatch: ControlDispatcher

    init(logger: Logger, dispatch: @escaping ControlDispatcher) {
        self.logger = logger
        self.dispatch = dispatch
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let line = buffer.readBytes(length: buffer.readableBytes) ?? []
        guard !line.allSatisfy({ $0 == 32 || $0 == 9 }) else { return }
        let channel = context.channel
        let dispatch = self.dispatch
        Task {
            let response: [UInt8]
            do {
                let request = try WireJSON.decode(ControlRequest.self, line)
                response = await dispatch(request, line)
            } catch {
                let failure = ControlFailure(code: "control/bad-request", message: "not a request object: \(WireJSON.describe(error))")
                response = (try? WireJSON.encode(ControlResponse<Empty>(id: nil, error: failure))) ?? []
            }
            var out = channel.allocator.buffer(capacity: response.count + 1)
            out.writeBytes(response)
            out.writeInteger(UInt8(ascii: "\n"))
            channel.writeAndFlush(out, promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("control client: \(error)")
        context.close(promise: nil)
    }
}
