import NIOCore
import TavoloProtocol

/// What a `PeerSession` asks of, and tells, the node that owns it. Every call is made on the session's event loop.
/// The session only speaks the protocol; every decision about peers (admission, who is connected) is the delegate's.
protocol PeerSessionDelegate: AnyObject {
    /// A well-formed handshake arrived: accept it (the session becomes established) or refuse it.
    func session(_ session: PeerSession, admit handshake: Handshake) -> HandshakeAdmission.Verdict
    /// Both handshakes are done; `session.handshake` is the peer's.
    func sessionEstablished(_ session: PeerSession)
    /// An application message arrived on an established session: for `service`, in `form` (the frame's type).
    func session(_ session: PeerSession, received body: [UInt8], for service: Service, form: MessageForm)
    /// A heartbeat was answered after `roundTrip`.
    func session(_ session: PeerSession, measured roundTrip: TimeAmount)
    /// The connection is closed; `reason` says why (the goodbye sent or received, or the error).
    func sessionClosed(_ session: PeerSession, reason: String)
}

/// Events a session passes along its pipeline.
enum PeerSessionEvent: Sendable {
    /// Inbound, to the handlers after the session: the handshakes are done (heartbeats start).
    case established
}

/// Requests from the handlers after the session, sent as outbound user events (towards the session).
enum PeerSessionRequest: Sendable {
    /// Say goodbye with this code and reason, then close.
    case goodbye(GoodbyeCode, String)
    /// A heartbeat was answered after this long.
    case roundTrip(TimeAmount)
}
