import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import TavoloControl

/// The page a node serves its user, on 127.0.0.1 only: the assets, and `/ws`, a WebSocket that carries control
/// requests and their responses and event streams (the page is one more client of the control API).
///
/// Hummingbird rather than NIO's own HTTP handlers: routing, cookies, the WebSocket upgrade with a check before
/// it (token, Origin) and graceful shutdown are in the library; by hand they would be several hundred lines of
/// pipeline code to keep right.
public final class WebServer: Sendable {
    public let port: Int
    public let access: WebAccess
    private let task: Task<Void, Never>

    private init(port: Int, access: WebAccess, task: Task<Void, Never>) {
        self.port = port
        self.access = access
        self.task = task
    }

    /// The URL to open: the page with its token.
    public var url: String { "http://127.0.0.1:\(port)/?token=\(access.token)" }

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Listens on 127.0.0.1:`port` (0: any free port) and returns once it does.
    public static func start(
        port: Int, token: String, logger: Logger, dispatch: @escaping ControlDispatcher
    ) async throws -> WebServer {
        let gate = AccessGate()
        let router = routes(gate: gate, dispatch: dispatch)
        let wsResponder = router.buildResponder()
        let running = RunningPort()
        var webLogger = logger
        webLogger.logLevel = max(logger.logLevel, .notice)
        let app = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedUpgradeChannel(
                    inner: HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: wsResponder,
                        configuration: .init(ws: .init(maxFrameSize: 1 << 20))),
                    gate: gate)
            },
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil),
            onServerRunning: { channel in running.resolve(.success(channel.localAddress?.port ?? 0)) },
            logger: webLogger)
        let task = Task {
            do { try await app.run() } catch {
                running.resolve(
                    .failure(StartError(description: "cannot serve the page on 127.0.0.1:\(port): \(error)")))
            }
        }
        let bound: Int
        do { bound = try await running.value() } catch {
            task.cancel()
            throw error
        }
        let access = WebAccess(token: token, port: bound)
        gate.access = access
        return WebServer(port: bound, access: access, task: task)
    }

    /// The page's routes: its files, and the WebSocket that carries control requests, behind the token.
    static func routes(gate: AccessGate, dispatch: @escaping ControlDispatcher) -> Router<
        BasicWebSocketRequestContext
    > {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.add(middleware: TokenMiddleware(gate: gate))
        router.ws("/ws") { request, _ in
            // The middleware has checked the token and Host; a WebSocket must also come from the page itself.
            guard let access = gate.access, access.allowsOrigin(request.headers[.origin]) else {
                throw PlainRefusal.foreignOrigin
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            await WebSocketBridge(dispatch: dispatch, logger: context.logger).run(inbound: inbound, outbound: outbound)
        }
        let serve: @Sendable (Request, BasicWebSocketRequestContext) async throws -> Response = { request, _ in
            guard let asset = WebAssets.files[request.uri.path] else { throw HTTPError(.notFound) }
            var headers: HTTPFields = [
                .contentType: asset.contentType, .cacheControl: "no-store",
                // The page runs only its own scripts, talks only to its own node, and is never framed.
                .contentSecurityPolicy:
                    "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
                .xContentTypeOptions: "nosniff",
            ]
            if let access = gate.access, request.uri.queryParameters.get("token") != nil {
                headers[.setCookie] = access.setCookie
            }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
        }
        router.get("/", use: serve)
        router.get("/**", use: serve)
        return router
    }

    /// Stops listening and closes the page's connections.
    public func close() async {
        task.cancel()
        await task.value
    }
}

/// 403 for every request without the token or naming another host (the port is known only once bound).
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let gate: AccessGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let access = gate.access, access.allowsHost(request.head.authority),
            access.hasToken(
                query: request.uri.queryParameters.get("token"),
                cookie: request.cookies[access.cookieName]?.value)
        else {
            throw PlainRefusal.noToken
        }
        return try await next(request, context)
    }
}

extension PlainRefusal: HTTPResponseError {
    var status: HTTPResponse.Status { .init(code: code) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(
            status: .init(code: code), headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}

/// The access rules, set once the port is known.
final class AccessGate: @unchecked Sendable {
    private let lock = NSLock()
    private var _access: WebAccess?
    var access: WebAccess? {
        get { lock.withLock { _access } }
        set { lock.withLock { _access = newValue } }
    }
}

/// The bound port, or why binding failed, handed from the server task to `start`.
final class RunningPort: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Int, Error>?
    private var waiter: CheckedContinuation<Int, Error>?

    func resolve(_ r: Result<Int, Error>) {
        let w: CheckedContinuation<Int, Error>? = lock.withLock {
            guard result == nil else { return nil }
            result = r
            defer { waiter = nil }
            return waiter
        }
        w?.resume(with: r)
    }

    func value() async throws -> Int {
        try await withCheckedThrowingContinuation { c in
            let r: Result<Int, Error>? = lock.withLock {
                if result == nil { waiter = c }
                return result
            }
            if let r { c.resume(with: r) }
        }
    }
}
