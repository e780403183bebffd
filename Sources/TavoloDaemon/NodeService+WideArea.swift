import TavoloDiscovery

/// Unicast DNS-SD (PROTOCOL.md §6.1), only with `--domain`: the registration by DNS UPDATE runs beside the link's
/// mDNS one; the browse of the domain is `Discovery`'s (`domains`).
extension NodeService {
    /// Starts the registration when a domain was given; the task to cancel at shutdown, which then withdraws it.
    func startWideArea() -> [Task<Void, Never>] {
        guard let domain = options.domain else { return [] }
        guard let server = options.dnsServer ?? DNSUpdateClient.nameserver() else {
            logger.error(
                "--domain \(domain): no DNS server to register with (give --dns-server, or a nameserver in /etc/resolv.conf)"
            )
            return []
        }
        let registration = WideAreaRegistration(domain: domain, server: server, logger: logger)
        setWideArea(registration)
        let (name, id, port, txt) = (options.name, mesh.id.hex, mesh.tcpPort, mesh.txtRecord)
        logger.info("registering \(name) in \(domain) with \(server) (DNS UPDATE)")
        return [Task { await registration.run(name: name, nodeID: id, port: port, txt: txt) }]
    }
}
