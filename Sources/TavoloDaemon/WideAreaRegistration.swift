import Foundation
import Logging
import NIOConcurrencyHelpers
import TavoloDiscovery

/// The node's service in a unicast DNS-SD domain, only when asked (`tavolod --domain NAME`, PROTOCOL.md §6.1):
/// registered by DNS UPDATE with the domain's DNS server, sent again every half lease (a server that honours the
/// lease drops the records of a node that vanished; one that does not still gets them replaced, the address
/// included), and withdrawn when the node stops. Avahi does not publish wide-area, so this is the node's own.
///
/// Every exchange is a blocking UDP round trip: run in a detached task, never on the mesh's loop.
final class WideAreaRegistration: Sendable {
    let domain: String
    let server: String
    let lease: UInt32
    let logger: Logger
    /// Short: a browser's resolver keeps a PTR answer this long, and a node registered meanwhile is not seen.
    static let ttl: UInt32 = 10
    private let service: NIOLockedValueBox<WideAreaService?> = .init(nil)
    private let status: NIOLockedValueBox<(registered: Bool, error: String?)> = .init((false, nil))

    init(domain: String, server: String, lease: UInt32 = 240, logger: Logger) {
        self.domain = domain
        self.server = server
        self.lease = lease
        self.logger = logger
    }

    /// Whether the server holds the records now, and why the last exchange failed (`discovery`).
    var health: (registered: Bool, error: String?) { status.withLockedValue { $0 } }

    /// Registers, then refreshes every half lease until cancelled (a failure is logged and tried again then);
    /// withdraws on the way out.
    func run(name: String, nodeID: String, port: Int, txt: [String: String]) async {
        do {
            let address = try DNSUpdateClient.localAddress(toward: server)
            let s = WideAreaService(
                instance: name, domain: domain, host: "tavolo-" + nodeID.prefix(16), port: UInt16(port), txt: txt,
                address: address, ttl: Self.ttl)
            if let problem = s.problem { throw DiscoveryError.wideArea(problem) }
            service.withLockedValue { $0 = s }
        } catch {
            return fail("cannot register \(name) in \(domain): \(error)")
        }
        while !Task.isCancelled {
            await exchange("registration") { $0.registration(id: .random(in: 0...UInt16.max), lease: self.lease) }
            try? await Task.sleep(for: .seconds(Int(lease / 2)))
        }
    }

    /// Takes the records out (at shutdown: a short wait, the node is going anyway).
    func withdraw() async {
        guard status.withLockedValue({ $0.registered }) else { return }
        await exchange("withdrawal", attempts: 2) { $0.withdrawal(id: .random(in: 0...UInt16.max)) }
        status.withLockedValue { $0.registered = false }
    }

    private func exchange(
        _ what: String, attempts: Int = 3, _ message: @escaping @Sendable (WideAreaService) -> DNSUpdateMessage
    ) async {
        guard let s = service.withLockedValue({ $0 }) else { return }
        let server = self.server
        let result = await Task.detached { () -> Result<DNSUpdateResponse, any Error> in
            do { return .success(try DNSUpdateClient.send(message(s), to: server, attempts: attempts)) } catch {
                return .failure(error)
            }
        }.value
        switch result {
        case .success(let r) where r.rcode == 0:
            status.withLockedValue { $0 = (what == "registration", nil) }
            logger.debug("\(what) of \(s.instance) in \(domain) accepted by \(server)")
        case .success(let r):
            fail("\(server) refused the \(what) of \(s.instance) in \(domain): \(r.rcodeName)")
        case .failure(let error):
            fail("\(what) of \(s.instance) in \(domain): \(error)")
        }
    }

    private func fail(_ why: String) {
        status.withLockedValue { $0.error = why }
        logger.warning("\(why)")
    }
}
