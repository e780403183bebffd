import Foundation
import TavoloProtocol

/// A capture file decoded into Tavolo frames, with every problem found on the way.
public struct PacketLog: Sendable {
    /// "pcapng" or "pcap".
    public var format: String
    /// Packets read (every packet block, Tavolo or not).
    public var packets: Int
    public var frames: [LoggedFrame]
    /// Where the file could not be decoded, in file order. Empty for a whole, valid file.
    public var issues: [PacketLogIssue]
    /// Node names learned from the handshakes in the file.
    public var directory: NodeDirectory

    /// True when nothing in the file failed to decode.
    public var isComplete: Bool { issues.isEmpty }

    /// Reads and decodes a capture file; throws only when it cannot be read as a capture at all.
    public static func read(path: String) throws(PacketLogReadError) -> PacketLog {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw .unreadable(
                path: path, reason: FileManager.default.fileExists(atPath: path) ? reason : "no such file")
        }
        return try decode(Array(data))
    }

    /// Decodes the bytes of a capture file.
    public static func decode(_ bytes: [UInt8]) throws(PacketLogReadError) -> PacketLog {
        var reader = CaptureReader(bytes: bytes)
        try reader.read()
        var issues = reader.issues
        var extractor = FrameExtractor()
        var reportedLinks: Set<UInt16> = []
        for packet in reader.packets {
            switch PacketDissector.dissect(packet) {
            case .segment(let s): extractor.add(s)
            case .other(let what):
                // Tavolo writes only TCP and UDP over IP: anything else in its own file is damage.
                if packet.synthesized {
                    issues.append(
                        PacketLogIssue(
                            kind: .badPacket, block: packet.block, offset: packet.offset, packet: packet.number,
                            message: "\(what) in a file that holds only Tavolo's TCP and UDP packets"))
                }
            case .unsupportedLink(let link):
                if reportedLinks.insert(link).inserted {
                    issues.append(
                        PacketLogIssue(
                            kind: .unsupported, block: packet.block, offset: packet.offset, packet: packet.number,
                            message: "link type \(link) is not supported; its packets are skipped"))
                }
            case .bad(let message, let kind):
                issues.append(
                    PacketLogIssue(
                        kind: kind, block: packet.block, offset: packet.offset, packet: packet.number, message: message)
                )
            }
        }
        extractor.finish()
        issues += extractor.issues
        // File order: by position, with end-of-file notes last.
        issues = issues.enumerated().sorted { a, b in
            let ka = (a.element.stopsDecoding ? 1 : 0, a.element.offset ?? Int.max, a.offset)
            let kb = (b.element.stopsDecoding ? 1 : 0, b.element.offset ?? Int.max, b.offset)
            return ka < kb
        }.map(\.element)
        let frames = extractor.frames
        return PacketLog(
            format: reader.format, packets: reader.packets.count, frames: frames, issues: issues,
            directory: NodeDirectory(frames: frames))
    }

    /// The peer of a frame: the remote node for the recording node's own captures, else "source → destination".
    public func peer(of f: LoggedFrame) -> String {
        switch f.direction {
        case .sent?: directory.name(of: f.destination, f.transport)
        case .received?: directory.name(of: f.source, f.transport, sender: f)
        case nil:
            "\(directory.name(of: f.source, f.transport, sender: f)) → \(directory.name(of: f.destination, f.transport))"
        }
    }

    /// The id of a frame's peer, when a handshake in the file names it.
    public func peerID(of f: LoggedFrame) -> NodeID? {
        if f.direction == .sent { return directory.node(at: f.destination, f.transport)?.id }
        if case .datagram(let d)? = f.frame { return d.sender }
        return directory.node(at: f.source, f.transport)?.id
    }

    /// Frames that pass `filter`, in file order.
    public func frames(matching filter: PacketLogFilter) -> [LoggedFrame] {
        frames.filter { filter.matches($0, peer: peer(of: $0), peerID: peerID(of: $0)) }
    }

    /// One application message as the replay needs it.
    public struct ApplicationMessage: Sendable {
        public var frame: Int
        public var timeNanos: UInt64
        public var direction: PacketRecord.Direction?
        public var channel: String
        /// The service it names (PROTOCOL.md §3.9).
        public var service: Service
        /// The JSON the service encoded (a compact message as the JSON it stands for, §13.3).
        public var body: [UInt8]
    }

    /// The hook for `tavolo log replay`: the application messages (reliable and unreliable) exchanged with
    /// each peer, keyed by the peer's name as `peer(of:)` gives it, each list in capture (time) order.
    /// The tables layer turns these into table events; this library does not know their shape.
    public func applicationMessagesByPeer() -> [String: [ApplicationMessage]] {
        var out: [String: [ApplicationMessage]] = [:]
        for f in frames {
            guard let service = f.service, let body = f.applicationBody else { continue }
            out[peer(of: f), default: []].append(
                ApplicationMessage(
                    frame: f.number, timeNanos: f.timeNanos, direction: f.direction, channel: f.channel,
                    service: service, body: body))
        }
        return out
    }
}

/// Which node is at which address, learned from handshakes: a handshake's source is the sender's TCP
/// endpoint, and its `udpPort` at the same address is the sender's UDP endpoint.
public struct NodeDirectory: Sendable {
    public struct Node: Sendable, Equatable {
        public var id: NodeID
        public var name: String
    }

    private var tcp: [PacketEndpoint: Node] = [:]
    private var udp: [PacketEndpoint: Node] = [:]
    private var byID: [NodeID: Node] = [:]
    /// The recording node, from the handshakes it sent.
    public private(set) var local: Node?

    init(frames: [LoggedFrame]) {
        for f in frames {
            guard case .handshake(let h)? = f.frame else { continue }
            let node = Node(id: h.nodeId, name: h.name)
            tcp[f.source] = node
            byID[h.nodeId] = node
            if (0...65535).contains(h.udpPort),
                let u = PacketEndpoint(address: f.source.address, port: UInt16(h.udpPort))
            {
                udp[u] = node
            }
            if f.direction == .sent { local = node }
        }
    }

    /// Every node named in the file, sorted by name.
    public var nodes: [Node] { byID.values.sorted { ($0.name, $0.id.hex) < ($1.name, $1.id.hex) } }

    public func node(at endpoint: PacketEndpoint, _ transport: PacketRecord.Transport) -> Node? {
        transport == .tcp ? tcp[endpoint] : udp[endpoint]
    }

    /// The node's name, else the address.
    public func name(of endpoint: PacketEndpoint, _ transport: PacketRecord.Transport, sender: LoggedFrame? = nil)
        -> String
    {
        if let n = node(at: endpoint, transport) { return n.name }
        if case .datagram(let d)? = sender?.frame, let n = byID[d.sender] { return n.name }
        return endpoint.description
    }
}

/// The `--peer`, `--type` and `--channel` filters of `tavolo log show`.
public struct PacketLogFilter: Sendable {
    /// A peer's name, its id (or a prefix of at least 4 hex digits), or its address.
    public var peer: String?
    /// A message type ("heartbeat") or an application message's `type`/`kind` ("move").
    public var type: String?
    /// "reliable" or "unreliable".
    public var channel: String?
    /// Only the messages about this table (its id, or the start of it).
    public var table: String?
    /// Heartbeats and their acks, which are most of an idle capture: shown only when asked for, or named by `type`.
    public var heartbeats: Bool

    public init(
        peer: String? = nil, type: String? = nil, channel: String? = nil, table: String? = nil, heartbeats: Bool = true
    ) {
        self.peer = peer
        self.type = type
        self.channel = channel
        self.table = table
        self.heartbeats = heartbeats
    }

    func matches(_ f: LoggedFrame, peer name: String, peerID: NodeID?) -> Bool {
        if let channel, f.channel != channel { return false }
        // A compact frame carries application messages (the hot table messages, §13): `application` names both.
        if let type, f.typeName != type, f.kind != type, !(type == "application" && f.typeName == "compact") {
            return false
        }
        if !heartbeats, type == nil, f.typeName == "heartbeat" || f.typeName == "heartbeat-ack" { return false }
        if let table, !(f.tableID?.hasPrefix(table) ?? false) { return false }
        if let peer {
            let byName = name == peer || name.split(separator: " ").contains { $0 == peer }
            let byID = peer.count >= 4 && (peerID?.hex.hasPrefix(peer.lowercased()) ?? false)
            let byAddress = [f.source, f.destination].contains { $0.description == peer || $0.ipString == peer }
            if !(byName || byID || byAddress) { return false }
        }
        return true
    }
}
