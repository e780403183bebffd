import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import TavoloProtocol

/// A node of the Tavolo mesh: listens on TCP and UDP, connects to every compatible node it is told about
/// (the smaller id dials), keeps heartbeats, and delivers messages as `events`.
///
/// All mutable state is confined to one event loop; the public API hops onto it.
public final class MeshNode: @unchecked Sendable {
    public let id: NodeID
    public let config: MeshConfiguration
    let logger: Logger
    private let group: MultiThreadedEventLoopGroup
    let loop: EventLoop
    /// Peer state changes and received messages, in order.
    public let events: AsyncStream<MeshEvent>
    private let continuation: AsyncStream<MeshEvent>.Continuation

    public private(set) var tcpPort = 0
    public private(set) var udpPort = 0

    // Loop-confined state.
    private var server: Channel?
    private var udp: Channel?
    private var peers: [NodeID: PeerRecord] = [:]
    private var namesSeen: [String: NodeID] = [:]
    private var sessions: [ObjectIdentifier: PeerSession] = [:]
    private var heartbeat: RepeatedTask?
    private var datagramSeq: UInt64 = 0
    private var isShutDown = false
    private var eventHandler: (@Sendable (MeshEvent) -> Void)?
    var stats = MeshStats()

    /// What `send` needs to know off the loop, so a send to named peers can be handed to the loop with
    /// `execute` instead of `submit(...).get()`. Awaiting the loop's answer cost a second thread wake-up per
    /// message (the loop resuming the sender's task), which was a third of the reliable round trip on 2 cores
    /// (scripts/bench mesh). Written on the loop, read by senders; guarded by the box's lock.
    struct SendState {
        /// Peers with an established session.
        var connected: Set<NodeID> = []
        var shutDown = false
        /// Bytes handed to the loop by `send` and not yet written to a channel. Above `maxUnsentBytes` a
        /// sender waits for the loop again, so a sender faster than the loop cannot grow its task queue forever.
        var unsentBytes = 0
    }
    static let maxUnsentBytes = 1 << 20
    let sendState = NIOLockedValueBox(SendState())

    /// Confined to the node's event loop like the rest of its state.
    final class PeerRecord: @unchecked Sendable {
        let id: NodeID
        var name: String
        var advertised: DiscoveredNode?
        var state: PeerState = .discovered
        var session: PeerSession?
        var dialing = false
        var udpPort: Int?
        var rttMs: Double?
        var reason: String?
        var lastDatagramSeq: UInt64 = 0
        var nextDialAt = NIODeadline.uptimeNanoseconds(0)
        var dialFailures = 0

        init(id: NodeID, name: String) {
            self.id = id
            self.name = name
        }
    }

    private init(id: NodeID, config: MeshConfiguration, logger: Logger) {
        self.id = id
        self.config = config
        self.logger = logger
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
        (events, continuation) = AsyncStream.makeStream(of: MeshEvent.self)
    }

    /// Binds TCP and UDP and starts heartbeats. Discovery is the caller's: feed it `discovered`/`removed`.
    public static func start(id: NodeID, config: MeshConfiguration, logger: Logger) async throws -> MeshNode {
        let node = MeshNode(id: id, config: config, logger: logger)
        do {
            try await node.bind()
        } catch {
            try? await node.group.shutdownGracefully()
            throw error
        }
        return node
    }

    private func bind() async throws {
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // `.tcpOption`, not `.socketOption`: the latter is level SOL_SOCKET, where option 1 is SO_DEBUG
            // (strace showed setsockopt(SO_DEBUG) on every accepted socket). Nagle stayed off only because
            // NIO's default TCP_NODELAY on the listener is inherited by accepted sockets on Linux.
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { [unowned self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try self.installSession(on: channel, outbound: false, expected: nil)
                }
            }
            .bind(host: config.host, port: config.port).get()
        self.server = server
        tcpPort = server.localAddress?.port ?? 0
        let udpBootstrap = DatagramBootstrap(group: group)
            .channelInitializer { [unowned self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(DatagramHandler(node: self))
                }
            }
        let udp: Channel
        do {
            udp = try await udpBootstrap.bind(host: config.host, port: tcpPort).get()
        } catch {
            logger.warning("UDP port \(tcpPort) is taken; using another (advertised in TXT 'u')")
            udp = try await udpBootstrap.bind(host: config.host, port: 0).get()
        }
        self.udp = udp
        udpPort = udp.localAddress?.port ?? 0
        let interval = config.heartbeatInterval.timeAmount
        heartbeat = loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [weak self] _ in self?.tick() }
        logger.info("listening on tcp \(tcpPort) udp \(udpPort) as \(id.short)")
    }

    private func installSession(on channel: Channel, outbound: Bool, expected: NodeID?) throws {
        let session = PeerSession(node: self, outbound: outbound, expectedPeer: expected)
        _ = channel.setOption(.writeBufferWaterMark, value: .init(low: 256 << 10, high: 1 << 20))
        let recorder = config.recorder
        // Runs on the loop, like the rest of the node's state.
        let onRaw: (ByteBuffer) -> Void = { [unowned self] frame in
            self.stats.received(bytes: frame.readableBytes)
            recorder?.record(
                CapturedFrame(
                    time: Date(), direction: .received, transport: .tcp, local: channel.localAddress,
                    remote: channel.remoteAddress, bytes: Array(frame.readableBytesView)))
        }
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(onRawFrame: onRaw)))
        try channel.pipeline.syncOperations.addHandler(session)
        sessions[ObjectIdentifier(session)] = session
    }

    /// The event loop that owns this node's state; an actor may use it as its executor.
    public var eventLoop: EventLoop { loop }

    /// Delivers events to `handler`, called on the node's event loop, instead of the `events` stream: no thread
    /// hop per message. The handler must be quick and must not block.
    public func setEventHandler(_ handler: @escaping @Sendable (MeshEvent) -> Void) {
        loop.execute { self.eventHandler = handler }
    }

    private func emit(_ event: MeshEvent) {
        if let eventHandler { eventHandler(event) } else { continuation.yield(event) }
    }

    /// The TXT record to advertise (PROTOCOL.md §6).
    public var txtRecord: [String: String] {
        [TXTKey.id: id.hex, TXTKey.version: String(config.wireVersion), TXTKey.udpPort: String(udpPort)]
    }

    var localHandshake: Handshake {
        Handshake(
            version: Int(config.wireVersion), nodeId: id, name: config.name, udpPort: udpPort,
            capabilities: config.capabilities.sorted())
    }

    // MARK: Discovery input

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
                emit(.peerIncompatible(info(peer), reason: peer.reason ?? ""))
            }
            return
        }
        if peer.state == .incompatible { peer.state = .discovered }
        if isNew { emit(.peerDiscovered(info(peer))) }
        if peer.session == nil {
            peer.nextDialAt = .now()
            peer.dialFailures = 0
            maybeDial(peer)
        }
    }

    private func maybeDial(_ peer: PeerRecord) {
        guard !isShutDown, id < peer.id, peer.session == nil, !peer.dialing, peer.state != .incompatible,
            let service = peer.advertised, NIODeadline.now() >= peer.nextDialAt
        else { return }
        peer.dialing = true
        peer.state = .connecting
        emit(.peerConnecting(info(peer)))
        let expected = peer.id
        ClientBootstrap(group: loop)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)  // see bind(): SOL_TCP, not SOL_SOCKET
            .connectTimeout(.seconds(2))
            .channelInitializer { [unowned self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try self.installSession(on: channel, outbound: true, expected: expected)
                }
            }
            .connect(host: service.address, port: service.port)
            .whenFailure { [weak self] error in
                guard let self else { return }
                peer.dialing = false
                peer.dialFailures += 1
                let backoff = min(5_000, 250 << min(peer.dialFailures, 5))
                peer.nextDialAt = .now() + .milliseconds(Int64(backoff))
                peer.reason = "dial \(service.address):\(service.port) failed: \(error)"
                if peer.session == nil { peer.state = .discovered }
                self.logger.debug("\(peer.reason ?? "")")
            }
    }

    // MARK: Session callbacks (on the loop)

    /// Decides whether a handshake is accepted; returns the refusal otherwise.
    func sessionOffered(_ session: PeerSession, handshake h: Handshake) -> (GoodbyeCode, String)? {
        if h.version != Int(config.wireVersion) {
            return (
                .versionMismatch,
                "protocol version \(h.version) is not supported (this node speaks \(config.wireVersion))"
            )
        }
        if h.nodeId == id { return (.selfConnection, "this is node \(id.short) itself") }
        if let expected = session.expectedPeer, expected != h.nodeId {
            return (.protocolError, "advertised id \(expected.short) but handshake says \(h.nodeId.short)")
        }
        if !session.outbound && h.nodeId > id {
            return (.wrongDialer, "the node with the smaller id dials: \(id.short) < \(h.nodeId.short)")
        }
        if isShutDown { return (.shutdown, "node is shutting down") }
        if let existing = peers[h.nodeId]?.session, existing !== session, session.outbound {
            _ = existing
            return (.duplicateConnection, "already connected to \(h.nodeId.short)")
        }
        return nil
    }

    func sessionEstablished(_ session: PeerSession) {
        guard let h = session.handshake else { return }
        let peer = peers[h.nodeId] ?? PeerRecord(id: h.nodeId, name: h.name)
        peers[h.nodeId] = peer
        if let old = peer.session, old !== session {
            // The dialer dialed again: it no longer trusts the old connection, so the new one wins.
            peer.session = nil
            old.goodbye(.duplicateConnection, "replaced by a newer connection from the same node")
        }
        peer.name = h.name
        peer.session = session
        peer.dialing = false
        peer.dialFailures = 0
        peer.udpPort = h.udpPort
        peer.state = .connected
        peer.reason = nil
        peer.lastDatagramSeq = 0
        sendState.withLockedValue { _ = $0.connected.insert(h.nodeId) }
        logger.info("connected to \(h.name) (\(h.nodeId.short)) at \(session.remoteDescription)")
        emit(.peerConnected(info(peer)))
    }

    func sessionMessage(_ session: PeerSession, body: [UInt8]) {
        guard let from = session.peerID else { return }
        emit(.message(MeshMessage(from: from, channel: .reliable, body: body)))
    }

    func sessionRoundTrip(_ session: PeerSession, sentAt: UInt64) {
        guard let pid = session.peerID, let peer = peers[pid] else { return }
        let now = NIODeadline.now().uptimeNanoseconds
        guard now >= sentAt else { return }
        peer.rttMs = Double(now - sentAt) / 1e6
    }

    func sessionClosed(_ session: PeerSession, reason: String) {
        sessions[ObjectIdentifier(session)] = nil
        guard let pid = session.peerID ?? session.expectedPeer, let peer = peers[pid] else { return }
        if session.outbound && peer.session == nil { peer.dialing = false }
        guard peer.session === session else {
            if peer.state == .connecting && peer.session == nil && !peer.dialing {
                peer.state = .discovered
                peer.reason = reason
                peer.dialFailures += 1
                peer.nextDialAt = .now() + .milliseconds(Int64(min(5_000, 250 << min(peer.dialFailures, 5))))
            }
            return
        }
        peer.session = nil
        sendState.withLockedValue { _ = $0.connected.remove(pid) }
        peer.state = .lost
        peer.reason = reason
        // A peer that went silent may still be hung (its kernel even accepts connections): wait one heartbeat
        // timeout before dialing again. One that restarts reappears in DNS-SD and is dialed at once.
        peer.nextDialAt = .now() + config.heartbeatTimeout.timeAmount
        logger.info("lost \(peer.name) (\(pid.short)): \(reason)")
        emit(.peerLost(info(peer), reason: reason))
    }

    // MARK: Heartbeats and reconnects

    private func tick() {
        guard !isShutDown else { return }
        let now = NIODeadline.now()
        let timeout = config.heartbeatTimeout.timeAmount
        for peer in peers.values {
            if let session = peer.session {
                if now - session.lastHeard > timeout {
                    session.goodbye(.timeout, "nothing heard for \(config.heartbeatTimeout)")
                } else {
                    session.sendHeartbeat(now: now)
                }
            } else {
                maybeDial(peer)
            }
        }
    }

    // MARK: Datagrams

    func datagramReceived(_ bytes: [UInt8], from address: SocketAddress) {
        stats.datagramsReceived += 1
        config.recorder?.record(
            CapturedFrame(
                time: Date(), direction: .received, transport: .udp, local: udp?.localAddress, remote: address,
                bytes: bytes))
        guard bytes.count <= FrameLimits.maxDatagramSize,
            case .datagram(let d)? = try? Frame.parse(
                bytes, maxPayload: FrameLimits.maxDatagramSize - FrameLimits.headerSize),
            let peer = peers[d.sender], let session = peer.session, session.remoteIP == address.ipAddress
        else {
            stats.datagramsRejected += 1
            return
        }
        guard d.seq > peer.lastDatagramSeq else {
            stats.datagramsStale += 1
            return
        }
        peer.lastDatagramSeq = d.seq
        emit(.message(MeshMessage(from: d.sender, channel: .unreliable, body: d.body)))
    }

    // MARK: Public API

    /// Sends an application message (JSON-encoded) to one peer.
    public func send<T: Encodable & Sendable>(_ message: T, to peer: NodeID, on channel: MeshChannel = .reliable)
        async throws
    {
        try await sendEncoded(try WireJSON.encode(message), to: [peer], on: channel)
    }

    /// Sends an application message to every connected peer; returns how many it was sent to.
    @discardableResult
    public func broadcast<T: Encodable & Sendable>(_ message: T, on channel: MeshChannel = .reliable) async throws
        -> Int
    {
        try await sendEncoded(try WireJSON.encode(message), to: nil, on: channel)
    }

    /// Sends pre-encoded JSON to some peers (nil = all connected). Throws if a named peer is not connected.
    @discardableResult
    public func sendEncoded(_ body: [UInt8], to targets: [NodeID]?, on channel: MeshChannel) async throws -> Int {
        switch channel {
        case .reliable:
            guard body.count <= FrameLimits.maxReliablePayload else { throw MeshError.messageTooLarge(body.count) }
            let frame = try Frame.application(body).encoded()
            if let targets {
                // Fast path: check the targets against the snapshot here, then let the loop write without
                // waiting for it. A peer lost in between loses the message, as it would a moment later.
                let size = frame.count * targets.count
                let unsent = try sendState.withLockedValue { state -> Int in
                    guard !state.shutDown else { throw MeshError.shutDown }
                    if let missing = targets.first(where: { !state.connected.contains($0) }) {
                        throw MeshError.notConnected(missing)
                    }
                    state.unsentBytes += size
                    return state.unsentBytes
                }
                let write: @Sendable () -> Void = {
                    self.sendState.withLockedValue { $0.unsentBytes -= size }
                    guard !self.isShutDown else { return }
                    for t in targets { self.peers[t]?.session?.write(frame, type: .application) }
                }
                if loop.inEventLoop {
                    write()
                } else if unsent <= Self.maxUnsentBytes {
                    loop.execute(write)
                } else {
                    try await loop.submit(write).get()
                }
                return targets.count
            }
            return try await loop.submit {
                guard !self.isShutDown else { throw MeshError.shutDown }
                let sessions = try self.resolve(targets)
                for s in sessions { s.write(frame, type: .application) }
                return sessions.count
            }.get()
        case .unreliable:
            return try await loop.flatSubmit { () -> EventLoopFuture<Int> in
                do {
                    guard !self.isShutDown, let udp = self.udp else { throw MeshError.shutDown }
                    let sessions = try self.resolve(targets)
                    self.datagramSeq += 1
                    let bytes = try Frame.datagram(Datagram(sender: self.id, seq: self.datagramSeq, body: body))
                        .encoded()
                    guard bytes.count <= FrameLimits.maxDatagramSize else {
                        throw MeshError.datagramTooLarge(bytes.count)
                    }
                    var sent = 0
                    for s in sessions {
                        guard let ip = s.remoteIP, let pid = s.peerID, let port = self.peers[pid]?.udpPort,
                            let address = try? SocketAddress(ipAddress: ip, port: port)
                        else { continue }
                        let envelope = AddressedEnvelope(
                            remoteAddress: address, data: udp.allocator.buffer(bytes: bytes))
                        self.config.recorder?.record(
                            CapturedFrame(
                                time: Date(), direction: .sent, transport: .udp, local: udp.localAddress,
                                remote: address,
                                bytes: bytes))
                        udp.writeAndFlush(envelope, promise: nil)
                        self.stats.datagramsSent += 1
                        sent += 1
                    }
                    return self.loop.makeSucceededFuture(sent)
                } catch {
                    return self.loop.makeFailedFuture(error)
                }
            }.get()
        }
    }

    /// Queues pre-encoded JSON for some connected peers on the reliable channel without waiting. Calls from
    /// one thread keep their order. Peers not connected are skipped and returned to `onSkipped`.
    public func post(_ body: [UInt8], to targets: [NodeID], onSkipped: (@Sendable ([NodeID]) -> Void)? = nil) {
        guard body.count <= FrameLimits.maxReliablePayload, let frame = try? Frame.application(body).encoded() else {
            logger.error("dropping an application message of \(body.count) bytes: over the frame limit")
            return
        }
        let write: @Sendable () -> Void = {
            var skipped: [NodeID] = []
            for t in targets {
                if let s = self.peers[t]?.session, !self.isShutDown {
                    s.write(frame, type: .application)
                } else {
                    skipped.append(t)
                }
            }
            if !skipped.isEmpty { onSkipped?(skipped) }
        }
        // On the loop already (an actor running on it): write now, keeping the caller's order.
        if loop.inEventLoop { write() } else { loop.execute(write) }
    }

    private func resolve(_ targets: [NodeID]?) throws -> [PeerSession] {
        guard let targets else {
            return peers.values.compactMap(\.session).sorted { ($0.peerID?.hex ?? "") < ($1.peerID?.hex ?? "") }
        }
        return try targets.map { t in
            guard let s = peers[t]?.session else { throw MeshError.notConnected(t) }
            return s
        }
    }

    /// A snapshot of every peer this node knows, sorted by name.
    public func peerList() async -> [PeerInfo] {
        (try? await loop.submit {
            self.peers.values.map(self.info).sorted { ($0.name, $0.id.hex) < ($1.name, $1.id.hex) }
        }.get()) ?? []
    }

    /// Frame and byte counters.
    public func statistics() async -> MeshStats {
        (try? await loop.submit { self.stats }.get()) ?? MeshStats()
    }

    private func info(_ p: PeerRecord) -> PeerInfo {
        let address: String
        if let s = p.session, s.remoteAddress != nil {
            address = s.remoteDescription
        } else if let a = p.advertised {
            address = "\(a.address):\(a.port)"
        } else {
            address = ""
        }
        return PeerInfo(id: p.id, name: p.name, address: address, state: p.state, rttMs: p.rttMs, reason: p.reason)
    }

    private let shutdownOnce = NIOLockedValueBox(false)

    /// Says goodbye to every peer, closes the sockets and stops the event loop. Idempotent.
    public func shutdown() async {
        let first = shutdownOnce.withLockedValue { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        let closing: [EventLoopFuture<Void>] =
            (try? await loop.submit { () -> [EventLoopFuture<Void>] in
                guard !self.isShutDown else { return [] }
                self.isShutDown = true
                self.sendState.withLockedValue { $0.shutDown = true }
                self.heartbeat?.cancel()
                var futures: [EventLoopFuture<Void>] = []
                for s in self.sessions.values {
                    s.goodbye(.shutdown, "node \(self.config.name) is shutting down")
                }
                if let server = self.server { futures.append(server.close()) }
                if let udp = self.udp { futures.append(udp.close()) }
                return futures
            }.get()) ?? []
        for f in closing { try? await f.get() }
        // Let goodbyes reach the wire before the loop stops.
        try? await Task.sleep(for: .milliseconds(100))
        continuation.finish()
        try? await group.shutdownGracefully()
    }
}
