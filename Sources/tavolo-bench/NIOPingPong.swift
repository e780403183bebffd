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
        let server = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let client = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let result: Result<[Double], Error>
        do { result = .success(try await pingPong(server, client, frameBytes: frameBytes, count: count)) } catch {
            result = .failure(error)
        }
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
        let total: Int
        let keep: Int
        let done: ([Double]) -> Void
        var sent = 0
        var received = 0
        var start: UInt64 = 0
        var samples: [Double] = []

        init(frameBytes: Int, total: Int, keep: Int, done: @escaping ([Double]) -> Void) {
            (self.frameBytes, self.total, self.keep, self.done) = (frameBytes, total, keep, done)
            samples.reserveCapacity(keep)
        }

        func channelActive(context: ChannelHandlerContext) { ping(context) }

        private func ping(_ context: ChannelHandlerContext) {
            start = DispatchTime.now().uptimeNanoseconds
            var frame = context.channel.allocator.buffer(capacity: frameBytes)
            frame.writeRepeatingByte(0x61, count: frameBytes)
            context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
            sent += 1
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            received += unwrapInboundIn(data).readableBytes
            guard received >= frameBytes else { return }
            received -= frameBytes
            if sent > total - keep { samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000) }
            if sent == total {
                context.close(promise: nil)
                done(samples)
            } else {
                ping(context)
            }
        }
    }
}
