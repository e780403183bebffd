import NIOCore
import TavoloProtocol

/// The handlers of one peer connection, head (socket) to tail:
///
///     v1: FrameSplitter → TrafficHandler → FramePayloadDecoder → PeerSession → HeartbeatHandler
///     v2: SecureChannelHandler → TrafficHandler → FramePayloadDecoder → PeerSession → HeartbeatHandler
///
/// (On v2 the secure channel already cuts the stream into whole frames, checks their headers and limits and
/// passes on one plaintext frame per read: a splitter after it would only parse each header a second time.)
/// Inbound bytes become whole frames (limits checked on the header), are counted and recorded, decoded, run through
/// the connection state machine, and keep the heartbeat alive. Outbound frames are encoded by the session (which
/// applies the slow-reader limit) and counted and recorded on their way to the socket.
enum PeerPipeline {
    static func install(
        on channel: Channel, session: PeerSession, tap: TrafficTap, heartbeatInterval: TimeAmount,
        heartbeatTimeout: TimeAmount, secure: SecureChannelHandler? = nil
    ) throws {
        let ops = channel.pipeline.syncOperations
        if let secure {
            try ops.addHandler(secure)
        } else {
            try ops.addHandler(ByteToMessageHandler(FrameSplitter(maxFirstPayload: FrameLimits.maxHandshakePayload)))
        }
        try ops.addHandler(TrafficHandler(tap: tap))
        try ops.addHandler(FramePayloadDecoder())
        try ops.addHandler(session)
        try ops.addHandler(
            HeartbeatHandler(interval: heartbeatInterval, timeout: heartbeatTimeout) { [weak session] in
                session?.framesWritten ?? 0
            })
    }
}
