import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import TavoloProtocol

/// A node of the Tavolo mesh: listens on TCP and UDP, connects to every compatible node it is told about
/// (the smaller id dials), keeps heartbeats, and delivers messages as `events`.
///
/// All mutable state is confined to one event loop; the public API hops onto it. The node's roles live in
/// separate files: discovery and dialing (`MeshNode+Discovery`), the sessions' delegate (`MeshNode+Sessions`),
/// sending (`MeshNode+Sending`); the pure rules in `DialPolicy` and `HandshakeAdmission`.
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

    let dialPolicy: DialPolicy
    let admission: HandshakeAdmission
    /// Counters and packet log, shared by every channel's `TrafficHandler`.
    let tap: TrafficTap

    // Loop-confined state.
    private var server: Channel?
    var udp: Channel?
    var peers: [NodeID: PeerRecord] = [:]
    var namesSeen: [String: NodeID] = [:]
    /// Every open connection, established or not (each gets a goodbye at shutdown).
    var sessions: [ObjectIdentifier: PeerSession] = [:]
    private var redialTask: RepeatedTask?
    var datagramSeq: UInt64 = 0
    var isShutDown = false
    /// Accepted connections whose handshake is not yet accepted, and what they cost (§3.4).
    var pending: PendingConnections
    var pendingSessions: [PendingConnections.Number: PeerSession] = [:]
    var pendingNumbers: [ObjectIdentifier: PendingConnections.Number] = [:]
    /// Accepted connections that began their handshake, per address and minute (§3.4).
    var newConnections: NewConnectionRate
    let lostPeerRetention: LostPeerRetention
    /// Lines about connections, at most one per peer (node id, or address before one is known) per interval...
    var peerLog = LogRateLimiter()
    /// ...and at most a few per address, however many ids a host makes up.
    var addressLog = LogRateLimiter(burst: 32)
    private var eventHandler: (@Sendable (MeshEvent) -> Void)?

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

    private init(id: NodeID, config: MeshConfiguration, logger: Logger) {
        self.id = id
        self.config = config
        self.logger = logger
        dialPolicy = DialPolicy(localID: id, redialAfterLoss: config.heartbeatTimeout.timeAmount)
        admission = HandshakeAdmission(localID: id, localVersion: Int(config.wireVersion))
        tap = TrafficTap(recorder: config.recorder)
        pending = PendingConnections(
            limits: .init(perAddress: config.maxPendingPerAddress, totalBytes: config.maxPendingBytes))
        newConnections = NewConnectionRate(perMinute: config.maxNewConnectionsPerAddressPerMinute)
        lostPeerRetention = LostPeerRetention(
            maxRemembered: config.maxLostPeers, keepFor: config.lostPeerRetention.timeAmount)
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
        (events, continuation) = AsyncStream.makeStream(of: MeshEvent.self)
    }

    /// Binds TCP and UDP and starts heartbeats. Discovery is the caller's: feed it `discovered`/`removed`.
    public static func start(id: NodeID, config: MeshConfiguration, logger: Logger) async throws -> MeshNode {
        let node = try make(id: id, config: config, logger: logger)
        try await node.listen()
        return node
    }

    /// A node with its event loop and nothing bound: set its event handler, then `listen()`. Every event then reaches
    /// the handler, a peer that connects at once included (the first phase of a two-phase start).
    public static func make(id: NodeID, config: MeshConfiguration, logger: Logger) throws -> MeshNode {
        // Peers refuse a handshake that breaks §4.1; better to fail here than to be refused by everyone. The UDP
        // port is not bound yet, so any valid one stands in for it.
        let probe = Handshake(nodeId: id, name: config.name, udpPort: 1, capabilities: config.capabilities)
        if let violation = probe.violation { throw MeshError.invalidConfiguration(violation) }
        var config = config
        if let key = config.staticKey {
            guard NodeID.derived(from: key.publicKey) == id else {
                throw MeshError.invalidConfiguration("node id \(id.hex) is not the one its static key gives")
            }
            if config.wireVersion == ProtocolVersion.current { config.wireVersion = SecureWire.version }
        }
        return MeshNode(id: id, config: config, logger: logger)
    }

    /// Binds TCP and UDP and starts heartbeats; on failure the node's event loop is shut down.
    public func listen() async throws {
        do {
            try await bind()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private func bind() async throws {
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Accept nothing until the UDP port is known: it is part of every handshake, and a peer refuses a
            // handshake without a valid one.
            .serverChannelOption(.autoRead, value: false)
            // `.tcpOption`, not `.socketOption`: the latter is level SOL_SOCKET, where option 1 is SO_DEBUG
            // (strace showed setsockopt(SO_DEBUG) on every accepted socket). Nagle stayed off only because
            // NIO's default TCP_NODELAY on the listener is inherited by accepted sockets on Linux.
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { [weak self] channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let self else { throw MeshError.shutDown }
                    try self.installSession(on: channel, outbound: false, expected: nil)
                }
            }
            .bind(host: config.host, port: config.port).get()
        self.server = server
        tcpPort = server.localAddress?.port ?? 0
        let udpBootstrap = DatagramBootstrap(group: group)
            .channelInitializer { [weak self] channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let self else { throw MeshError.shutDown }
                    let receiver = DatagramHandler(
                        tap: self.tap, logger: self.logger, sealed: self.config.staticKey != nil,
                        dropShare: self.config.datagramDropShare)
                    receiver.delegate = self
                    try channel.pipeline.syncOperations.addHandler(
                        DatagramTrafficHandler(tap: self.tap, sealed: self.config.staticKey != nil))
                    try channel.pipeline.syncOperations.addHandler(receiver)
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
        try await server.setOption(.autoRead, value: true).get()
        let interval = config.heartbeatInterval.timeAmount
        redialTask = loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [weak self] _ in
            self?.redialDuePeers()
        }
        logger.info("listening on tcp \(tcpPort) udp \(udpPort) as \(id.short)")
    }

    /// Builds the pipeline of a new connection (`PeerPipeline`), on the connection's event loop.
    func installSession(on channel: Channel, outbound: Bool, expected: NodeID?) throws {
        let highWater = 1 << 20
        let settings = PeerSession.Settings(
            localHandshake: localHandshake, handshakeTimeout: config.handshakeTimeout.timeAmount,
            maxQueuedBytes: config.maxQueuedBytes, logger: logger, writeBufferHighWater: highWater)
        let session = PeerSession(settings: settings, outbound: outbound, expectedPeer: expected)
        session.secureChannel = config.staticKey.map {
            SecureChannelHandler(initiator: outbound, staticKey: $0, psk: config.circle?.psk)
        }
        session.delegate = self
        _ = channel.setOption(.writeBufferWaterMark, value: .init(low: 256 << 10, high: highWater))
        if !outbound {
            // Our own dials are bounded by the peers we know; what others open is bounded here (§3.4).
            let address = channel.remoteAddress?.ipAddress ?? "?"
            if let refusal = newConnectionRefusal(from: address) {
                session.refusalAtStart = refusal
            } else if let n = pending.opened(from: address) {
                pendingSessions[n] = session
                pendingNumbers[ObjectIdentifier(session)] = n
                try channel.pipeline.syncOperations.addHandler(
                    PendingBytesHandler { [weak self] bytes in self?.pendingReceived(bytes, on: n) ?? false })
            } else {
                tap.stats.connectionsRefused += 1
                session.refusalAtStart = .init(
                    code: .busy,
                    reason: "more than \(pending.limits.perAddress) connections from this address await their handshake"
                )
            }
        }
        try PeerPipeline.install(
            on: channel, session: session, tap: tap, heartbeatInterval: config.heartbeatInterval.timeAmount,
            heartbeatTimeout: config.heartbeatTimeout.timeAmount,
            secure: session.secureChannel)
        sessions[ObjectIdentifier(session)] = session
    }

    /// The refusal of a connection from `address` over its new connections a minute (§3.4), counted, and said in
    /// the log once per address and minute; nil when it may begin its handshake.
    private func newConnectionRefusal(from address: String) -> HandshakeAdmission.Refusal? {
        guard case .refused(let first) = newConnections.opened(from: address, now: .now) else { return nil }
        tap.stats.connectionsRefused += 1
        let limit = newConnections.perMinute
        if first {
            logger.warning("connections from \(address): over \(limit) new a minute; the rest are refused busy")
        }
        return .init(
            code: .busy, reason: "more than \(limit) connections from this address began a handshake this minute")
    }

    /// Cuts the oldest connections still waiting for their handshake while together they hold too much. Answers
    /// whether connection `n` still awaits its handshake (once not, its bytes no longer need reporting).
    private func pendingReceived(_ bytes: Int, on n: PendingConnections.Number) -> Bool {
        for victim in pending.received(bytes, on: n) {
            guard let session = pendingSessions.removeValue(forKey: victim) else { continue }
            pendingNumbers[ObjectIdentifier(session)] = nil
            session.goodbye(
                .busy, "connections awaiting their handshake hold more than \(pending.limits.totalBytes) bytes")
        }
        return pendingSessions[n] != nil
    }

    /// The handshake was accepted or the connection closed: it no longer counts against the pending limits.
    func finishPending(_ session: PeerSession) {
        guard let n = pendingNumbers.removeValue(forKey: ObjectIdentifier(session)) else { return }
        pending.finished(n)
        pendingSessions[n] = nil
    }

    /// The event loop that owns this node's state; an actor may use it as its executor.
    public var eventLoop: EventLoop { loop }

    /// Delivers events to `handler`, called on the node's event loop, instead of the `events` stream: no thread
    /// hop per message. The handler must be quick and must not block. Set it before `listen()` (after `make`) and
    /// it gets every event; set later, events until then went to the stream.
    public func setEventHandler(_ handler: @escaping @Sendable (MeshEvent) -> Void) {
        loop.execute { self.eventHandler = handler }
    }

    func emit(_ event: MeshEvent) {
        if let eventHandler {
            eventHandler(event)
        } else {
            continuation.yield(event)
        }
    }

    /// The TXT record to advertise (PROTOCOL.md §6).
    public var txtRecord: [String: String] {
        var txt = [TXTKey.id: id.hex, TXTKey.version: String(config.wireVersion), TXTKey.udpPort: String(udpPort)]
        if let circle = config.circle { txt[TXTKey.circle] = circle.tag }
        return txt
    }

    var localHandshake: Handshake {
        Handshake(
            version: Int(config.wireVersion), nodeId: id, name: config.name, udpPort: udpPort,
            capabilities: config.capabilities.sorted())
    }

    // MARK: Snapshots

    /// A snapshot of every peer this node knows, sorted by name.
    public func peerList() async -> [PeerInfo] {
        (try? await loop.submit {
            self.peers.values.map(\.info).sorted { ($0.name, $0.id.hex) < ($1.name, $1.id.hex) }
        }.get()) ?? []
    }

    /// Frame and byte counters.
    public func statistics() async -> MeshStats {
        (try? await loop.submit { self.tap.stats }.get()) ?? MeshStats()
    }

    // MARK: Shutdown

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
                self.redialTask?.cancel()
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
