import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Makes a refused WebSocket upgrade a 403 like every other refused request. hummingbird-websocket answers an
/// upgrade its router declines with a bare 400; so an upgrade without the token, from another origin or for
/// another host loses its `Upgrade` header before the upgrader sees it, and the router answers it as a plain
/// request: 403 from `TokenMiddleware` or the `/ws` route.
struct GuardedUpgradeChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let gate: AccessGate

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        let value = inner.setup(channel: channel, logger: logger)
        do {
            let decoder = try channel.pipeline.syncOperations.handler(
                type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(UpgradeGuard(gate: gate), position: .after(decoder))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return value
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

final class UpgradeGuard: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    let gate: AccessGate

    init(gate: AccessGate) { self.gate = gate }

    /// Only a connection's first request can be upgraded (the upgrader leaves after it), so the guard looks at
    /// that one and leaves too: after an upgrade, WebSocket bytes must not pass through an HTTP handler.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.headers.contains(name: "upgrade") && !allowed(head) {
            head.headers.remove(name: "upgrade")
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func allowed(_ head: HTTPRequestHead) -> Bool {
        guard let access = gate.access else { return false }
        let query = head.uri.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        let token = query.split(separator: "&").lazy.compactMap { pair -> String? in
            let kv = pair.split(separator: "=", maxSplits: 1)
            return kv.count == 2 && kv[0] == "token" ? String(kv[1]) : nil
        }.first
        let cookie = Cookies(from: head.headers["cookie"])[access.cookieName]?.value
        return access.allowsHost(head.headers.first(name: "host")) && access.hasToken(query: token, cookie: cookie)
            && access.allowsOrigin(head.headers.first(name: "origin"))
    }
}
