import NIOCore
import NIOPosix
import TavoloProtocol

/// Discovery input and dialing: what DNS-SD says turns into peers, and `DialPolicy` says when to dial them.
extension MeshNode {
    /// A service was found or updated in DNS-SD.
    public func discovered(_ service: DiscoveredNode) {
        loop.execute { self.handleDiscovered(service) }
    }

    /// A service disappeared from DNS-SD (its connection, if any, stays until it fails).
    public func removed(name: String) {
        loop.execute {
            guard let id = self.namesSeen[name], let peer = self.peers[id] else { return }
            peer.advertised = nil
        }
    }

    private func handleDiscovered(_ service: DiscoveredNode) {
        guard !isShutDown else { return }
        guard let idText = service.txt[TXTKey.id], let peerID = NodeID(hex: idText) else {
            logger.debug("ignoring service \(service.name): no valid id in TXT")
            return
        }
        guard peerID != id else { return }
        // A record is not authenticated (anyone can publish any id): it never renames or redirects a peer whose
        // connection has proved its key. Dialing a record that lies is harmless — the handshake proves who
        // answers (§3.7, §4.7) — but a connected peer's name is the one its handshake gave.
        if let known = peers[peerID], known.session != nil, known.name != service.name {
            if peerLog.admit(peerID.hex, now: loop.now).write {
                logger.notice("ignoring service \(service.name): it advertises the id of connected peer \(known.name)")
            }
            return
        }
        namesSeen[service.name] = peerID
        let isNew = peers[peerID] == nil
        let peer = peers[peerID] ?? PeerRecord(id: peerID, name: service.name)
        peers[peerID] = peer
        peer.name = service.name
        peer.advertised = service
        peer.udpPort = Int(service.txt[TXTKey.udpPort] ?? "") ?? peer.udpPort
        let version = service.txt[TXTKey.version] ?? "?"
        if version != String(config.wireVersion) {
            if peer.state != .incompatible {
                peer.state = .incompatible
                peer.reason = "protocol version \(version), this node speaks \(config.wireVersion)"
                emit(.peerIncompatible(peer.info, reason: peer.reason ?? ""))
            }
            return
        }
        let theirCircle = service.txt[TXTKey.circle]
        if theirCircle != config.circle?.tag {
            if peer.state != .otherCircle && peer.session == nil {
                peer.state = .otherCircle
                peer.reason =
                    "other circle (\(theirCircle.map { "tag \($0)" } ?? "none")); this node: \(config.circle.map { "\($0.name), tag \($0.tag)" } ?? "none")"
                emit(.peerIncompatible(peer.info, reason: peer.reason ?? ""))
            }
            return
        }
        if peer.state == .incompatible || peer.state == .otherCircle { peer.state = .discovered }
        if isNew { emit(.peerDiscovered(peer.info)) }
        if peer.session == nil {
            peer.dial.rediscovered(now: loop.now)
            dialIfDue(peer)
        }
    }

    /// Runs every heartbeat interval: forgets lost peers past retention, and dials again the peers whose backoff or
    /// loss delay has passed.
    func redialDuePeers() {
        guard !isShutDown else { return }
        forgetLostPeers()
        for peer in peers.values where peer.session == nil { dialIfDue(peer) }
    }

    func dialIfDue(_ peer: PeerRecord) {
        guard !isShutDown, let service = peer.advertised,
            dialPolicy.shouldDial(
                peer.id, state: peer.dial, connected: peer.session != nil, advertised: true,
                compatible: peer.state != .incompatible && peer.state != .otherCircle, now: loop.now)
        else { return }
        peer.dial.dialStarted()
        peer.state = .connecting
        emit(.peerConnecting(peer.info))
        let expected = peer.id
        ClientBootstrap(group: loop)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)  // see bind(): SOL_TCP, not SOL_SOCKET
            .connectTimeout(.seconds(2))
            .channelInitializer { [weak self] channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let self else { throw MeshError.shutDown }
                    try self.installSession(on: channel, outbound: true, expected: expected)
                }
            }
            .connect(host: service.address, port: service.port)
            .whenFailure { [weak self] error in
                guard let self else { return }
                peer.dial.dialFailed(now: self.loop.now)
                peer.reason = DialFailure.text(error, address: service.address, port: service.port)
                if peer.session == nil { peer.state = .discovered }
                self.logger.debug("dial \(service.address):\(service.port) failed: \(error)")
            }
    }
}
