import NIOCore
import TavoloProtocol

/// The node as its sessions' delegate: admission, the peer table, and the events the application sees.
extension MeshNode: PeerSessionDelegate {
    func session(_ session: PeerSession, admit handshake: Handshake) -> HandshakeAdmission.Verdict {
        let existing = peers[handshake.nodeId]?.session
        return admission.decide(
            handshake,
            .init(
                outbound: session.outbound, expectedPeer: session.expectedPeer, shuttingDown: isShutDown,
                establishedExists: existing != nil && existing !== session))
    }

    func sessionEstablished(_ session: PeerSession) {
        finishPending(session)
        guard let h = session.handshake else { return }
        let peer = peers[h.nodeId] ?? PeerRecord(id: h.nodeId, name: h.name)
        peers[h.nodeId] = peer
        if let old = peer.session, old !== session {
            // Admission let the new one in (the dialer dialed again: it no longer trusts the old connection).
            peer.session = nil
            old.goodbye(.duplicateConnection, "replaced by a newer connection from the same node")
        }
        peer.name = h.name
        peer.session = session
        peer.dial.connected()
        peer.udpPort = h.udpPort
        peer.state = .connected
        peer.reason = nil
        peer.lostAt = nil
        peer.lastDatagramSeq = 0
        peer.datagramKeys = session.secureChannel?.sessionKeys.map(DatagramKeys.init)
        sendState.withLockedValue { _ = $0.connected.insert(h.nodeId) }
        logLimited(
            key: "connected \(h.nodeId.hex)", address: session.remoteIP,
            "connected to \(h.name) (\(h.nodeId.short)) at \(session.remoteDescription)")
        emit(.peerConnected(peer.info))
    }

    func session(_ session: PeerSession, received body: [UInt8], for service: Service, form: MessageForm) {
        guard let from = session.peerID else { return }
        emit(.message(MeshMessage(from: from, channel: .reliable, service: service, form: form, body: body)))
    }

    func session(_ session: PeerSession, measured roundTrip: TimeAmount) {
        guard let pid = session.peerID, let peer = peers[pid], peer.session === session else { return }
        peer.rttMs = Double(roundTrip.nanoseconds) / 1e6
    }

    func sessionClosed(_ session: PeerSession, reason: String) {
        sessions[ObjectIdentifier(session)] = nil
        finishPending(session)
        guard let pid = session.peerID ?? session.expectedPeer, let peer = peers[pid], peer.session === session else {
            // A connection that was not (or no longer) a peer's session: refused, cut, replaced, or a failed dial.
            logLimited(
                key: session.remoteIP ?? "?", address: session.remoteIP,
                "connection \(session.outbound ? "to" : "from") \(session.remoteDescription) closed: \(reason)")
            if session.outbound, let pid = session.expectedPeer, let peer = peers[pid], peer.session == nil,
                peer.dial.dialing
            {
                peer.dial.dialFailed(now: loop.now)
                if peer.state == .connecting {
                    // A handshake that did not authenticate (§3.8): the same circle tag but not the same key. Not
                    // dialed again until its service changes (a restart with the right passphrase announces again).
                    peer.state = reason.contains(GoodbyeCode.circleMismatch.rawValue) ? .otherCircle : .discovered
                    peer.reason = reason
                }
            }
            return
        }
        peer.session = nil
        sendState.withLockedValue { _ = $0.connected.remove(pid) }
        // Refused message 3 of our handshake (§3.8): not the same circle; not dialed again until it announces again.
        peer.state = reason.contains(GoodbyeCode.circleMismatch.rawValue) ? .otherCircle : .lost
        peer.reason = reason
        peer.dial.connectionLost(now: loop.now, policy: dialPolicy)
        peer.lostAt = loop.now
        logLimited(key: pid.hex, address: session.remoteIP, "lost \(peer.name) (\(pid.short)): \(reason)")
        emit(.peerLost(peer.info, reason: reason))
    }

    /// One line per peer per interval, and a few per address; the next line written says how many were left out.
    func logLimited(key: String, address: String?, _ line: @autoclosure () -> String) {
        let now = loop.now
        let perPeer = peerLog.admit(key, now: now)
        guard perPeer.write else { return }
        let address = address ?? "?"
        let perAddress = addressLog.admit(address, now: now)
        guard perAddress.write else { return }
        var summary = ""
        if perPeer.leftOut > 0 { summary += " (\(perPeer.leftOut) more like this were not logged)" }
        if perAddress.leftOut > 0 { summary += " (\(perAddress.leftOut) more lines about \(address) were not logged)" }
        logger.info("\(line())\(summary)")
    }

    /// Forgets lost peers that are no longer advertised once there are too many or they are too old.
    func forgetLostPeers() {
        let candidates = peers.values.compactMap { p -> (id: NodeID, since: NIODeadline)? in
            guard p.state == .lost, p.advertised == nil, p.session == nil, let since = p.lostAt else { return nil }
            return (p.id, since)
        }
        let forget = Set(lostPeerRetention.toForget(candidates, now: loop.now))
        guard !forget.isEmpty else { return }
        for id in forget { peers[id] = nil }
        namesSeen = namesSeen.filter { !forget.contains($0.value) }
    }
}

/// The node decides on datagrams: from a connected peer, at its address, newer than the last (§4.6 checks 2–4).
extension MeshNode: DatagramHandlerDelegate {
    func datagram(_ d: Datagram, from address: SocketAddress) -> DatagramVerdict {
        guard let peer = peers[d.sender], let session = peer.session, session.remoteIP == address.ipAddress else {
            return .rejected
        }
        guard d.seq > peer.lastDatagramSeq else { return .stale }
        peer.lastDatagramSeq = d.seq
        emit(
            .message(
                MeshMessage(from: d.sender, channel: .unreliable, service: d.service, form: d.form, body: d.body)))
        return .accepted
    }
}
