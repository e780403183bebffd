// swift-format-ignore-file: NeverForceUnwrap

// (a bound datagram channel has a local address)
import Dispatch
import NIOCore
import NIOPosix

/// The unreliable figures' event-loop baseline (issue 31): the same UDP ping-pong as `PlainSocketPingPong.runUDP`, on
/// two SwiftNIO event loops (one thread each, as two mesh nodes), each datagram echoed by a bare handler: no sealing,
/// no Tavolo handler. What is left between it and `unreliableRaw` is Tavolo's datagram path; between it and the plain
/// socket, the event loop's.
enum NIOUDPPingPong {
    /// Round-trip times in microseconds (after a 10% warm-up).
    static func run(frameBytes: Int, count: Int) async throws -> [Double] {
        try await NIOPingPong.onTwoLoops { try await pingPong($0, $1, frameBytes: frameBytes, count: count) }
    }

    private static func pingPong(
        _ server: MultiThreadedEventLoopGroup, _ client: MultiThreadedEventLoopGroup, frameBytes: Int, count: Int
    ) async throws -> [Double] {
        let echo = try await DatagramBootstrap(group: server)
            .channelInitializer { $0.pipeline.addHandler(Echo()) }
            .bind(host: "127.0.0.1", port: 0).get()
        defer { echo.close(promise: nil) }
        let total = count + count / 10
        return try await withCheckedThrowingContinuation { continuation in
            let pinger = Pinger(target: echo.localAddress!, frameBytes: frameBytes, total: total, keep: count) {
                continuation.resume(returning: $0)
            }
            DatagramBootstrap(group: client)
                .channelInitializer { $0.pipeline.addHandler(pinger) }
                .bind(host: "127.0.0.1", port: 0)
                .whenFailure { continuation.resume(throwing: $0) }
        }
    }

    private final class Echo: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        typealias OutboundOut = AddressedEnvelope<ByteBuffer>
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let datagram = unwrapInboundIn(data)
            context.writeAndFlush(
                wrapOutboundOut(AddressedEnvelope(remoteAddress: datagram.remoteAddress, data: datagram.data)),
                promise: nil)
        }
    }

    /// Sends one datagram, waits for it to come back, times it, sends the next. Loopback drops none; a lost one
    /// would stall the run, as it would `PlainSocketPingPong.runUDP`.
    private final class Pinger: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        typealias OutboundOut = AddressedEnvelope<ByteBuffer>
        let target: SocketAddress
        let frameBytes: Int
        let done: ([Double]) -> Void
        var tally: PingPongTally

        init(target: SocketAddress, frameBytes: Int, total: Int, keep: Int, done: @escaping ([Double]) -> Void) {
            (self.target, self.frameBytes, self.done) = (target, frameBytes, done)
            tally = PingPongTally(total: total, keep: keep)
        }

        func channelActive(context: ChannelHandlerContext) { ping(context) }

        private func ping(_ context: ChannelHandlerContext) {
            tally.sending()
            var datagram = context.channel.allocator.buffer(capacity: frameBytes)
            datagram.writeRepeatingByte(0x61, count: frameBytes)
            context.writeAndFlush(
                wrapOutboundOut(AddressedEnvelope(remoteAddress: target, data: datagram)), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard unwrapInboundIn(data).data.readableBytes == frameBytes else { return }
            if tally.echoed() {
                context.close(promise: nil)
                done(tally.samples)
            } else {
                ping(context)
            }
        }
    }
}
