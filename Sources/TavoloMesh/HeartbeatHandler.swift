import NIOCore
import TavoloProtocol

/// Keeps an established connection alive and notices when it is not (PROTOCOL.md §4.2, §4.7 "Established"): at
/// every `interval` it sends a heartbeat if this node sent nothing on the connection since the previous one, answers
/// the peer's heartbeats with acks, measures round trips from the acks, and asks the session for goodbye `timeout`
/// once nothing has been heard for `timeout`.
///
/// Only silent sessions carry heartbeats: a busy connection already proves itself, and on an idle one the ack of
/// one side's heartbeat is the other side's frame for the interval, so an idle link costs two frames an interval,
/// not four. The first tick, and every `refreshTicks`-th without one, sends a heartbeat anyway, so both sides keep
/// a round-trip time (`peers`' `rttMs`).
///
/// Sits after `PeerSession`, which forwards every frame of an established connection (any frame counts as hearing
/// from the peer) and signals `PeerSessionEvent.established`. Frames it writes go back through the session, which
/// encodes them and applies the slow-reader limit; its requests travel as outbound user events. Time is the event
/// loop's, so tests drive it with `EmbeddedEventLoop.advanceTime`.
final class HeartbeatHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Frame
    typealias OutboundIn = Frame
    typealias OutboundOut = Frame

    /// Ticks after which a heartbeat goes out even on a busy session, for a fresh round-trip time.
    static let refreshTicks = 30

    let interval: TimeAmount
    let timeout: TimeAmount
    /// The number of frames this connection has written so far, from every writer (`PeerSession.framesWritten`):
    /// the node's frames do not pass through this handler.
    private let framesSent: () -> UInt64
    private var lastHeard: NIODeadline?
    private var seq: UInt64 = 0
    private var task: RepeatedTask?
    private var sentAtLastTick: UInt64?
    private var ticksWithoutHeartbeat = 0

    init(interval: TimeAmount, timeout: TimeAmount, framesSent: @escaping () -> UInt64) {
        self.interval = interval
        self.timeout = timeout
        self.framesSent = framesSent
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .established? = event as? PeerSessionEvent, task == nil {
            lastHeard = context.eventLoop.now
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            task = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
                let (handler, context) = bound.value
                handler.tick(context: context)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func tick(context: ChannelHandlerContext) {
        let now = context.eventLoop.now
        if let lastHeard, now - lastHeard > timeout {
            task?.cancel()
            context.triggerUserOutboundEvent(
                PeerSessionRequest.goodbye(.timeout, "nothing heard for \(timeout.forPeople)"), promise: nil)
            return
        }
        let silent = framesSent() == sentAtLastTick
        if seq == 0 || silent || ticksWithoutHeartbeat + 1 >= Self.refreshTicks {
            seq += 1
            ticksWithoutHeartbeat = 0
            context.write(wrapOutboundOut(.heartbeat(Heartbeat(seq: seq, sentAt: now.uptimeNanoseconds))), promise: nil)
        } else {
            ticksWithoutHeartbeat += 1
        }
        // After this tick's own heartbeat: the next tick asks whether anything was sent since this one.
        sentAtLastTick = framesSent()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let now = context.eventLoop.now
        lastHeard = now
        switch unwrapInboundIn(data) {
        case .heartbeat(let hb):
            context.write(wrapOutboundOut(.heartbeatAck(hb)), promise: nil)
        case .heartbeatAck(let hb):
            // sentAt is this node's own clock; a value from the future is the peer's invention, not a round trip.
            guard now.uptimeNanoseconds >= hb.sentAt else { return }
            let rtt = TimeAmount.nanoseconds(Int64(clamping: now.uptimeNanoseconds - hb.sentAt))
            context.triggerUserOutboundEvent(PeerSessionRequest.roundTrip(rtt), promise: nil)
        default:
            break  // already handled by the session; it only counted as hearing from the peer
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        task?.cancel()
        task = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        task?.cancel()
        task = nil
    }
}
