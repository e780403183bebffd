import TavoloControl

/// Turns `DoctorFacts` into verdicts, in the order of the README's "When the machines do not see each other":
/// the node, Avahi, the network interfaces, this node's own service, the other nodes, their ports. Pure: the tests
/// give it facts.
public enum DoctorVerdicts {
    public static func checks(_ facts: DoctorFacts) -> [DoctorCheck] {
        [node(facts), avahi(facts), interfaces(facts), published(facts), discovered(facts), connections(facts)]
    }

    static let avahiConf = "/etc/avahi/avahi-daemon.conf"

    static func node(_ facts: DoctorFacts) -> DoctorCheck {
        guard let node = facts.node else {
            return DoctorCheck(
                "node", .failed, "no node answers at \(facts.socket): \(facts.nodeError ?? "no answer")",
                hint: "start yours: systemctl --user enable --now tavolod (or tavolod &), then run tavolo doctor again")
        }
        return DoctorCheck(
            "node", .ok,
            "the node \(node.name) (id \(node.id.prefix(8))) answers; TCP port \(node.tcpPort), UDP port \(node.udpPort)"
        )
    }

    static func avahi(_ facts: DoctorFacts) -> DoctorCheck {
        let start = "sudo systemctl enable --now avahi-daemon (nodes find each other through it)"
        let browseError = facts.avahiBrowse?.error
        switch facts.avahiRunning {
        case false?:
            return DoctorCheck("avahi", .failed, "avahi-daemon is not running", hint: start)
        case true?:
            if let error = browseError {
                return DoctorCheck(
                    "avahi", .failed, "avahi-daemon runs but does not answer: avahi-browse says \(error)",
                    hint: "sudo systemctl restart avahi-daemon (it needs the system bus, dbus)")
            }
            return DoctorCheck("avahi", .ok, "avahi-daemon runs")
        case nil:
            if let browse = facts.avahiBrowse {
                return browse.error.map { DoctorCheck("avahi", .failed, "avahi-browse says \($0)", hint: start) }
                    ?? DoctorCheck("avahi", .ok, "avahi-daemon answers avahi-browse")
            }
            if let node = facts.node, !node.registered {
                return DoctorCheck(
                    "avahi", .failed,
                    "the node is not registered with Avahi: \(node.registrationError ?? "it is registering again")",
                    hint: start)
            }
            return DoctorCheck(
                "avahi", .skipped, "avahi-daemon is not installed here, or not where tavolo doctor looks",
                hint: "sudo apt-get install avahi-daemon avahi-utils")
        }
    }

    /// Interfaces other than loopback.
    static func network(_ facts: DoctorFacts) -> [HostInterface] { facts.interfaces.filter { !$0.isLoopback } }

    static func interfaces(_ facts: DoctorFacts) -> DoctorCheck {
        let network = network(facts)
        let linked = network.filter(\.hasLink)
        if !linked.isEmpty {
            return DoctorCheck("interfaces", .ok, "network interfaces with an address: \(describe(linked))")
        }
        if !network.isEmpty {
            return DoctorCheck(
                "interfaces", .failed, "\(describe(network)): no link (a cable unplugged, Wi-Fi off?)",
                hint: "connect this machine to the network the other players are on")
        }
        return DoctorCheck(
            "interfaces", .failed, "no network interface besides lo has an IPv4 address",
            hint: "connect this machine to the network the other players are on")
    }

    static func describe(_ interfaces: [HostInterface]) -> String {
        interfaces.map { "\($0.name) \($0.addresses.joined(separator: ", "))" }.joined(separator: "; ")
    }

    static func published(_ facts: DoctorFacts) -> DoctorCheck {
        guard let node = facts.node else { return DoctorCheck("published", .skipped, "the node does not answer") }
        guard node.registered else {
            return DoctorCheck(
                "published", .failed,
                "Avahi does not hold \(node.name)'s registration now (\(node.registrationError ?? "registering again"))",
                hint: "the node registers again by itself once avahi-daemon runs")
        }
        let onlyLo = "Avahi publishes \(node.name) only on lo: other machines cannot see it"
        let allow =
            "in \(avahiConf), allow-interfaces= must be absent or name your network interface, and deny-interfaces= "
            + "must not name it; then sudo systemctl restart avahi-daemon"
        guard let browse = facts.avahiBrowse, browse.error == nil else {
            return publishedByOwnBrowse(node, onlyLo: onlyLo, hint: allow)
        }
        let own = browse.sightings.filter { $0.name == node.name && ($0.id == nil || $0.id == node.id) }
        let withAddress = Set(network(facts).filter(\.hasLink).map(\.name))
        let published = Set(own.map(\.interface)).intersection(withAddress).sorted()
        if !published.isEmpty {
            return DoctorCheck("published", .ok, "Avahi publishes \(node.name) on \(published.joined(separator: ", "))")
        }
        if own.contains(where: { $0.interface == "lo" }) {
            return DoctorCheck("published", .failed, onlyLo, hint: allow)
        }
        return DoctorCheck(
            "published", .failed, "Avahi shows \(node.name) on no interface that has an address",
            hint: withAddress.isEmpty ? "this machine has no network link (see interfaces)" : allow)
    }

    /// Without avahi-browse: the node's own browse, which sees its own service at the addresses Avahi gives it.
    static func publishedByOwnBrowse(_ node: DiscoveryReport, onlyLo: String, hint: String) -> DoctorCheck {
        let tools = "(install avahi-utils for tavolo doctor to ask Avahi which interfaces it publishes on)"
        guard let own = node.instances.first(where: { $0.name == node.name }) else {
            return DoctorCheck(
                "published", .warning, "the node's own browse does not see \(node.name) \(tools)",
                hint: node.browseError.map { "its browse failed: \($0)" })
        }
        if own.addresses.allSatisfy({ $0.hasPrefix("127.") }) {
            return DoctorCheck("published", .failed, onlyLo, hint: hint)
        }
        return DoctorCheck(
            "published", .ok, "the node sees its own service at \(own.addresses.joined(separator: ", ")) \(tools)")
    }

    static let isolation =
        "if tavolod runs on another machine: both must be on one network segment (mDNS does not cross routers), "
        + "both firewalls must let in mDNS (5353/udp), and guest or hotel Wi-Fi often isolates its clients from each "
        + "other (client isolation): play on a plain home network, or one phone's hotspot"

    static func discovered(_ facts: DoctorFacts) -> DoctorCheck {
        let seen = facts.seenNodes
        guard !seen.isEmpty else {
            return DoctorCheck("discovered", .warning, "mDNS sees no other node", hint: isolation)
        }
        let connected = seen.filter { $0.peer?.state == .connected }
        let list = seen.map { "\($0.name) (\(state($0)))" }.joined(separator: ", ")
        return DoctorCheck(
            "discovered", .ok,
            "\(seen.count) other node\(seen.count == 1 ? "" : "s") seen, \(connected.count) connected: \(list)")
    }

    static func state(_ node: DoctorFacts.SeenNode) -> String {
        guard let peer = node.peer else { return "seen by Avahi, not by the node" }
        switch peer.state {
        case .otherCircle: return "other circle"
        default: return peer.state.rawValue
        }
    }

    static func connections(_ facts: DoctorFacts) -> DoctorCheck {
        let seen = facts.seenNodes
        guard !seen.isEmpty else { return DoctorCheck("connections", .skipped, "no other node to connect to") }
        let unconnected = seen.filter { $0.peer?.state != .connected }
        guard !unconnected.isEmpty else { return DoctorCheck("connections", .ok, "every node seen is connected") }
        let verdicts = unconnected.map { node in verdict(for: node, probe: facts.probes.first { $0.name == node.name })
        }
        let worst: DoctorCheck.Status = verdicts.contains { $0.status == .failed } ? .failed : .warning
        let hints = verdicts.compactMap(\.hint)
        return DoctorCheck(
            "connections", worst, verdicts.map(\.text).joined(separator: "; "),
            hint: hints.isEmpty ? nil : hints.joined(separator: "; "))
    }

    /// One unconnected node: what its port did, and what that means.
    static func verdict(for node: DoctorFacts.SeenNode, probe: DoctorFacts.Probe?) -> DoctorCheck {
        let at = "\(node.name) at \(node.address):\(node.port)"
        let why = node.peer?.reason.map { " (\($0))" } ?? ""
        switch node.peer?.state {
        case .incompatible?:
            return DoctorCheck(
                "connections", .failed, "\(at) speaks another protocol version\(why)",
                hint: "install the same Tavolo version on both machines (tavolo --version)")
        case .otherCircle?:
            return DoctorCheck(
                "connections", .warning, "\(at) plays in another circle",
                hint: "to play with \(node.name), start both nodes with the same --circle and passphrase")
        default: break
        }
        switch probe?.outcome {
        case .answers?:
            return DoctorCheck(
                "connections", .warning, "\(at): its TCP port answers, but it is not connected yet\(why)",
                hint: "the nodes dial again by themselves; if it stays so, read the log: journalctl --user -u tavolod")
        case .refused?:
            return DoctorCheck(
                "connections", .failed,
                "\(at): connection refused — nothing listens there, or a firewall rejects it\(why)",
                hint: "is \(node.name)'s node still running? run tavolo doctor on that machine too")
        case .noAnswer?, .unreachable?:
            let port = node.port
            return DoctorCheck(
                "connections", .failed,
                "\(at): its TCP port does not answer\(probe?.outcome == .unreachable ? " (host unreachable)" : "") — a firewall blocks it, here or there\(why)",
                hint:
                    "on \(node.name)'s machine let in the node's port: sudo ufw allow \(port)/tcp && sudo ufw allow \(port)/udp "
                    + "(fix the port with `port = \(port)` in ~/.config/tavolo/tavolod.conf)")
        case nil:
            return DoctorCheck("connections", .warning, "\(at): not connected\(why); its port was not tried")
        }
    }
}
