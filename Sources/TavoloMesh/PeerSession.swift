import Logging
import NIOCore
import TavoloProtocol

/// One TCP connection to a peer: the connection state machine of PROTOCOL.md §4.7 (handshake, established,
/// closing), goodbyes, application frames, and the outbound queue limit. Lives on the node's event loop.
/// Heartbeats are `HeartbeatHandler`'s, counting and capture `TrafficHandler`'s; decisions about peers are the
/// delegate's.
final class PeerSession: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Frame
    typealias InboundOut = Frame
    typealias OutboundIn = Frame
    typealias OutboundOut = ByteBuffer

    enum Phase { case awaitingHandshake, established, closing }

    /// What a session needs to know of its node, fixed when the connection is made.
    struct Settings {
        /// Sent first, at once, on every connection.
        var localHandshake: Handshake
        var handshakeTimeout: TimeAmount
        /// Bytes queued and not yet sent beyond which the peer is dropped as a slow reader.
        var maxQueuedBytes: Int
        /// How long a goodbye may take to be written before the connection is closed anyway.
        var goodbyeGrace: TimeAmount = .seconds(1)
        var logger: Logger
        /// The channel's write-buffer high-water mark, when the node set one: while the channel is writable fewer
        /// bytes than this are queued, so a frame that fits under `maxQueuedBytes` with it needs no exact count.
        var writeBufferHighWater: Int? = nil
    }

    weak var delegate: PeerSessionDelegate?
    let settings: Settings
    /// True when this node dialed.
    let outbound: Bool
    /// The id the dialed service advertised; the handshake must match it.
    let expectedPeer: NodeID?
    private(set) var phase = Phase.awaitingHandshake
    private(set) var handshake: Handshake?
    private var context: ChannelHandlerContext?
    private var handshakeTimer: Scheduled<Void>?
    private var started = false
    private var flushScheduled = false
    /// Frames written on this connection so far, by the node and by the handlers after the session: the heartbeat
    /// handler sends only on a session silent for an interval (PROTOCOL.md §4.7).
    private(set) var framesWritten: UInt64 = 0
    /// Why the session ended, reported when the channel goes inactive.
    private(set) var closeReason: String?
    private(set) var remoteAddress: SocketAddress?
    /// Set by the node before the connection starts when it must be refused whatever the handshake (too many
    /// pending connections from that address, or too many new ones this minute): the handshake still goes first,
    /// then this goodbye.
    var refusalAtStart: HandshakeAdmission.Refusal?
    /// The v2 secure channel at the head of this connection's pipeline; its keys outlive the handshake.
    var secureChannel: SecureChannelHandler?

    init(settings: Settings, outbound: Bool, expectedPeer: NodeID?) {
        self.settings = settings
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

    /// Both sides speak first: the handshake goes out at once, and the other side's must come within the timeout.
    private func start(context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        remoteAddress = context.channel.remoteAddress
        send(.handshake(settings.localHandshake), context: context)
        if let refusal = refusalAtStart { return goodbye(refusal.code, refusal.reason) }
        let me = NIOLoopBound(self, eventLoop: context.eventLoop)
        let timeout = settings.handshakeTimeout
        handshakeTimer = context.eventLoop.scheduleTask(in: timeout) {
            guard me.value.phase == .awaitingHandshake else { return }
            me.value.goodbye(.handshakeTimeout, "no handshake within \(timeout.forPeople)")
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch (phase, frame) {
        case (.closing, _):
            break
        case (_, .goodbye(let g)):
            closeReason = "peer said goodbye: \(g.code.rawValue): \(g.reason)"
            phase = .closing
            context.close(promise: nil)
        case (.awaitingHandshake, .handshake(let h)):
            handshakeTimer?.cancel()
            switch delegate?.session(self, admit: h) ?? .refuse(.init(code: .shutdown, reason: "node is gone")) {
            case .refuse(let refusal):
                goodbye(refusal.code, refusal.reason)
            case .accept:
                handshake = h
                phase = .established
                delegate?.sessionEstablished(self)
                context.fireUserInboundEventTriggered(PeerSessionEvent.established)
            }
        case (.awaitingHandshake, _):
            goodbye(.handshakeRequired, "expected a handshake, got \(frame.type)")
        case (.established, .handshake):
            goodbye(.protocolError, "a second handshake")
        case (.established, .datagram):
            goodbye(.protocolError, "datagrams belong on UDP")
        case (.established, .application(let service, let body)):
            delegate?.session(self, received: body, for: service, form: .json)
            context.fireChannelRead(data)  // heard from the peer
        case (.established, .compact(let service, let body)):
            delegate?.session(self, received: body, for: service, form: .compact)
            context.fireChannelRead(data)
        case (.established, .heartbeat), (.established, .heartbeatAck):
            context.fireChannelRead(data)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard phase != .closing else { return }
        if let frameError = error as? FrameError {
            goodbye(frameError.goodbyeCode, frameError.description)
        } else {
            // In words for `tavolo peers` and the page: the secure channel's own (a refusal's goodbye code decides
            // the peer's state, `otherCircle`), NIO's turned into words (its text is a type name and an errno).
            let why = (error as? SecureChannelError).map { "\($0)" } ?? DialFailure.cause(error)
            closeReason = "connection error: " + why
            settings.logger.debug("session closed on \(error)")
            phase = .closing
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        reportClosed()
        context.fireChannelInactive()
    }

    /// A channel whose connect failed is closed without ever going inactive; its handlers are still removed, and
    /// the node must still forget the session.
    func handlerRemoved(context: ChannelHandlerContext) {
        reportClosed()
        self.context = nil
    }

    private var reportedClosed = false
    private func reportClosed() {
        guard !reportedClosed else { return }
        reportedClosed = true
        handshakeTimer?.cancel()
        let wasClosing = phase == .closing
        phase = .closing
        delegate?.sessionClosed(self, reason: closeReason ?? (wasClosing ? "closed" : "connection closed by peer"))
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        switch event as? PeerSessionRequest {
        case .goodbye(let code, let reason)?:
            goodbye(code, reason)
            promise?.succeed()
        case .roundTrip(let rtt)?:
            delegate?.session(self, measured: rtt)
            promise?.succeed()
        case nil:
            context.triggerUserOutboundEvent(event, promise: promise)
        }
    }

    // MARK: Sending

    /// Frames from the handlers after the session (heartbeats, acks) take the same path as the node's.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if send(unwrapOutboundIn(data), context: context) {
            promise?.succeed()
        } else {
            promise?.fail(ChannelError.ioOnClosedChannel)
        }
    }

    @discardableResult
    private func send(_ frame: Frame, context: ChannelHandlerContext) -> Bool {
        guard phase != .closing else { return false }
        let bytes: [UInt8]
        do { bytes = try frame.encoded() } catch {
            settings.logger.error("cannot encode \(frame.type): \(error)")
            return false
        }
        return write(bytes, type: frame.type, context: context)
    }

    /// Writes an already encoded frame (the node encodes a broadcast once for every peer). False if it was not
    /// written: the session is closing, or the peer is not reading (then it is dropped as a slow reader).
    @discardableResult
    func write(_ bytes: [UInt8], type: MessageType, context: ChannelHandlerContext? = nil) -> Bool {
        guard let context = context ?? self.context else { return false }
        return write(context.channel.allocator.buffer(bytes: bytes), type: type, context: context)
    }

    /// Writes an already encoded frame held in a buffer. A broadcast passes the same buffer to every peer: the
    /// pipeline only reads it (the secure channel seals from it into a new buffer), so it is encoded once.
    @discardableResult
    func write(_ frame: ByteBuffer, type: MessageType, context: ChannelHandlerContext? = nil) -> Bool {
        guard let context = context ?? self.context, phase != .closing else { return false }
        // The channel's own count of bytes written but not yet sent: no per-write promise needed. Asking for it
        // costs a chain of dynamic casts in NIO's option lookup; while the channel is writable (an atomic read)
        // the high-water mark bounds it, which is enough for any frame well under the limit.
        let bounded = settings.writeBufferHighWater.map {
            context.channel.isWritable && $0 + frame.readableBytes <= settings.maxQueuedBytes
        }
        let queued =
            bounded == true ? 0 : ((try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0)
        if queued + frame.readableBytes > settings.maxQueuedBytes {
            closeReason = "slow reader: more than \(settings.maxQueuedBytes) bytes queued"
            goodbye(.slowReader, "more than \(settings.maxQueuedBytes) bytes queued; not reading")
            context.close(promise: nil)
            return false
        }
        context.write(wrapOutboundOut(frame), promise: nil)
        framesWritten &+= 1
        scheduleFlush(context)
        return true
    }

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

    /// Sends a goodbye with a reason, then closes once it is written (or after a grace period if the peer is not
    /// reading). The goodbye is the last frame: nothing is written after it.
    func goodbye(_ code: GoodbyeCode, _ reason: String) {
        guard let context, phase != .closing else { return }
        phase = .closing
        // Logged by the delegate when the connection has closed, rate-limited per peer (a peer in a loop of bad
        // frames must not fill the log).
        if closeReason == nil { closeReason = "\(code.rawValue): \(reason)" }
        guard let bytes = try? Frame.goodbye(Goodbye(code: code, reason: reason)).encoded() else {
            context.close(promise: nil)
            return
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(bytes: bytes))).whenComplete { _ in
            channel.close(promise: nil)
        }
        context.eventLoop.scheduleTask(in: settings.goodbyeGrace) { channel.close(promise: nil) }
    }
}

extension TimeAmount {
    /// "5 s" or "200 ms", for goodbye reasons and logs.
    var forPeople: String {
        nanoseconds % 1_000_000_000 == 0 ? "\(nanoseconds / 1_000_000_000) s" : "\(nanoseconds / 1_000_000) ms"
    }
}

extension Duration {
    /// The same span as NIO's `TimeAmount` (the mesh's timers, and the daemon's table timers on its loop).
    public var timeAmount: TimeAmount {
        let (s, atto) = components
        return .nanoseconds(s * 1_000_000_000 + atto / 1_000_000_000)
    }
}
