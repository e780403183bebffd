import Foundation
import Logging
import TavoloDiscovery
import TavoloMesh
import TavoloProtocol

/// The node's DNS-SD registration, kept alive: when avahi-daemon restarts (or the registration fails for any other
/// reason) the service is registered again, retrying with backoff, so other nodes can still find this one.
///
/// `@unchecked Sendable`: `current`, `retry`, `cancelled`, `registered` and `lastError` are guarded by `lock`.
final class Advertisement: @unchecked Sendable {
    let name: String
    let port: Int
    let txt: [String: String]
    let logger: Logger
    private let lock = NSLock()
    private var current: ServiceAdvertiser?
    private var retry: Task<Void, Never>?
    private var cancelled = false
    private var registered = false
    private var lastError: String?

    /// Whether Avahi holds the registration now, and why it last failed (`tavolo doctor`).
    var health: (registered: Bool, lastError: String?) { lock.withLock { (registered, lastError) } }

    init(name: String, port: Int, txt: [String: String], logger: Logger) {
        self.name = name
        self.port = port
        self.txt = txt
        self.logger = logger
    }

    /// Registers the service; throws if the first registration fails (a name conflict, no avahi-daemon).
    func start() async throws {
        let advertiser = try makeAdvertiser()
        lock.withLock { current = advertiser }
        do { _ = try await advertiser.start() } catch {
            lock.withLock { lastError = "\(error)" }
            throw error
        }
        lock.withLock { registered = true }
    }

    private func makeAdvertiser() throws -> ServiceAdvertiser {
        try ServiceAdvertiser(name: name, port: port, txt: txt) { [weak self] error in
            self?.lost(error)
        }
    }

    /// Called on a discovery thread when a registration that had succeeded fails.
    private func lost(_ error: DiscoveryError) {
        lock.withLock {
            registered = false
            lastError = "\(error)"
            guard !cancelled, retry == nil else { return }
            logger.warning("DNS-SD registration of \(name) lost: \(error); registering again")
            retry = Task { [weak self] in await self?.registerAgain() }
        }
    }

    private func registerAgain() async {
        var delay = Duration.milliseconds(250)
        while !Task.isCancelled {
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled, let advertiser = try? makeAdvertiser() else { break }
            let stillWanted = lock.withLock {
                if !cancelled { current = advertiser }
                return !cancelled
            }
            guard stillWanted else { break }
            do {
                _ = try await advertiser.start(timeout: .seconds(5))
                lock.withLock { registered = true }
                logger.notice("DNS-SD registration of \(name) restored")
                break
            } catch {
                advertiser.cancel()
                lock.withLock { lastError = "\(error)" }
                logger.debug("registering \(name) again failed: \(error)")
                delay = min(delay * 2, .seconds(5))
            }
        }
        lock.withLock { retry = nil }
    }

    /// Withdraws the service and stops any retry.
    func cancel() {
        let (advertiser, task) = lock.withLock {
            cancelled = true
            return (current, retry)
        }
        task?.cancel()
        advertiser?.cancel()
    }
}

/// Browses for other nodes and tells the mesh what it finds, restarting the browse whenever it fails (e.g. while
/// avahi-daemon restarts). A peer's resolve stops as soon as it answers (a node's TXT never changes while it runs,
/// and one that restarts is withdrawn and registered again, which the browse reports) and is done again when the
/// peer is lost (it may have come back elsewhere); a peer that connects first is not resolved at all. With Avahi each resolve is a D-Bus connection: dozens of nodes
/// on one host, each keeping one per peer, exhaust the bus's per-user connection limit (256 by default).
///
/// Besides `local`, a unicast domain given with `--domain` is browsed too (PROTOCOL.md §6.1), through Avahi's
/// wide-area browsing. Avahi asks the DNS server once per browse and never again (it reports no service added
/// later), so that browse starts again every `wideAreaRebrowse`; the names of connected peers are released at once,
/// so only new ones are resolved. Removals there are not passed on: a browse that ends reports nothing removed.
///
/// `@unchecked Sendable`: `browsers`, `seen`, `connected` and `browseError` are guarded by `lock`.
final class Discovery: @unchecked Sendable {
    let mesh: MeshNode
    let logger: Logger
    /// nil is `local` (multicast DNS); the others are unicast domains.
    let domains: [String?]
    private let lock = NSLock()
    private var browsers: [String: ServiceBrowser] = [:]
    /// What the browses see now, by domain, then instance name (this node's own included), and why one last failed.
    private var seen: [String: [String: ServiceRecord]] = [:]
    private var browseError: String?
    /// Names of connected peers: a wide-area browse that starts again does not resolve them.
    private var connected: Set<String> = []
    /// Instances being resolved at once by one node.
    static let concurrentResolves = 3
    static let wideAreaRebrowse = Duration.seconds(5)

    init(mesh: MeshNode, logger: Logger, domains: [String?] = [nil]) {
        self.mesh = mesh
        self.logger = logger
        self.domains = domains
    }

    func run() async {
        await withTaskGroup(of: Void.self) { group in
            for domain in domains { group.addTask { await self.browse(domain) } }
        }
    }

    private func browse(_ domain: String?) async {
        let key = domain ?? "local"
        var delay = Duration.milliseconds(250)
        while !Task.isCancelled {
            let browser = ServiceBrowser(
                type: "_tavolo._tcp", domain: domain, maxConcurrentResolves: Self.concurrentResolves,
                keepResolving: false)
            let names = lock.withLock {
                browsers[key] = browser
                return connected
            }
            if domain != nil { for n in names { browser.release(name: n) } }
            let rebrowse = domain.map { _ in
                Task {
                    try? await Task.sleep(for: Self.wideAreaRebrowse)
                    browser.cancel()
                }
            }
            do {
                for try await event in browser.events {
                    delay = .milliseconds(250)
                    note(event, key)
                    switch event {
                    case .found(let r), .updated(let r):
                        guard let address = r.addresses.first else { continue }
                        mesh.discovered(DiscoveredNode(name: r.name, address: address, port: r.port, txt: r.txt))
                    case .removed(let name):
                        if domain == nil { mesh.removed(name: name) }
                    }
                }
            } catch {
                logger.warning("DNS-SD browse of \(key) failed: \(error); browsing again in \(delay)")
                lock.withLock { browseError = "\(error)" }
            }
            rebrowse?.cancel()
            lock.withLock {
                browsers[key] = nil
                // A wide-area browse that starts again keeps what it saw until it sees it again.
                if domain == nil { seen[key] = [:] }
            }
            browser.cancel()
            try? await Task.sleep(for: delay)
            if rebrowse == nil { delay = min(delay * 2, .seconds(5)) }
        }
    }

    private func note(_ event: DiscoveryEvent, _ key: String) {
        lock.withLock {
            switch event {
            case .found(let r), .updated(let r): seen[key, default: [:]][r.name] = r
            case .removed(let name): seen[key]?[name] = nil
            }
        }
    }

    /// Whether the `local` browse runs, why a browse last failed, and what they see (`tavolo doctor`).
    var health: (browsing: Bool, lastError: String?, seen: [ServiceRecord]) {
        lock.withLock {
            (browsers["local"] != nil, browseError, seen.values.flatMap(\.values).sorted { $0.name < $1.name })
        }
    }

    /// Mesh events, on the mesh's event loop.
    func meshEvent(_ event: MeshEvent) {
        switch event {
        case .peerConnected(let p):
            // Connected (perhaps dialed by the peer before this node resolved it): no resolve needed.
            let all = lock.withLock {
                connected.insert(p.name)
                return Array(browsers.values)
            }
            for b in all { b.release(name: p.name) }
        case .peerLost(let p, _):
            let all = lock.withLock {
                connected.remove(p.name)
                return Array(browsers.values)
            }
            for b in all { b.refresh(name: p.name) }
        default:
            break
        }
    }
}

/// Parameters of the `datagram` control op: one unreliable (UDP) message to a connected peer.
struct DatagramParams: Decodable {
    /// The peer's name or node id (hex).
    var peer: String
    var text: String
}
