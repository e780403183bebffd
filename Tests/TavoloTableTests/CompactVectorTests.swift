import Foundation
import TavoloCore
import TavoloProtocol
import XCTest

@testable import TavoloTable

/// Protocol/vectors/compact.json, written by an independent encoder of PROTOCOL.md §13: every valid body decodes to
/// the JSON message it stands for and encodes back to the same bytes (through the table's own messages, as a node
/// sends them); every invalid one is refused, by the decoder and by a node, which counts it and goes on.
final class CompactVectorTests: XCTestCase {
    func load() throws -> [String: Any] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Protocol/vectors/compact.json"))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func bytes(_ c: [String: Any], _ key: String = "hex") throws -> [UInt8] {
        try XCTUnwrap([UInt8](hexString: try XCTUnwrap(c[key] as? String)))
    }

    /// Both sides as JSON values, so key order and spacing do not matter.
    func jsonValue(_ any: Any) throws -> JSONValue {
        let data = try JSONSerialization.data(withJSONObject: any, options: [.sortedKeys, .fragmentsAllowed])
        return try CanonicalJSON.decode(JSONValue.self, Array(data))
    }

    func testValidVectorsDecodeAndReencode() throws {
        let cases = try XCTUnwrap(try load()["valid"] as? [[String: Any]])
        XCTAssertEqual(
            Set(cases.compactMap { $0["kind"] as? String }), Set(CompactMessage.Kind.allCases.map(\.typeName)))
        for c in cases {
            let name = c["name"] as? String ?? "?"
            let body = try bytes(c)
            XCTAssertTrue(CompactMessage.isCompact(body), name)
            let m = try CompactMessage.decode(body)
            XCTAssertEqual(m.kind.typeName, c["kind"] as? String, name)
            let expected = try jsonValue(try XCTUnwrap(c["value"]))
            XCTAssertEqual(try CanonicalJSON.decode(JSONValue.self, m.jsonEquivalent()), expected, name)
            XCTAssertEqual(try m.encoded(), body, "re-encoding \(name)")
            if m.kind == .progress {
                let d = try XCTUnwrap(ProgressDatagram(wire: body), name)
                XCTAssertEqual(try d.wireBytes(), body, name)
                continue
            }
            // The table's message: the same as the JSON one decodes to, and sent as exactly these bytes.
            let message = try TableMessage.decode(wire: body)
            let viaJSON = try CanonicalJSON.decode(TableMessage.self, m.jsonEquivalent())
            XCTAssertEqual(message, viaJSON, name)
            XCTAssertEqual(try message.wireBytes(), body, "sending \(name)")
        }
    }

    func testWholeFramesParse() throws {
        let cases = try XCTUnwrap(try load()["valid"] as? [[String: Any]]).filter { $0["frame"] != nil }
        XCTAssertEqual(cases.count, 3)
        for c in cases {
            let frame = try Frame.parse(try bytes(c, "frame"), maxPayload: FrameLimits.maxReliablePayload)
            switch frame {
            case .compact(let body): XCTAssertEqual(body, try bytes(c))
            case .datagram(let d): XCTAssertEqual(d.body, try bytes(c))
            default: XCTFail("\(c["name"] ?? "?"): \(frame)")
            }
        }
    }

    func testInvalidVectorsAreRefused() throws {
        let cases = try XCTUnwrap(try load()["invalid"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(cases.count, 15)
        for c in cases {
            let name = c["name"] as? String ?? "?"
            let body = try bytes(c)
            XCTAssertThrowsError(try CompactMessage.decode(body), name)
            XCTAssertThrowsError(try TableMessage.decode(wire: body), name)
            XCTAssertNil(ProgressDatagram(wire: body), name)
        }
    }

    /// A node drops every invalid body and counts it as a refused table message (§13.4), like a JSON one.
    func testANodeCountsInvalidBodiesAsRefused() async throws {
        let cases = try XCTUnwrap(try load()["invalid"] as? [[String: Any]])
        let net = FakeNetwork()
        let nodes = await net.makeNodes(2)
        for c in cases { await nodes[0].received(try bytes(c), from: nodes[1].me) }
        let refused = await nodes[0].refusedMessages
        XCTAssertEqual(refused, cases.count)
    }

    /// The messages sent for every move go compact; every other one stays JSON (and decodes as before).
    func testOnlyHotMessagesAreCompact() throws {
        let hash = StateHash(bytes: Array(repeating: 7, count: 32))
        let hot: [TableMessage] = [
            .move(table: "ab-1-1", number: 3, seat: 1, move: .string("B2"), stateHash: hash),
            .confirm(table: "ab-1-1", number: 3, stateHash: hash),
            .raceMove(table: "ab-1-1", seat: 2, number: 0, move: .string("up"), seatHash: hash),
        ]
        for m in hot {
            let wire = try m.wireBytes()
            XCTAssertTrue(CompactMessage.isCompact(wire), m.typeName)
            XCTAssertEqual(try TableMessage.decode(wire: wire), m)
            XCTAssertLessThan(wire.count, try CanonicalJSON.encode(m).count / 2, m.typeName)
        }
        let rare: TableMessage = .sync(table: "ab-1-1", moves: 4, stateHash: hash)
        XCTAssertEqual(try rare.wireBytes(), try CanonicalJSON.encode(rare))
        XCTAssertEqual(try TableMessage.decode(wire: try rare.wireBytes()), rare)
    }
}
