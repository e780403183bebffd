import Foundation
import Logging
import NIOCore
import TavoloProtocol

/// One TCP connection to a peer: handshake, heartbeats, goodbye, application frames (PROTOCOL.md §4).
/// Lives on the node's event loop; every decision about peers is the node's, this handler only speaks.
final class PeerSession: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Frame
    typealias OutboundOut = ByteBuffer

    enum Phase { case awaitingHandshake, established, closing }

    unowned let node: MeshNode
    /// True when this node dialed.
    let outbound: Bool
    /// The id the dialed service advertised; the handshake must match it.
    let expectedPeer: NodeID?
    private(set) var phase = Phase.awaitingHandshake
    private(set) var handshake: Handshake?
    private var context: ChannelHandlerContext?
    var lastHeard = NIODeadline.now()
    private var heartbeatSeq: UInt64 = 0
    private var handshakeTimer: Scheduled<Void>?
    /// Why the session ended, reported when the channel goes inactive.
    private(set) var closeReason: String?
    var remoteAddress: SocketAddress?

    init(node: MeshNode, outbound: Bool, expectedPeer: NodeID?) {
        self.node = node
        self.outbound = outbound
        self.expectedPeer = expectedPeer
    }

    var peerID: NodeID? { handshake?.nodeId }
    var remoteIP: String? { remoteAddress?.ipAddress }
    var remoteDescription: String {
        guard let a = remoteAddress, let ip = a.ipAddress, let port = a.port else { return "?" }
        return "\(ip):\(port)"
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    private var started = false
    private func start(context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        remoteAddress = context.channel.remoteAddress
        lastHeard = .now()
        send(.handshake(node.localHandshake))
        let me = NIOLoopBound(self, eventLoop: context.eventLoop)
        handshakeTimer = context.eventLoop.scheduleTask(in: node.config.handshakeTimeout.timeAmount) {
            let session = me.value
            guard session.phase == .awaitingHandshake else { return }
            session.goodbye(.handshakeTimeout, "no handshake within \(session.node.config.handshakeTimeout)")
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard phase != .closing else { return }
        lastHeard = .now()
        switch (phase, frame) {
        case (_, .goodbye(let g)):
            closeReason = "peer said goodbye: \(g.code.rawValue): \(g.reason)"
            phase = .closing
            context.close(promise: nil)
        case (.awaitingHandshake, .handshake(let h)):
            handshakeTimer?.cancel()
            if let (code, reason) = node.sessionOffered(self, handshake: h) {
                goodbye(code, reason)
            } else {
                handshake = h
                phase = .established
                node.sessionEstablished(self)
            }
        case (.awaitingHandshake, _):
            goodbye(.handshakeRequired, "expected a handshake, got \(frame.type)")
        case (.established, .heartbeat(let hb)):
            send(.heartbeatAck(hb))
        case (.established, .heartbeatAck(let hb)):
            node.sessionRoundTrip(self, sentAt: hb.sentAt)
        case (.established, .application(let body)):
            node.sessionMessage(self, body: body)
        case (.established, .handshake):
            goodbye(.protocolError, "a second handshake")
        case (.established, .datagram):
            goodbye(.protocolError, "datagrams belong on UDP")
        case (.closing, _):
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard phase != .closing else { return }
        if let frameError = error as? FrameError {
            goodbye(frameError.goodbyeCode, frameError.description)
        } else {
            closeReason = "connection error: \(error)"
            phase = .closing
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        handshakeTimer?.cancel()
        let wasClosing = phase == .closing
        phase = .closing
        node.sessionClosed(self, reason: closeReason ?? (wasClosing ? "closed" : "connection closed by peer"))
        context.fireChannelInactive()
    }

    // MARK: Sending

    /// Queues a frame; a peer whose queue passes the limit is dropped as a slow reader.
    @discardableResult
    func send(_ frame: Frame) -> Bool {
        guard let context, phase != .closing || frame.type == .goodbye else { return false }
        let bytes: [UInt8]
        do { bytes = try frame.encoded() } catch {
            node.logger.error("cannot encode \(frame.type): \(error)")
            return false
        }
        return write(bytes, type: frame.type, context: context)
    }

    /// Writes an already encoded frame.
    @discardableResult
    func write(_ bytes: [UInt8], type: MessageType, context: ChannelHandlerContext? = nil) -> Bool {
        guard let context = context ?? self.context, phase != .closing || type == .goodbye else { return false }
        // The channel's own count of bytes written but not yet sent: no per-write promise needed.
        let queued = (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
        if queued + bytes.count > node.config.maxQueuedBytes && type != .goodbye {
            closeReason = "slow reader: more than \(node.config.maxQueuedBytes) bytes queued"
            goodbye(.slowReader, "more than \(node.config.maxQueuedBytes) bytes queued; not reading")
            context.close(promise: nil)
            return false
        }
        node.stats.sent(type, bytes: bytes.count)
        record(bytes, context: context)
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
        scheduleFlush(context)
        return true
    }

    private var flushScheduled = false

    /// Flushes once the loop has run what is queued now: frames written in one pass (a confirmation and the
    /// next move, a broadcast) leave in one system call and wake the peer once.
    private func scheduleFlush(_ context: ChannelHandlerContext) {
        guard !flushScheduled else { return }
        flushScheduled = true
        let me = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.execute {
            me.value.flushScheduled = false
            me.value.context?.flush()
        }
    }

    private func record(_ bytes: [UInt8], context: ChannelHandlerContext) {
        guard let recorder = node.config.recorder else { return }
        recorder.record(
            CapturedFrame(
                time: Date(), direction: .sent, transport: .tcp, local: context.channel.localAddress,
                remote: context.channel.remoteAddress, bytes: bytes))
    }

    func sendHeartbeat(now: NIODeadline) {
        heartbeatSeq += 1
        send(.heartbeat(Heartbeat(seq: heartbeatSeq, sentAt: UInt64(now.uptimeNanoseconds))))
    }

    /// Sends a goodbye with a reason, then closes once it is written (or at once if the peer is not reading).
    func goodbye(_ code: GoodbyeCode, _ reason: String) {
        guard let context, phase != .closing else { return }
        phase = .closing
        if closeReason == nil { closeReason = "\(code.rawValue): \(reason)" }
        node.logger.info("closing connection to \(remoteDescription): \(code.rawValue): \(reason)")
        let frame = Frame.goodbye(Goodbye(code: code, reason: reason))
        guard let bytes = try? frame.encoded() else {
            context.close(promise: nil)
            return
        }
        node.stats.sent(.goodbye, bytes: bytes.count)
        record(bytes, context: context)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(bytes: bytes))).whenComplete { _ in
            channel.close(promise: nil)
        }
        // Do not wait forever on a peer that does not read.
        context.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }
}

extension Duration {
    var timeAmount: TimeAmount {
        let (s, atto) = components
        return .nanoseconds(s * 1_000_000_000 + atto / 1_000_000_000)
    }
}
