import Foundation
import TavoloCore
import TavoloPacketLog
import TavoloProtocol
import TavoloTestSupport
import XCTest

/// Compact hot messages (PROTOCOL.md §13) in a packet log: Protocol/tavolo.lua under tshark and `LoggedFrame` both
/// read each vector of compact.json as the JSON message it stands for; a malformed body is marked, not a crash.
final class CompactDissectorTests: XCTestCase {
    static let fieldNames = [
        "frame.number", "tavolo.type", "tavolo.app.type", "tavolo.compact.table", "tavolo.compact.number",
        "tavolo.compact.seat", "tavolo.compact.hash", "tavolo.compact.json", "_ws.malformed", "_ws.expert",
    ]

    func vectors() throws -> [String: Any] {
        let url = ProtocolVectors.url("compact.json")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// Each body in the frame it travels in: a compact frame on TCP, a progress in a datagram on UDP.
    func frame(_ c: [String: Any]) throws -> (bytes: [UInt8], udp: Bool) {
        let body = try XCTUnwrap([UInt8](hexString: try XCTUnwrap(c["hex"] as? String)))
        if (c["kind"] as? String) == "table.progress" {
            let sender = try XCTUnwrap(NodeID(bytes: [UInt8](repeating: 0xAB, count: 16)))
            return (try Frame.datagram(Datagram(sender: sender, seq: 9, service: .tables, body: body)).encoded(), true)
        }
        return (header(8, [Service.tables.rawValue] + body), false)
    }

    func header(_ type: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        FrameHeader(type: MessageType(rawValue: type)!, length: UInt32(payload.count)).encode(into: &out)
        return out + payload
    }

    func capture(_ frames: [(bytes: [UInt8], udp: Bool)], name: String) throws -> String {
        let a = try XCTUnwrap(PacketEndpoint(ip: "10.0.0.1", port: 40001))
        let b = try XCTUnwrap(PacketEndpoint(ip: "10.0.0.2", port: 7002))
        var writer = PcapngWriter(application: "tests")
        var file = writer.fileHeader()
        for (i, f) in frames.enumerated() {
            file += writer.encode(
                PacketRecord(
                    timeNanos: 1_700_000_000_000_000_000 + UInt64(i) * 1_000_000, direction: .sent,
                    transport: f.udp ? .udp : .tcp, local: a, remote: b, bytes: f.bytes))
        }
        let path = Fixtures.temporaryPath(name)
        try Data(file).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testValidVectorsDecodeToTheirFields() throws {
        _ = try Tshark.require()
        let cases = try XCTUnwrap(try vectors()["valid"] as? [[String: Any]])
        let path = try capture(try cases.map(frame), name: "compact.pcapng")
        let rows = try Tshark.fields(path, Self.fieldNames)
        XCTAssertEqual(rows.count, cases.count)
        for (row, c) in zip(rows, cases) {
            let name = c["name"] as? String ?? "?"
            func column(_ f: String) -> String {
                Self.fieldNames.firstIndex(of: f).flatMap { $0 < row.count ? row[$0] : nil } ?? ""
            }
            let value = try XCTUnwrap(c["value"] as? [String: Any])
            XCTAssertEqual(column("tavolo.app.type"), c["kind"] as? String, name)
            XCTAssertEqual(column("tavolo.compact.table"), value["table"] as? String, name)
            XCTAssertEqual(column("tavolo.compact.number"), value["number"].map { "\($0)" }, name)
            XCTAssertEqual(column("tavolo.compact.seat"), value["seat"].map { "\($0)" } ?? "", name)
            XCTAssertEqual(
                column("tavolo.compact.hash"), (value["stateHash"] ?? value["seatHash"]).map { "\($0)" } ?? "", name)
            XCTAssertEqual(
                column("tavolo.compact.json").isEmpty, value["move"] == nil && value["progress"] == nil, name)
            XCTAssertEqual(column("_ws.malformed"), "", name)
            XCTAssertEqual(column("_ws.expert"), "", name)
        }
    }

    func testInvalidBodiesAreMarkedNotDecoded() throws {
        _ = try Tshark.require()
        // Bodies starting with a compact kind byte: a compact frame's (an empty or JSON payload is a bad frame).
        let cases = try XCTUnwrap(try vectors()["invalid"] as? [[String: Any]]).filter {
            ($0["hex"] as? String).map { !$0.isEmpty } ?? false
        }
        let frames = try cases.map { c -> (bytes: [UInt8], udp: Bool) in
            let body = try XCTUnwrap([UInt8](hexString: try XCTUnwrap(c["hex"] as? String)))
            return (header(8, [Service.tables.rawValue] + body), false)
        }
        let rows = try Tshark.fields(try capture(frames, name: "compact-invalid.pcapng"), Self.fieldNames)
        XCTAssertEqual(rows.count, cases.count)
        for (row, c) in zip(rows, cases) {
            let expert = Self.fieldNames.count - 1
            XCTAssertTrue(row.count > expert && !row[expert].isEmpty, "\(c["name"] ?? "?"): no expert info in \(row)")
        }
    }

    func testPacketLogReadsCompactFramesAsTheirJSON() throws {
        let cases = try XCTUnwrap(try vectors()["valid"] as? [[String: Any]])
        let path = try capture(try cases.map(frame), name: "compact-log.pcapng")
        let log = try PacketLog.read(path: path)
        XCTAssertEqual(log.issues, [])
        XCTAssertEqual(log.frames.count, cases.count)
        for (f, c) in zip(log.frames, cases) {
            let name = c["name"] as? String ?? "?"
            XCTAssertEqual(f.kind, c["kind"] as? String, name)
            XCTAssertNil(f.compactError, name)
            let body = try XCTUnwrap(f.applicationBody, name)
            let expected = try JSONSerialization.data(withJSONObject: try XCTUnwrap(c["value"]), options: [.sortedKeys])
            XCTAssertEqual(
                try CanonicalJSON.decode(JSONValue.self, body),
                try CanonicalJSON.decode(JSONValue.self, Array(expected)),
                name)
        }
    }
}
