import Foundation
import TavoloCore
import TavoloProtocol
import TavoloTestSupport
import XCTest

final class FrameVectorTests: XCTestCase {
    func loadFrames() throws -> [String: Any] {
        let data = try ProtocolVectors.data("frames.json")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func expectedFrame(type: String, service: Service?, value: Any) throws -> Frame {
        let json = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        let d = JSONDecoder()
        switch type {
        case "handshake": return .handshake(try d.decode(Handshake.self, from: json))
        case "heartbeat": return .heartbeat(try d.decode(Heartbeat.self, from: json))
        case "heartbeat-ack": return .heartbeatAck(try d.decode(Heartbeat.self, from: json))
        case "goodbye": return .goodbye(try d.decode(Goodbye.self, from: json))
        case "application": return .application(try XCTUnwrap(service), Array(json))
        case "compact":
            let v = try XCTUnwrap(value as? [String: Any])
            let body = try XCTUnwrap([UInt8](hexString: try XCTUnwrap(v["body"] as? String)))
            return .compact(try XCTUnwrap(service), body)
        case "datagram":
            let v = try XCTUnwrap(value as? [String: Any])
            let body = try JSONSerialization.data(withJSONObject: try XCTUnwrap(v["body"]), options: [.sortedKeys])
            return .datagram(
                Datagram(
                    sender: try XCTUnwrap(NodeID(hex: try XCTUnwrap(v["sender"] as? String))),
                    seq: try XCTUnwrap((v["seq"] as? NSNumber)?.uint64Value), service: try XCTUnwrap(service),
                    body: Array(body)))
        default: throw CocoaError(.coderInvalidValue)
        }
    }

    func testValidVectorsDecodeAndReencode() throws {
        let cases = try XCTUnwrap(try loadFrames()["valid"] as? [[String: Any]])
        XCTAssertEqual(Set(cases.compactMap { $0["type"] as? String }), Set(MessageType.allCases.map(\.description)))
        for c in cases {
            let name = c["name"] as? String ?? "?"
            let bytes = try XCTUnwrap([UInt8](hexString: try XCTUnwrap(c["hex"] as? String)))
            let decoded = try Frame.parse(bytes, maxPayload: FrameLimits.maxReliablePayload)
            let service = (c["service"] as? Int).flatMap(UInt8.init(exactly:)).map(Service.init(rawValue:))
            let expected = try expectedFrame(
                type: try XCTUnwrap(c["type"] as? String), service: service, value: try XCTUnwrap(c["value"]))
            XCTAssertEqual(decoded, expected, name)
            XCTAssertEqual(decoded.type.description, c["type"] as? String, name)
            XCTAssertEqual(try expected.encoded(), bytes, "re-encoding \(name)")
        }
    }

    func testInvalidVectorsAreRejectedWithTheRightError() throws {
        let cases = try XCTUnwrap(try loadFrames()["invalid"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(cases.count, 41)
        XCTAssertTrue(cases.allSatisfy { $0.keys.contains("goodbye") }, "every invalid vector names its goodbye")
        for c in cases {
            let name = c["name"] as? String ?? "?"
            let bytes = try XCTUnwrap([UInt8](hexString: try XCTUnwrap(c["hex"] as? String)))
            XCTAssertThrowsError(try Frame.parse(bytes, maxPayload: FrameLimits.maxReliablePayload), name) { error in
                let fe = error as? FrameError
                let label = fe.map { "\($0)" } ?? "\(error)"
                let expected = c["error"] as? String ?? ""
                switch (expected, fe) {
                case ("badMagic", .badMagic?), ("unsupportedVersion", .unsupportedVersion?),
                    ("unknownType", .unknownType?), ("tooLarge", .tooLarge?), ("truncated", .truncated?),
                    ("badPayload", .badPayload?):
                    break
                default: XCTFail("\(name): expected \(expected), got \(label)")
                }
                // The goodbye a TCP receiver sends (none for a truncated frame: the connection just ends).
                if let goodbye = c["goodbye"] as? String {
                    XCTAssertEqual(fe?.goodbyeCode.rawValue, goodbye, name)
                } else {
                    guard case .truncated? = fe else { return XCTFail("\(name): no goodbye, but not truncated") }
                }
            }
        }
    }

    func testHeaderLayout() throws {
        var out: [UInt8] = []
        FrameHeader(type: .goodbye, flags: 3, length: 0x0102_0304).encode(into: &out)
        XCTAssertEqual(out, [0x54, 0x56, 1, 4, 3, 0, 1, 2, 3, 4])
        XCTAssertEqual(try FrameHeader.parse(out, maxPayload: 1 << 30).length, 0x0102_0304)
    }

    func testUnknownGoodbyeCodeReadsAsProtocolError() throws {
        let g = try WireJSON.decode(Goodbye.self, Array(#"{"code":"from-the-future","reason":"r"}"#.utf8))
        XCTAssertEqual(g.code, .protocolError)
    }

    func testNodeIDOrderAndHex() throws {
        let a = try XCTUnwrap(NodeID(hex: "00112233445566778899aabbccddeeff"))
        let b = try XCTUnwrap(NodeID(hex: "01000000000000000000000000000000"))
        XCTAssertLessThan(a, b)
        XCTAssertEqual(a.hex, "00112233445566778899aabbccddeeff")
        XCTAssertNil(NodeID(hex: "0011"))
        XCTAssertNil(NodeID(hex: "00112233445566778899AABBCCDDEEFF"), "upper case is not the canonical form")
        XCTAssertNil(NodeID(hex: String(repeating: "z", count: 32)))
        XCTAssertNotEqual(NodeID.random(), NodeID.random())
    }

    /// An id is two words inside: its bytes, hex, order and equality are still those of the 16 bytes.
    func testNodeIDIsItsSixteenBytes() throws {
        var rng = TavoloRNG(seed: 7)
        let ids = (0..<200).map { i -> [UInt8] in
            // Many ids share their first half, so the order of the second half is checked too.
            (0..<16).map { j in j < 8 && i % 2 == 0 ? 0x80 : UInt8.random(in: 0...255, using: &rng) }
        }
        for raw in ids {
            let id = try XCTUnwrap(NodeID(bytes: raw))
            XCTAssertEqual(id.bytes, raw)
            XCTAssertEqual(id.hex, raw.hexString)
            XCTAssertEqual(NodeID(hex: id.hex), id)
        }
        // Every pair of the first 40: half of those share their first half.
        for x in ids.prefix(40) {
            for y in ids.prefix(40) {
                let (a, b) = (NodeID(bytes: x)!, NodeID(bytes: y)!)
                XCTAssertEqual(a < b, x.lexicographicallyPrecedes(y))
                XCTAssertEqual(a == b, x == y)
            }
        }
        XCTAssertEqual(NodeID(bytes: [UInt8](repeating: 0xff, count: 16))?.hex, String(repeating: "f", count: 32))
        XCTAssertNil(NodeID(bytes: [UInt8](repeating: 0, count: 15)))
    }
}
