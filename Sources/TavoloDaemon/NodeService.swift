import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import TavoloControl
import TavoloCore
import TavoloDiscovery
import TavoloGames
import TavoloMesh
import TavoloProtocol
import TavoloRecords
import TavoloTable
import TavoloWeb

/// Everything `tavolod` runs: identity, mesh, DNS-SD advertising and browsing, and the control socket.
public final class NodeService: Sendable {
    public struct Options: Sendable {
        public var name: String
        public var port: Int = 0
        public var stateDirectory: String
        public var controlPath: String
        public var heartbeatInterval: Duration = .seconds(1)
        public var heartbeatTimeout: Duration = .seconds(5)
        /// 3: the Noise-sealed wire whose messages name their service (PROTOCOL.md §3.6–3.9); tests of version
        /// mismatch change it.
        public var wireVersion: UInt8 = 3
        /// Table options: reproducible nonces, test-only misbehaviour.
        public var tableOptions = TableManager.Options()
        /// Test-only: accept the `inject` control op (send raw table messages, as a misbehaving node).
        public var allowInjection = false
        /// pcapng file recording every frame sent and received (PROTOCOL.md §8); nil records nothing.
        public var packetLog: String?
        /// Test hook: share of received datagrams dropped on purpose (`MeshConfiguration.datagramDropShare`).
        public var datagramDropShare: Double = 0
        /// Move `records.sqlite` aside and rebuild it from the game logs (`tavolod --rebuild-records`).
        public var rebuildRecords = false
        /// The private circle to play in, and its passphrase (PROTOCOL.md §3.8); nil plays with anyone nearby.
        public var circle: (name: String, passphrase: String)?
        /// A unicast DNS-SD domain to register in by DNS UPDATE and to browse besides `local` (PROTOCOL.md §6.1),
        /// and the DNS server taking the updates (nil: the first nameserver of /etc/resolv.conf). Nil publishes
        /// nothing beyond the link.
        public var domain: String?
        public var dnsServer: String?
        /// The page the node serves its user on 127.0.0.1 (PROTOCOL.md §12), started with the control socket: on
        /// `webPort` (nil: the port it had last time, kept in the state directory, or any free one). Off when false.
        public var servesPage = false
        public var webPort: Int?

        public init(name: String, stateDirectory: String, controlPath: String) {
            self.name = name
            self.stateDirectory = stateDirectory
            self.controlPath = controlPath
        }
    }

    /// A start-up failure, reported in one line.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
        init(_ d: String) { description = d }
    }

    public let options: Options
    public let mesh: MeshNode
    public let tables: TableManager
    let records: NodeRecords
    /// Chat messages of the lobby and the tables (PROTOCOL.md §12).
    public let chat: ChatHub
    /// Hands each application message to its service (PROTOCOL.md §3.9).
    let router: ServiceRouter
    let logger: Logger
    /// The browse for other nodes (its state answers `discovery`, `NodeService+Doctor.swift`).
    let discovery: Discovery
    private let control: ControlServer
    private let controlGroup: MultiThreadedEventLoopGroup
    /// The identity of every peer name this node has connected to (`<state>/known-peers.json`).
    let knownPeers: KnownPeerBook
    /// What `run()` started, for `shutdown()`.
    private let running = NIOLockedValueBox(Running())
    /// The node's DNS-SD registration once `run()` made it (its state answers `discovery`).
    var advertiser: Advertisement? { running.withLockedValue { $0.advertiser } }

    /// The registration in a unicast domain, kept for its withdrawal at shutdown (`NodeService+WideArea.swift`).
    func setWideArea(_ r: WideAreaRegistration) { running.withLockedValue { $0.wideArea = r } }

    /// The page's address once `run()` serves it (the `web` op); nil when the node serves none.
    var webLink: WebLinkInfo? { running.withLockedValue { $0.page.map { WebLinkInfo(url: $0.url, port: $0.port) } } }

    private struct Running {
        var advertiser: Advertisement?
        var page: WebServer?
        var wideArea: WideAreaRegistration?
        var tasks: [Task<Void, Never>] = []
    }

    /// Starts the node: both phases, `init` then `run()`. Throws `StartError` with a line for the user.
    public static func start(_ options: Options, logger: Logger) async throws -> NodeService {
        let service = try NodeService(options, logger: logger)
        try await service.run()
        return service
    }

    /// The first phase of a start: everything built and wired together — identity, records, the mesh, tables,
    /// chat, the routing of messages and events — with nothing bound, advertised or served, so no peer or client
    /// can reach a part before it exists. Throws `StartError` with a line for the user when something is missing.
    public init(_ options: Options, logger: Logger) throws {
        do { try checkDaemon() } catch { throw StartError("\(error)") }
        // Before anything is announced: a socket directory others can write to, or a second node on the same
        // control socket, would let someone else's process take it over.
        do { try ControlAccess.prepareDirectory(forSocket: options.controlPath) } catch {
            throw StartError("\(error)")
        }
        if ControlServer.answers(options.controlPath) {
            throw StartError("\(ControlServer.InUse(path: options.controlPath))")
        }
        try StateDirectory.prepare(options.stateDirectory)
        let leftovers = StateDirectory.cleanTemporaries(options.stateDirectory)
        if leftovers > 0 {
            logger.info("removed \(leftovers) temporary files an earlier run left in the state directory")
        }
        let (identity, signer) = try Self.identity(options, logger: logger)
        let id = identity.id
        // A broken records database stops the start with one line, before anything is announced.
        let recordStore = try NodeRecords.open(options: options, me: id, logger: logger)
        // Games of this node's own logs kept before signatures (or rebuilt from the logs) get its signature now.
        if let n = try? recordStore.signOwnRecords({ signer.sign(recordID: $0) }), n > 0 {
            logger.notice("records: signed \(n) games of this node's own logs")
        }
        let knownPeers = try KnownPeerBook(stateDirectory: options.stateDirectory)
        let mesh: MeshNode
        do {
            mesh = try MeshNode.make(id: id, config: Self.meshConfiguration(options, identity, logger), logger: logger)
        } catch let error as StartError { throw error } catch { throw StartError("cannot start the mesh: \(error)") }
        let recordSync = RecordSync(
            store: recordStore, verifier: RecordVerifier(catalog: .standard), signer: signer, logger: logger
        ) { message, peer in
            guard let body = try? CanonicalJSON.encode(message) else { return }
            mesh.post(body, service: .records, to: [peer])
        }
        let records = NodeRecords(store: recordStore, sync: recordSync, signer: signer)
        var tableOptions = options.tableOptions
        tableOptions.stateDirectory = options.stateDirectory
        tableOptions.gameEnded = { log in records.tableEnded(log, logger: logger) }
        tableOptions.signForfeit = { table, seed, number in
            signer.signForfeit(table: table, jointSeed: seed, number: number)
        }
        let tables = TableManager(
            me: id, name: options.name, transport: MeshTableTransport(mesh: mesh), catalog: .standard,
            options: tableOptions, logger: logger, executor: mesh.eventLoop.executor)
        let chat = ChatHub(me: id, name: options.name, logger: logger)
        let router = Self.router(tables: tables, records: recordSync, chat: chat, logger: logger)
        let discovery = Discovery(mesh: mesh, logger: logger, domains: [nil] + [options.domain].compactMap { $0 })
        Self.handleEvents(
            of: mesh, discovery: discovery, router: router, recordSync: recordSync, tables: tables, chat: chat,
            knownPeers: knownPeers, logger: logger)
        let controlGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        (self.options, self.logger, self.knownPeers, self.mesh, self.records) = (
            options, logger, knownPeers, mesh, records
        )
        (self.tables, self.chat, self.router, self.discovery) = (tables, chat, router, discovery)
        self.controlGroup = controlGroup
        control = ControlServer(path: options.controlPath, group: controlGroup, logger: logger)
    }

    /// The node's key (made on first start, or migrated) and the record-signing key bound to it.
    private static func identity(_ options: Options, logger: Logger) throws -> (NodeKeyFile.Identity, RecordSigner) {
        let identity: NodeKeyFile.Identity
        do { identity = try NodeKeyFile.loadOrCreate(stateDirectory: options.stateDirectory) } catch {
            throw StartError("\(error)")
        }
        let id = identity.id
        if let old = identity.migratedFrom {
            logger.notice(
                "node id changes from \(old.hex) to \(id.hex): ids are now derived from the node's key (protocol v2)")
        } else if identity.created {
            logger.info("created node key in \(options.stateDirectory): node id \(id.hex)")
        }
        let signer: RecordSigner
        do {
            let signingKey = try SigningKeyFile.loadOrCreate(stateDirectory: options.stateDirectory)
            guard let made = RecordSigner(identity: identity.key, signingKey: signingKey) else {
                throw StartError("cannot bind the record-signing key to the node key")
            }
            signer = made
        } catch let e as StartError { throw e } catch { throw StartError("\(error)") }
        return (identity, signer)
    }

    /// The second phase: unfinished games come back (paused, before any peer connects), then the mesh listens, the
    /// service is advertised, peers are browsed for, records sync, and the control socket answers. A failure undoes
    /// what this phase started and throws `StartError`.
    public func run() async throws {
        // Unfinished games of an earlier run (a crash, a kill -9) come back paused, before any peer connects.
        await tables.restoreUnfinished()
        do { try await mesh.listen() } catch {
            try? await controlGroup.shutdownGracefully()
            let inUse = "\(error)".contains("in use")
            throw StartError(
                inUse
                    ? "port \(options.port) is in use (another tavolod?): pick another with --port, or leave --port out for any free port"
                    : "cannot listen on port \(options.port): \(error)")
        }
        let advertiser = Advertisement(name: options.name, port: mesh.tcpPort, txt: mesh.txtRecord, logger: logger)
        running.withLockedValue { $0.advertiser = advertiser }
        do { try await advertiser.start() } catch {
            await undoRun()
            throw StartError("cannot advertise \(options.name): \(error)")
        }
        do {
            try await control.listen { [weak self] id, request in
                guard let self else { return .failure(.controlStopping, "the node is stopping", id: id) }
                return await self.dispatch(id, request)
            }
        } catch {
            await undoRun()
            throw StartError(
                error is ControlServer.InUse || error is ControlAccess.Unsafe
                    ? "\(error)" : "cannot open control socket \(options.controlPath): \(error)")
        }
        try await servePage()
        let (discovery, sync) = (self.discovery, records.sync)
        let tasks = [Task { await discovery.run() }, Task { await sync.run() }] + startWideArea()
        running.withLockedValue { $0.tasks = tasks }
        logger.info("node \(options.name) (\(mesh.id.short)) up; control socket \(options.controlPath)")
    }

    /// The page, when the options ask for it: served after the control socket, through the same dispatch.
    private func servePage() async throws {
        guard options.servesPage else { return }
        do {
            let token = try WebToken.loadOrCreate(stateDirectory: options.stateDirectory)
            let page = try await WebServer.start(
                stateDirectory: options.stateDirectory, port: options.webPort, token: token, logger: logger
            ) { [weak self] id, request in
                guard let self else { return .failure(.controlStopping, "the node is stopping", id: id) }
                return await self.dispatch(id, request)
            }
            running.withLockedValue { $0.page = page }
            logger.info("page on http://127.0.0.1:\(page.port)/ (tavolo open --node \(options.name) prints its URL)")
        } catch {
            await control.close()
            await undoRun()
            throw StartError(
                "cannot serve the page on 127.0.0.1:\(options.webPort ?? 0): \(error) (pick another --web-port, or "
                    + "--no-web)")
        }
    }

    private func undoRun() async {
        running.withLockedValue { $0.advertiser }?.cancel()
        await mesh.shutdown()
        try? await controlGroup.shutdownGracefully()
    }

    private static func meshConfiguration(_ options: Options, _ identity: NodeKeyFile.Identity, _ logger: Logger)
        throws -> MeshConfiguration
    {
        var config = MeshConfiguration(name: options.name)
        config.staticKey = identity.key
        if let circle = options.circle {
            do { config.circle = try MeshCircle(name: circle.name, passphrase: circle.passphrase) } catch {
                throw StartError("cannot derive the key of circle \(circle.name): \(error)")
            }
            logger.info("in private circle \(circle.name) (tag \(config.circle?.tag ?? "?"))")
        }
        config.port = options.port
        config.heartbeatInterval = options.heartbeatInterval
        config.heartbeatTimeout = options.heartbeatTimeout
        config.wireVersion = options.wireVersion
        config.datagramDropShare = options.datagramDropShare
        config.recorder = options.packetLog.map { PacketLogRecorder(path: $0, logger: logger) }
        return config
    }

    /// Mesh events arrive on the mesh's event loop, which is the table actor's executor: they are handled there,
    /// synchronously, in order. Messages go to their service by the byte that names it (PROTOCOL.md §3.9). Set in
    /// the first phase, so the handler sees every event from the moment the mesh listens.
    private static func handleEvents(
        of mesh: MeshNode, discovery: Discovery, router: ServiceRouter, recordSync: RecordSync, tables: TableManager,
        chat: ChatHub, knownPeers: KnownPeerBook, logger: Logger
    ) {
        mesh.setEventHandler { event in
            Self.log(event, logger: logger)
            discovery.meshEvent(event)
            switch event {
            case .message(let m): router.route(m)
            case .peerConnected(let p):
                recordSync.post(.connected(p.id, address: p.address))
                tables.assumeIsolated { tables in
                    Self.remember(p, in: knownPeers, logger: logger)
                    chat.peerConnected(p.id, name: p.name, address: p.address)
                    tables.peerConnected(p.id, name: p.name)
                }
            case .peerLost(let p, _):
                recordSync.post(.lost(p.id))
                tables.assumeIsolated { tables in
                    chat.peerLost(p.id)
                    tables.peerLost(p.id)
                }
            default: break
            }
        }
    }

    /// A peer connected: its name's identity is remembered the first time, and a changed one is said loudly.
    private static func remember(_ p: PeerInfo, in book: KnownPeerBook, logger: Logger) {
        switch book.update({ $0.observe(name: p.name, id: p.id) }) {
        case .new: logger.info("new peer \(p.name): identity \(p.id.hex) remembered")
        case .trusted: break
        case .changed(let trusted):
            logger.warning(
                "IDENTITY CHANGED: peer \(p.name) connected as \(p.id.hex), but \(p.name) is known as \(trusted.hex); it gets no invitation or seat by that name until `tavolo peers --accept \(p.name)`"
            )
        }
    }

    private static func log(_ event: MeshEvent, logger: Logger) {
        switch event {
        case .peerDiscovered(let p): logger.debug("discovered \(p.name) (\(p.id.short))")
        case .peerConnecting(let p): logger.debug("connecting to \(p.name) at \(p.address)")
        case .peerConnected(let p): logger.notice("peer \(p.name) connected at \(p.address)")
        case .peerLost(let p, let reason): logger.notice("peer \(p.name) lost: \(reason)")
        case .peerIncompatible(let p, let reason): logger.notice("peer \(p.name) incompatible: \(reason)")
        case .message(let m):
            logger.trace("message from \(m.from.short) on \(m.channel.rawValue): \(m.body.count) bytes")
        }
    }

    /// Says goodbye to every peer, withdraws the DNS-SD service and closes the control socket.
    public func shutdown() async {
        let (advertiser, tasks) = running.withLockedValue { ($0.advertiser, $0.tasks) }
        advertiser?.cancel()
        for t in tasks { t.cancel() }
        await running.withLockedValue { $0.wideArea }?.withdraw()
        // Clients first: the table manager runs on the mesh's event loop, and a client's request or event stream
        // that reached it after the mesh stopped was a job for a dead loop (NIO's "Cannot schedule tasks on an
        // EventLoop that has already shut down" at every SIGTERM with a `tavolo watch` attached).
        await running.withLockedValue { $0.page }?.close()
        await control.close()
        try? await controlGroup.shutdownGracefully()
        await mesh.shutdown()
        (mesh.config.recorder as? PacketLogRecorder)?.close()
        // The journals' last appends, not flushed yet by the group commit (PROTOCOL.md §9.9).
        tables.flushLogs()
        knownPeers.saved()
        logger.info("node \(options.name) stopped")
    }
}
