import TavoloProtocol

/// Whether to accept a peer's handshake: the checks of PROTOCOL.md §4.7, in the spec's order, first failure wins.
/// Pure: the session says what it knows about the connection, the node what it knows about the mesh. The handshake
/// is already well-formed (§4.1; a malformed one never gets here, it is a `bad-frame`).
struct HandshakeAdmission: Sendable {
    let localID: NodeID
    let localVersion: Int

    /// A refusal: the goodbye to send before closing.
    struct Refusal: Equatable, Sendable {
        var code: GoodbyeCode
        var reason: String
    }

    /// What is known about the connection and the node when the handshake arrives.
    struct Situation: Equatable, Sendable {
        /// This node dialed the connection.
        var outbound: Bool
        /// The id the dialed service advertised (outbound connections only).
        var expectedPeer: NodeID?
        var shuttingDown: Bool
        /// Another connection to the same peer has completed its handshake and is still open.
        var establishedExists: Bool
    }

    enum Verdict: Equatable, Sendable {
        /// Accept; if `replacesExisting`, the older connection to the same peer is closed with
        /// `duplicate-connection` (the dialer dialed again because it gave up on the old one).
        case accept(replacesExisting: Bool)
        case refuse(Refusal)
    }

    func decide(_ h: Handshake, _ s: Situation) -> Verdict {
        if h.version != localVersion {
            return .refuse(
                .init(
                    code: .versionMismatch,
                    reason: "protocol version \(h.version) is not supported (this node speaks \(localVersion))"))
        }
        if h.nodeId == localID {
            return .refuse(.init(code: .selfConnection, reason: "this is node \(localID.short) itself"))
        }
        if s.outbound, let expected = s.expectedPeer, expected != h.nodeId {
            return .refuse(
                .init(
                    code: .protocolError, reason: "advertised id \(expected.short) but handshake says \(h.nodeId.short)"
                ))
        }
        if !s.outbound && h.nodeId > localID {
            return .refuse(
                .init(
                    code: .wrongDialer,
                    reason: "the node with the smaller id dials: \(localID.short) < \(h.nodeId.short)"))
        }
        if s.shuttingDown { return .refuse(.init(code: .shutdown, reason: "node is shutting down")) }
        if s.outbound && s.establishedExists {
            return .refuse(.init(code: .duplicateConnection, reason: "already connected to \(h.nodeId.short)"))
        }
        return .accept(replacesExisting: s.establishedExists)
    }
}
