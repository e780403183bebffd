import Foundation
import Logging
import TavoloDaemon
import TavoloPacketLog
import TavoloProtocol
import TavoloTestSupport
import XCTest

@testable import TavoloMesh

/// Protocol/tavolo.lua under tshark: the frames.json vectors decode to their values, and a capture of a
/// real three-node mesh decodes frame for frame as `tavolo log stats` counts it, with nothing malformed.
final class DissectorTests: XCTestCase {
    static let fieldNames = [
        "frame.number", "tavolo.type", "tavolo.version", "tavolo.length", "tavolo.channel",
        "tavolo.handshake.version", "tavolo.handshake.node_id", "tavolo.handshake.name", "tavolo.handshake.udp_port",
        "tavolo.handshake.capabilities", "tavolo.heartbeat.seq", "tavolo.heartbeat.sent_at", "tavolo.goodbye.code",
        "tavolo.goodbye.reason", "tavolo.app.type", "tavolo.datagram.sender", "tavolo.datagram.seq", "_ws.malformed",
        "_ws.expert", "tavolo.service_name",
    ]

    func column(_ row: [String], _ name: String) -> String {
        guard let i = Self.fieldNames.firstIndex(of: name), i < row.count else { return "" }
        return row[i]
    }

    func testVectorsDecodeToTheirValues() throws {
        _ = try Tshark.require()
        let url = ProtocolVectors.url("frames.json")
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let cases = try XCTUnwrap(root["valid"] as? [[String: Any]])
        let a = try XCTUnwrap(PacketEndpoint(ip: "10.0.0.1", port: 40001))
        let b = try XCTUnwrap(PacketEndpoint(ip: "10.0.0.2", port: 7002))
        var writer = PcapngWriter(application: "tests")
        var file = writer.fileHeader()
        for (i, c) in cases.enumerated() {
            let bytes = try XCTUnwrap([UInt8](hexString: try XCTUnwrap(c["hex"] as? String)))
            let transport: PacketRecord.Transport = c["type"] as? String == "datagram" ? .udp : .tcp
            file += writer.encode(
                PacketRecord(
                    timeNanos: 1_700_000_000_000_000_000 + UInt64(i) * 1_000_000, direction: .sent,
                    transport: transport,
                    local: a, remote: b, bytes: bytes))
        }
        let path = Fixtures.temporaryPath("vectors.pcapng")
        try Data(file).write(to: URL(fileURLWithPath: path))
        let rows = try Tshark.fields(path, Self.fieldNames)
        XCTAssertEqual(rows.count, cases.count)
        for (row, c) in zip(rows, cases) {
            let name = c["name"] as? String ?? "?"
            let type = try XCTUnwrap(MessageType.allCases.first { $0.description == c["type"] as? String })
            let value = c["value"] as? [String: Any] ?? [:]
            XCTAssertEqual(column(row, "tavolo.type"), String(type.rawValue), name)
            XCTAssertEqual(column(row, "tavolo.version"), "1", name)
            XCTAssertEqual(column(row, "tavolo.channel"), type == .datagram ? "unreliable" : "reliable", name)
            let hex = try XCTUnwrap(c["hex"] as? String)
            XCTAssertEqual(column(row, "tavolo.length"), String(hex.count / 2 - 10), name)
            XCTAssertEqual(column(row, "_ws.malformed"), "", name)
            XCTAssertEqual(column(row, "_ws.expert"), "", name)
            // Every application message shows the service its first byte names (§3.9).
            let service = (c["service"] as? Int).flatMap(UInt8.init(exactly:)).map(Service.init(rawValue:))
            XCTAssertEqual(column(row, "tavolo.service_name"), service?.description ?? "", name)
            func str(_ k: String) -> String { value[k].map { "\($0)" } ?? "" }
            switch type {
            case .handshake:
                XCTAssertEqual(column(row, "tavolo.handshake.version"), str("version"))
                XCTAssertEqual(column(row, "tavolo.handshake.node_id"), str("nodeId"))
                XCTAssertEqual(column(row, "tavolo.handshake.name"), str("name"))
                XCTAssertEqual(column(row, "tavolo.handshake.udp_port"), str("udpPort"))
                XCTAssertEqual(
                    column(row, "tavolo.handshake.capabilities"),
                    (value["capabilities"] as? [String])?.joined(separator: ","))
            case .heartbeat, .heartbeatAck:
                XCTAssertEqual(column(row, "tavolo.heartbeat.seq"), str("seq"), name)
                XCTAssertEqual(column(row, "tavolo.heartbeat.sent_at"), str("sentAt"), name)
            case .goodbye:
                XCTAssertEqual(column(row, "tavolo.goodbye.code"), str("code"))
                XCTAssertEqual(column(row, "tavolo.goodbye.reason"), str("reason"))
            case .application, .compact:
                // The dissector names a message by its `type`, else its `kind` (a compact body: the JSON one's).
                XCTAssertEqual(column(row, "tavolo.app.type"), value["type"] == nil ? str("kind") : str("type"), name)
            case .datagram:
                XCTAssertEqual(column(row, "tavolo.datagram.sender"), str("sender"))
                XCTAssertEqual(column(row, "tavolo.datagram.seq"), str("seq"))
            }
        }
    }

    func testMeshCaptureDecodesFrameForFrame() async throws {
        _ = try Tshark.require()
        var nodes: [MeshNode] = []
        var recorders: [PacketLogRecorder] = []
        var paths: [String] = []
        var logger = Logger(label: "test.pcap")
        logger.logLevel = .warning
        for i in 0..<3 {
            let path = Fixtures.temporaryPath("mesh-\(i).pcapng")
            let recorder = PacketLogRecorder(path: path, logger: logger, flushInterval: .milliseconds(100))
            XCTAssertTrue(recorder.isRecording)
            var config = MeshConfiguration(name: "node\(i)")
            config.host = "127.0.0.1"
            config.heartbeatInterval = .milliseconds(100)
            config.heartbeatTimeout = .seconds(2)
            config.recorder = recorder
            nodes.append(try await MeshNode.start(id: NodeID.random(), config: config, logger: logger))
            recorders.append(recorder)
            paths.append(path)
        }
        for a in nodes {
            for b in nodes where a !== b {
                a.discovered(
                    DiscoveredNode(name: b.config.name, address: "127.0.0.1", port: b.tcpPort, txt: b.txtRecord))
            }
        }
        try await eventually("a full mesh of three") {
            for n in nodes where await n.peerList().filter({ $0.state == .connected }).count < 2 { return false }
            return true
        }
        for (i, n) in nodes.enumerated() {
            try await n.broadcast(["type": "move", "n": "\(i)"], service: .tables)
            try await n.broadcast(["type": "tick", "n": "\(i)"], service: .tables, on: .unreliable)
        }
        // One message larger than a synthesized segment: tshark must reassemble it.
        try await nodes[0].send(
            ["type": "big", "pad": String(repeating: "x", count: 150_000)], service: .tables, to: nodes[1].id)
        try await Task.sleep(for: .milliseconds(400))  // heartbeats
        for n in nodes { await n.shutdown() }
        for r in recorders { r.close() }

        for path in paths {
            let log = try PacketLog.read(path: path)
            XCTAssertEqual(log.issues, [], path)
            let stats = PacketLogStatistics(log)
            for t in ["handshake", "heartbeat", "heartbeat-ack", "application", "datagram", "goodbye"] {
                XCTAssertGreaterThan(stats.byType[t]?.frames ?? 0, 0, "\(path): no \(t)")
            }
            XCTAssertEqual(stats.malformed, 0)
            XCTAssertEqual(Set(stats.byService.keys), ["tables"], "every message named its service")
            XCTAssertEqual(Set(stats.byPeer.keys).count, 2, "\(stats.byPeer.keys)")
            let rows = try Tshark.fields(
                path, ["frame.number", "tavolo.type", "_ws.malformed", "_ws.expert.severity", "_ws.expert.message"])
            var byType: [String: Int] = [:]
            for row in rows {
                guard row.count >= 5 else { continue }
                for t in row[1].split(separator: "|") { byType[String(t), default: 0] += 1 }
                XCTAssertEqual(row[2], "", "malformed: \(row)")
                // Wireshark's UDP dissector notes "Possible traceroute" whenever a port falls in 33434–33523, which a
                // random datagram port sometimes does: that note is about the port, not about our frames.
                if !row[4].hasPrefix("Possible traceroute") { XCTAssertEqual(row[3], "", "expert info: \(row)") }
            }
            XCTAssertEqual(byType.values.reduce(0, +), stats.frames, path)
            let expected = Dictionary(
                uniqueKeysWithValues: stats.byType.compactMap { k, v in
                    MessageType.allCases.first { $0.description == k }.map { (String($0.rawValue), v.frames) }
                })
            XCTAssertEqual(byType, expected, path)
        }
    }

    func testRecorderOnAnUnwritablePathStopsQuietly() {
        let logger = Logger(label: "test.pcap")
        for path in ["/nonexistent-dir/x.pcapng", "/dev/full"]
        where path != "/dev/full" || FileManager.default.fileExists(atPath: path) {
            let r = PacketLogRecorder(path: path, logger: logger)
            XCTAssertFalse(r.isRecording, path)
            r.record(
                CapturedFrame(
                    time: Date(), direction: .sent, transport: .tcp, local: nil, remote: nil, bytes: [1, 2, 3]))
            r.close()
            XCTAssertEqual(r.counts.written, 0)
        }
    }
}
