import NIOCore
import TavoloProtocol

/// The handlers of one peer connection, head (socket) to tail:
///
///     [SecureChannelHandler →] FrameSplitter → TrafficHandler → FramePayloadDecoder → PeerSession → HeartbeatHandler
///
/// Inbound bytes become whole frames (limits checked on the header), are counted and recorded, decoded, run through
/// the connection state machine, and keep the heartbeat alive. Outbound frames are encoded by the session (which
/// applies the slow-reader limit) and counted and recorded on their way to the socket.
enum PeerPipeline {
    static func install(
        on channel: Channel, session: PeerSession, tap: TrafficTap, heartbeatInterval: TimeAmount,
        heartbeatTimeout: TimeAmount, secure: SecureChannelHandler? = nil
    ) throws {
        let ops = channel.pipeline.syncOperations
        if let secure { try ops.addHandler(secure) }
        try ops.addHandler(ByteToMessageHandler(FrameSplitter(maxFirstPayload: FrameLimits.maxHandshakePayload)))
        try ops.addHandler(TrafficHandler(tap: tap))
        try ops.addHandler(FramePayloadDecoder())
        try ops.addHandler(session)
        try ops.addHandler(HeartbeatHandler(interval: heartbeatInterval, timeout: heartbeatTimeout))
    }
}
