import TavoloControl
import TavoloDiscovery
import TavoloMesh

extension NodeService {
    /// The `discovery` answer: this node's registration and browse as they stand, and what the browse sees.
    func discoveryReport() -> DiscoveryReport {
        let registration = advertiser?.health ?? (registered: false, lastError: nil)
        let browse = discovery.health
        return DiscoveryReport(
            name: options.name, id: mesh.id.hex, tcpPort: mesh.tcpPort, udpPort: mesh.udpPort,
            registered: registration.registered, registrationError: registration.lastError,
            browsing: browse.browsing, browseError: browse.lastError,
            instances: browse.seen.map {
                SeenInstance(
                    name: $0.name, id: $0.txt[TXTKey.id], host: $0.host, port: $0.port, addresses: $0.addresses)
            })
    }
}
