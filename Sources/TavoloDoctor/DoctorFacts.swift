import Foundation
import TavoloControl

/// Everything `tavolo doctor` found out, before any judgement: what the node says over its control socket, what
/// Avahi says through its own tools, this machine's interfaces, and the peers' TCP ports tried from here.
public struct DoctorFacts: Codable, Sendable, Equatable {
    /// The control socket asked.
    public var socket: String
    /// The node's DNS-SD state; nil when the node did not answer (then `nodeError` says why).
    public var node: DiscoveryReport?
    public var nodeError: String?
    /// The node's peers, as `tavolo peers --all` lists them.
    public var peers: [PeerSummary]
    /// `avahi-daemon --check`; nil when avahi-daemon is not installed here.
    public var avahiRunning: Bool?
    /// `avahi-browse`; nil when avahi-utils is not installed.
    public var avahiBrowse: AvahiBrowseResult?
    /// This machine's interfaces that have an IPv4 address.
    public var interfaces: [HostInterface]
    /// The TCP port of each discovered but unconnected node, tried from here.
    public var probes: [Probe]

    public struct Probe: Codable, Sendable, Equatable {
        public var name: String
        public var address: String
        public var port: Int
        public var outcome: PortProbe.Outcome

        public init(name: String, address: String, port: Int, outcome: PortProbe.Outcome) {
            self.name = name
            self.address = address
            self.port = port
            self.outcome = outcome
        }
    }

    public init(
        socket: String, node: DiscoveryReport?, nodeError: String?, peers: [PeerSummary], avahiRunning: Bool?,
        avahiBrowse: AvahiBrowseResult?, interfaces: [HostInterface], probes: [Probe]
    ) {
        self.socket = socket
        self.node = node
        self.nodeError = nodeError
        self.peers = peers
        self.avahiRunning = avahiRunning
        self.avahiBrowse = avahiBrowse
        self.interfaces = interfaces
        self.probes = probes
    }

    /// Gathers the facts: asks the node at `socket`, runs Avahi's tools, reads the interfaces, then tries the port
    /// of every node that is seen but not connected.
    public static func gather(socket: String, probeTimeout: Double = 3) -> DoctorFacts {
        var facts = DoctorFacts(
            socket: socket, node: nil, nodeError: nil, peers: [], avahiRunning: AvahiDaemonCheck.run(),
            avahiBrowse: AvahiBrowse.run(), interfaces: HostInterface.current(), probes: [])
        do {
            let client = try ControlClient(path: socket, timeout: 10)
            defer { client.close() }
            facts.node = try client.call(.discovery)
            facts.peers = try client.call(.peers)
        } catch {
            facts.nodeError = "\(error)"
        }
        let targets = facts.unconnectedNodes
        // All at once: a dropped port costs the whole timeout, and several peers may be behind the same firewall.
        let outcomes = ProbeOutcomes(count: targets.count)
        DispatchQueue.concurrentPerform(iterations: targets.count) { i in
            outcomes.set(i, PortProbe.run(address: targets[i].address, port: targets[i].port, timeout: probeTimeout))
        }
        facts.probes = zip(targets, outcomes.all).map {
            Probe(name: $0.name, address: $0.address, port: $0.port, outcome: $1)
        }
        return facts
    }
}

/// The probes' outcomes, written from concurrent threads. `@unchecked Sendable`: `values` is guarded by `lock`.
private final class ProbeOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [PortProbe.Outcome]

    init(count: Int) { values = Array(repeating: .unreachable, count: count) }

    func set(_ index: Int, _ outcome: PortProbe.Outcome) { lock.withLock { values[index] = outcome } }

    var all: [PortProbe.Outcome] { lock.withLock { values } }
}

extension DoctorFacts {
    /// A node seen on the network other than this one, and how the node stands with it.
    public struct SeenNode: Equatable, Sendable {
        public var name: String
        /// The node's peer entry, when the node knows it (nil: Avahi sees it, the node does not).
        public var peer: PeerSummary?
        public var address: String
        public var port: Int
    }

    /// The other nodes seen now, by the node (its peers that are not lost) or by Avahi, sorted by name.
    public var seenNodes: [SeenNode] {
        let ownName = node?.name
        var byName: [String: SeenNode] = [:]
        for sighting in avahiBrowse?.sightings ?? [] where sighting.name != ownName && byName[sighting.name] == nil {
            byName[sighting.name] = SeenNode(
                name: sighting.name, peer: nil, address: sighting.address, port: sighting.port)
        }
        for instance in node?.instances ?? [] where instance.name != ownName && byName[instance.name] == nil {
            guard let address = instance.addresses.first else { continue }
            byName[instance.name] = SeenNode(name: instance.name, peer: nil, address: address, port: instance.port)
        }
        for peer in peers {
            let stillSeen = byName[peer.name] != nil
            guard peer.state != .lost || stillSeen else { continue }
            let (address, port) = Self.split(peer.address)
            let seen = byName[peer.name]
            byName[peer.name] = SeenNode(
                name: peer.name, peer: peer, address: seen?.address ?? address, port: seen?.port ?? port)
        }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// The nodes seen whose state is not `connected` (the ones whose port is worth trying).
    var unconnectedNodes: [SeenNode] {
        seenNodes.filter { $0.peer?.state != .connected && $0.port > 0 && !$0.address.isEmpty }
    }

    /// "10.0.0.2:7878" → ("10.0.0.2", 7878).
    static func split(_ address: String) -> (String, Int) {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]) else {
            return (address, 0)
        }
        return (String(address[..<colon]), port)
    }
}
