// swift-format-ignore-file: NeverForceUnwrap

// (a bound listener has a local address)
import Dispatch
import NIOCore
import NIOPosix

/// A baseline between the plain sockets and the mesh: the same TCP ping-pong on two SwiftNIO event loops (one
/// thread each, as two mesh nodes), bytes echoed by a bare handler, no framing, no encryption, no Tavolo handler.
/// What is left between it and `reliableRaw` is Tavolo's pipeline; what is left between it and the plain socket is
/// the event loop's.
enum NIOPingPong {
    /// Round-trip times in microseconds (after a 10% warm-up).
    static func run(frameBytes: Int, count: Int) async throws -> [Double] {
        try await onTwoLoops { try await pingPong($0, $1, frameBytes: frameBytes, count: count) }
    }

    /// Runs `body` on two event loop groups of one thread each (a server's and a client's, as two mesh nodes), and
    /// shuts both down after it, whether it threw or not: the TCP and the UDP echo share it.
    static func onTwoLoops(
        _ body: (MultiThreadedEventLoopGroup, MultiThreadedEventLoopGroup) async throws -> [Double]
    ) async throws -> [Double] {
        let server = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let client = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let result: Result<[Double], Error>
        do { result = .success(try await body(server, client)) } catch { result = .failure(error) }
        try? await server.shutdownGracefully()
        try? await client.shutdownGracefully()
        return try result.get()
    }

    private static func pingPong(
        _ server: MultiThreadedEventLoopGroup, _ client: MultiThreadedEventLoopGroup, frameBytes: Int, count: Int
    ) async throws -> [Double] {
        let listener = try await ServerBootstrap(group: server)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { $0.pipeline.addHandler(Echo()) }
            .bind(host: "127.0.0.1", port: 0).get()
        defer { listener.close(promise: nil) }
        let total = count + count / 10
        return try await withCheckedThrowingContinuation { continuation in
            let pinger = Pinger(frameBytes: frameBytes, total: total, keep: count) {
                continuation.resume(returning: $0)
            }
            ClientBootstrap(group: client)
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .channelInitializer { $0.pipeline.addHandler(pinger) }
                .connect(to: listener.localAddress!)
                .whenFailure { continuation.resume(throwing: $0) }
        }
    }

    private final class Echo: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.writeAndFlush(data, promise: nil)
        }
    }

    /// Sends one frame, waits for all its bytes to come back, times it, sends the next.
    private final class Pinger: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let frameBytes: Int
        let done: ([Double]) -> Void
        var tally: PingPongTally
        var received = 0

        init(frameBytes: Int, total: Int, keep: Int, done: @escaping ([Double]) -> Void) {
            (self.frameBytes, self.done) = (frameBytes, done)
            tally = PingPongTally(total: total, keep: keep)
        }

        func channelActive(context: ChannelHandlerContext) { ping(context) }

        private func ping(_ context: ChannelHandlerContext) {
            tally.sending()
            var frame = context.channel.allocator.buffer(capacity: frameBytes)
            frame.writeRepeatingByte(0x61, count: frameBytes)
            context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            received += unwrapInboundIn(data).readableBytes
            guard received >= frameBytes else { return }
            received -= frameBytes
            if tally.echoed() {
                context.close(promise: nil)
                done(tally.samples)
            } else {
                ping(context)
            }
        }
    }
}

/// The timing both NIO ping-pongs keep: a round trip starts at each send and ends when its echo is whole; the first
/// `total - keep` are a warm-up, not kept.
struct PingPongTally {
    let total: Int
    let keep: Int
    private var sent = 0
    private var start: UInt64 = 0
    private(set) var samples: [Double] = []

    init(total: Int, keep: Int) {
        (self.total, self.keep) = (total, keep)
        samples.reserveCapacity(keep)
    }

    mutating func sending() {
        start = DispatchTime.now().uptimeNanoseconds
        sent += 1
    }

    /// The echo of the last send came back: true when that was the last round trip.
    mutating func echoed() -> Bool {
        if sent > total - keep { samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000) }
        return sent == total
    }
}
