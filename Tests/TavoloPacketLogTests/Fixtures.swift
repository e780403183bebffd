import Foundation
import TavoloPacketLog
import TavoloProtocol

/// A small, known conversation between node "alpha" (recording, 127.0.0.1:7001 TCP, UDP 7001) and two
/// peers: "bravo" over IPv4 and "charlie" over IPv6.
enum Fixtures {
    static let alphaID = nodeID("00112233445566778899aabbccddeeff")
    static let bravoID = nodeID("11112233445566778899aabbccddeeff")
    static let charlieID = nodeID("22222233445566778899aabbccddeeff")

    static let alphaTCP = endpoint("127.0.0.1", 40001)
    static let bravoTCP = endpoint("127.0.0.1", 7002)
    static let alphaUDP = endpoint("0.0.0.0", 7001)
    static let bravoUDP = endpoint("127.0.0.1", 7002)
    static let alpha6 = endpoint("::1", 7001)
    static let charlie6 = endpoint("::1", 50003)

    /// Constants of the fixtures (a typo shows up as a failing test, not a crash).
    static func nodeID(_ hex: String) -> NodeID { NodeID(hex: hex) ?? NodeID.random() }
    static func endpoint(_ ip: String, _ port: Int) -> PacketEndpoint { PacketEndpoint(ip: ip, port: port) ?? .unknown }

    static func handshake(_ id: NodeID, _ name: String, udp: Int) -> [UInt8] {
        (try? Frame.handshake(Handshake(nodeId: id, name: name, udpPort: udp, capabilities: ["datagrams", "tables"]))
            .encoded()) ?? []
    }

    static func frame(_ f: Frame) -> [UInt8] { (try? f.encoded()) ?? [] }

    static let baseTime: UInt64 = 1_700_000_000_123_456_789

    /// The records, in order; `bigBody` is one application message larger than a segment.
    static func records(bigBody: Int = 70_000) -> [PacketRecord] {
        var t = baseTime
        var out: [PacketRecord] = []
        func add(
            _ d: PacketRecord.Direction, _ tr: PacketRecord.Transport, _ l: PacketEndpoint, _ r: PacketEndpoint,
            _ b: [UInt8]
        ) {
            t += 1_000_000
            out.append(PacketRecord(timeNanos: t, direction: d, transport: tr, local: l, remote: r, bytes: b))
        }
        add(.sent, .tcp, alphaTCP, bravoTCP, handshake(alphaID, "alpha", udp: 7001))
        add(.received, .tcp, alphaTCP, bravoTCP, handshake(bravoID, "bravo", udp: 7002))
        add(.received, .tcp, alpha6, charlie6, handshake(charlieID, "charlie", udp: 7003))
        add(.sent, .tcp, alpha6, charlie6, handshake(alphaID, "alpha", udp: 7001))
        add(.sent, .tcp, alphaTCP, bravoTCP, frame(.heartbeat(Heartbeat(seq: 1, sentAt: 99))))
        add(.received, .tcp, alphaTCP, bravoTCP, frame(.heartbeatAck(Heartbeat(seq: 1, sentAt: 99))))
        add(.sent, .tcp, alphaTCP, bravoTCP, frame(.application(.tables, Array(#"{"kind":"hello","n":1}"#.utf8))))
        add(.received, .tcp, alpha6, charlie6, frame(.application(.tables, Array(#"{"seat":2,"type":"join"}"#.utf8))))
        add(
            .sent, .udp, alphaUDP, bravoUDP,
            frame(.datagram(Datagram(sender: alphaID, seq: 1, service: .tables, body: Array(#"{"x":1}"#.utf8)))))
        add(
            .received, .udp, alphaUDP, bravoUDP,
            frame(.datagram(Datagram(sender: bravoID, seq: 5, service: .tables, body: Array(#"{"y":2}"#.utf8)))))
        let big = "{\"kind\":\"big\",\"pad\":\"" + String(repeating: "a", count: bigBody) + "\"}"
        add(.sent, .tcp, alpha6, charlie6, frame(.application(.tables, Array(big.utf8))))
        add(
            .received, .tcp, alphaTCP, bravoTCP,
            frame(.goodbye(Goodbye(code: .shutdown, reason: "node bravo is shutting down"))))
        add(
            .sent, .tcp, alpha6, charlie6,
            frame(.goodbye(Goodbye(code: .shutdown, reason: "node alpha is shutting down"))))
        return out
    }

    static func pcapng(_ records: [PacketRecord]) -> [UInt8] {
        var w = PcapngWriter(application: "tests")
        var out = w.fileHeader()
        for r in records { out += w.encode(r) }
        return out
    }

    static func temporaryPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tavolo-pcap-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }
}
