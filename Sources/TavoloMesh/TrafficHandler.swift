import Foundation
import NIOCore
import TavoloProtocol

/// Where every frame crossing a node's sockets is counted (`MeshStats`) and handed to the packet log.
/// One per node, shared by the `TrafficHandler` of every TCP channel and the `DatagramTrafficHandler` of the UDP
/// channel; all of them run on the node's one event loop, which is what confines this object.
final class TrafficTap {
    var stats = MeshStats()
    let recorder: (any FrameRecorder)?

    init(recorder: (any FrameRecorder)?) { self.recorder = recorder }

    /// Copies the bytes only when something records them. The frame and addresses are autoclosures: without a
    /// recorder (the usual case) nothing is allocated or looked up per frame (a channel's address is read under a
    /// lock, and a sealed datagram's clear form would be a second encoding).
    func capture(
        _ frame: @autoclosure () -> ByteBuffer, _ direction: CapturedFrame.Direction,
        _ transport: CapturedFrame.Transport, local: @autoclosure () -> SocketAddress?,
        remote: @autoclosure () -> SocketAddress?
    ) {
        guard let recorder else { return }
        recorder.record(
            CapturedFrame(
                time: Date(), direction: direction, transport: transport, local: local(), remote: remote(),
                bytes: Array(frame().readableBytesView)))
    }
}

/// Counts and records every whole frame of one TCP connection, in both directions, exactly as it crosses the
/// socket: inbound after `FrameSplitter` (whole frames, not yet decoded, so a frame that fails to decode is still
/// logged), outbound as written (each write is one whole frame). Sits in the pipeline like swift-nio-extras'
/// `WritePCAPHandler`, so nothing else in the mesh needs to remember to record.
final class TrafficHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let tap: TrafficTap

    init(tap: TrafficTap) { self.tap = tap }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        tap.stats.framesReceived += 1
        tap.stats.bytesReceived += frame.readableBytes
        tap.capture(frame, .received, .tcp, local: context.channel.localAddress, remote: context.channel.remoteAddress)
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = unwrapOutboundIn(data)
        tap.stats.framesSent += 1
        tap.stats.bytesSent += frame.readableBytes
        tap.capture(frame, .sent, .tcp, local: context.channel.localAddress, remote: context.channel.remoteAddress)
        context.write(data, promise: promise)
    }
}

/// The UDP counterpart of `TrafficHandler`: records every datagram received (before any check, so rejected ones
/// are in the packet log too) and every datagram sent, and counts the sent ones. Whether a received datagram is
/// accepted, stale or rejected is known only after `DatagramHandler` has checked it, so that handler counts those.
final class DatagramTrafficHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias InboundOut = AddressedEnvelope<ByteBuffer>
    typealias OutboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    private let tap: TrafficTap
    /// v2: datagrams on the socket are sealed; the node records them in clear itself, once opened or before
    /// sealing (`MeshNode+SealedDatagrams`), so the packet log stays plaintext.
    private let sealed: Bool

    init(tap: TrafficTap, sealed: Bool = false) {
        self.tap = tap
        self.sealed = sealed
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        if sealed { return context.fireChannelRead(data) }
        tap.capture(envelope.data, .received, .udp, local: context.channel.localAddress, remote: envelope.remoteAddress)
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let envelope = unwrapOutboundIn(data)
        tap.stats.datagramsSent += 1
        if sealed { return context.write(data, promise: promise) }
        tap.capture(envelope.data, .sent, .udp, local: context.channel.localAddress, remote: envelope.remoteAddress)
        context.write(data, promise: promise)
    }
}
