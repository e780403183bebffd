import Foundation
import Logging
import TavoloMesh
import TavoloProtocol

/// The node's one table from service to handler (PROTOCOL.md §3.9). Every application message names its service
/// in its first byte; the mesh reads that byte and the router hands the message to the service's handler. Nothing
/// here, or anywhere after it, looks inside a message to decide where it goes: a chat line that quotes a table
/// message is a chat line.
///
/// A message for a service this node does not run, or in a form its service does not take (records or chat in a
/// compact frame or a datagram), is unrouted: dropped, counted (`status`'s `unroutedMessages`) and logged at debug
/// level, a few lines per peer; the connection goes on.
final class ServiceRouter: @unchecked Sendable {
    /// How a message arrived: the frame it came in (§3.9's columns).
    enum Delivery: Hashable, Sendable, CustomStringConvertible {
        /// An application frame (5).
        case json
        /// A compact frame (8).
        case compact
        /// A datagram (6), JSON or compact inside.
        case datagram

        init(_ m: MeshMessage) {
            switch (m.channel, m.form) {
            case (.unreliable, _): self = .datagram
            case (.reliable, .json): self = .json
            case (.reliable, .compact): self = .compact
            }
        }

        var description: String {
            switch self {
            case .json: "an application frame"
            case .compact: "a compact frame"
            case .datagram: "a datagram"
            }
        }
    }

    /// What a service takes, and who handles it. Handlers run on the mesh's event loop, in arrival order.
    struct Route {
        var takes: Set<Delivery>
        var handle: @Sendable (MeshMessage) -> Void
    }

    private let routes: [Service: Route]
    private let logger: Logger
    private let lock = NSLock()
    private var unrouted = 0
    private var log = LogRateLimiter(burst: 4)

    init(_ routes: [Service: Route], logger: Logger) {
        self.routes = routes
        self.logger = logger
    }

    /// Messages dropped because no service of this node takes them.
    var unroutedMessages: Int { lock.withLock { unrouted } }

    /// Hands `m` to its service, or counts it as unrouted.
    func route(_ m: MeshMessage) {
        let delivery = Delivery(m)
        guard let route = routes[m.service], route.takes.contains(delivery) else {
            return drop(m, delivery)
        }
        route.handle(m)
    }

    private func drop(_ m: MeshMessage, _ delivery: Delivery) {
        let now = DispatchTime.now().uptimeNanoseconds
        let (write, leftOut) = lock.withLock {
            unrouted += 1
            return log.admit(m.from.hex, nowNanoseconds: now)
        }
        guard write else { return }
        let why = routes[m.service] == nil ? "no such service here" : "\(m.service) takes no message in \(delivery)"
        let more = leftOut > 0 ? " (\(leftOut) more left out)" : ""
        logger.debug("unrouted message from \(m.from.short): \(m.service) in \(delivery), \(why)\(more)")
    }
}
