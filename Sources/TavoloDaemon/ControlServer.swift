import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import TavoloControl
import TavoloCore
import TavoloProtocol

/// The daemon's Unix-domain control socket: JSON lines, one task per request, errors answered not thrown.
public final class ControlServer: Sendable {
    public let path: String
    let group: EventLoopGroup
    let logger: Logger
    /// The listening socket, once `listen` bound it.
    private let channel = NIOLockedValueBox<Channel?>(nil)

    /// A server for `path` on `group`, not listening yet.
    public init(path: String, group: EventLoopGroup, logger: Logger) {
        self.path = path
        self.group = group
        self.logger = logger
    }

    /// Another process answers on the control socket's path: taking the path over would leave it unreachable.
    public struct InUse: Error, CustomStringConvertible {
        public let path: String
        public var description: String {
            "another node is running with control socket \(path): stop it first, or give this one another --name or --control"
        }
    }

    /// Whether a process accepts connections on the socket at `path`.
    public static func answers(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path) && (try? ControlClient(path: path, timeout: 1)) != nil
    }

    /// Binds `path` (creating the directory with mode 0700 and refusing one others can write to, replacing a stale
    /// socket file that nobody answers on) on `group`, and answers each request with `dispatch`; the socket is mode
    /// 0600 and only this user's processes are served (`ControlAccess`).
    public func listen(dispatch: @escaping ControlDispatcher) async throws {
        let (path, logger) = (self.path, self.logger)
        try ControlAccess.prepareDirectory(forSocket: path)
        if Self.answers(path) { throw InUse(path: path) }
        let daemonUID = geteuid()
        let channel = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                ControlAccess.peerUID(of: channel).flatMapThrowing { uid in
                    if let refusal = ControlAccess.refusal(peerUID: uid, daemonUID: daemonUID) {
                        logger.warning("control socket: refused a connection: \(refusal)")
                        try channel.pipeline.syncOperations.addHandler(RefusedControlConnection(reason: refusal))
                        return
                    }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
                    try channel.pipeline.syncOperations.addHandler(
                        ControlConnection(logger: logger, dispatch: dispatch))
                }
            }
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).get()
        // The directory is already closed to others; the mode says the same on the socket itself.
        chmod(path, 0o600)
        self.channel.withLockedValue { $0 = channel }
    }

    public func close() async {
        guard let channel = channel.withLockedValue({ $0 }) else { return }
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
        let task = Task {
            let reply: ControlReply
            switch ControlRequestLine.decode(line) {
            case (let id, .success(let request)): reply = await dispatch(id, request)
            case (let id, .failure(let failure)): reply = .failure(failure, id: id)
            }
            switch reply {
            case .line(let bytes):
                Self.writeLine(bytes, to: channel)
            case .stream(let first, let rest):
                Self.writeLine(first, to: channel)
                for await bytes in rest {
                    guard channel.isActive else { break }
                    Self.writeLine(bytes, to: channel)
                }
            }
        }
        channel.closeFuture.whenComplete { _ in task.cancel() }
    }

    static func writeLine(_ bytes: [UInt8], to channel: Channel) {
        var out = channel.allocator.buffer(capacity: bytes.count + 1)
        out.writeBytes(bytes)
        out.writeInteger(UInt8(ascii: "\n"))
        channel.writeAndFlush(out, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("control client: \(error)")
        context.close(promise: nil)
    }
}

/// A connection from another user: its first request is answered with one error line (`control/forbidden`), then
/// the connection is closed; what it sent is never parsed. (Answering before the request would close the socket
/// under a client still writing it: it would die of SIGPIPE instead of reading why.)
final class RefusedControlConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let reason: String
    private var answered = false

    init(reason: String) { self.reason = reason }

    func handlerAdded(context: ChannelHandlerContext) {
        // A client that never sends is not kept waiting on.
        let channel = context.channel
        context.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        answered = true
        let failure = ControlFailure(code: .controlForbidden, message: reason)
        let line = ((try? WireJSON.encode(ControlResponse<Empty>(id: nil, error: failure))) ?? []) + [10]
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: line))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
