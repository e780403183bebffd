import Foundation
import TavoloCore
import TavoloProtocol
import TavoloTestSupport
import XCTest

@testable import TavoloTable

/// Protocol/vectors/compact.json, written by an independent encoder of PROTOCOL.md §13: every valid body decodes to
/// the JSON message it stands for and encodes back to the same bytes (or to its `sent` bytes, where a sender writes
/// the same message otherwise); a node sends the short kind of each; every invalid one is refused, by the decoder
/// and by a node, which counts it and goes on.
final class CompactVectorTests: XCTestCase {
    func load() throws -> [String: Any] {
        let data = try ProtocolVectors.data("compact.json")
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
            let sent = c["sent"] != nil ? try bytes(c, "sent") : body
            XCTAssertEqual(try m.encoded(), sent, "re-encoding \(name)")
            if m.kind == .progress {
                let d = try XCTUnwrap(ProgressDatagram(body, form: .compact), name)
                XCTAssertEqual(try d.wireBytes(), body, name)
                continue
            }
            // The table's message: the same as the JSON one decodes to, and sent as exactly these bytes.
            let message = try TableMessage.decode(body, form: .compact)
            let viaJSON = try CanonicalJSON.decode(TableMessage.self, m.jsonEquivalent())
            XCTAssertEqual(message, viaJSON, name)
            // A node sends the short kind: the same message with the first 8 bytes of the hash (§13.2).
            let short = CompactMessage(
                kind: CompactMessage.Kind(rawValue: m.kind.rawValue | 0x04)!, table: m.table, number: m.number,
                seat: m.seat, hash: m.hash.map { Array($0.prefix(CompactMessage.shortHashSize)) }, json: m.json)
            XCTAssertEqual(try message.wireBytes(), m.kind.isShort ? sent : try short.encoded(), "sending \(name)")
        }
    }

    func testWholeFramesParse() throws {
        let cases = try XCTUnwrap(try load()["valid"] as? [[String: Any]]).filter { $0["frame"] != nil }
        XCTAssertEqual(cases.count, 5)
        for c in cases {
            let frame = try Frame.parse(try bytes(c, "frame"), maxPayload: FrameLimits.maxReliablePayload)
            switch frame {
            // Every compact message is the tables service's (§3.9, §13.1).
            case .compact(let service, let body):
                XCTAssertEqual(service, .tables)
                XCTAssertEqual(body, try bytes(c))
            case .datagram(let d):
                XCTAssertEqual(d.service, .tables)
                XCTAssertEqual(d.form, .compact)
                XCTAssertEqual(d.body, try bytes(c))
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
            XCTAssertThrowsError(try TableMessage.decode(body, form: .compact), name)
            XCTAssertNil(ProgressDatagram(body, form: .compact), name)
        }
    }

    /// A node drops every invalid body and counts it as a refused table message (§13.4), like a JSON one.
    func testANodeCountsInvalidBodiesAsRefused() async throws {
        let cases = try XCTUnwrap(try load()["invalid"] as? [[String: Any]])
        let net = ShellLoopback()
        let nodes = await net.makeNodes(2)
        for c in cases { await nodes[0].received(try bytes(c), form: .compact, from: nodes[1].me) }
        let refused = await nodes[0].refusedMessages
        XCTAssertEqual(refused, cases.count)
    }

    /// The messages sent for every move go compact, in the short kinds (their hash cut to 8 bytes, which a receiver
    /// compares as agreeing); every other one stays JSON (and decodes as before).
    func testOnlyHotMessagesAreCompact() throws {
        let hash = StateHash(bytes: Array(0..<32))
        let hot: [(sent: TableMessage, received: TableMessage)] = [
            (
                .move(table: "1267f349-1-12", number: 3, seat: 1, move: .string("B2"), stateHash: hash),
                .move(table: "1267f349-1-12", number: 3, seat: 1, move: .string("B2"), stateHash: hash.short)
            ),
            (
                .confirm(table: "ab-1-1", number: 3, stateHash: hash),
                .confirm(table: "ab-1-1", number: 3, stateHash: hash.short)
            ),
            (
                .raceMove(table: "ab-1-1", seat: 2, number: 0, move: .string("up"), seatHash: hash),
                .raceMove(table: "ab-1-1", seat: 2, number: 0, move: .string("up"), seatHash: hash.short)
            ),
        ]
        for (m, expected) in hot {
            let wire = try m.wireBytes()
            XCTAssertTrue(CompactMessage.isCompact(wire), m.typeName)
            XCTAssertTrue(try CompactMessage.decode(wire).kind.isShort, m.typeName)
            XCTAssertEqual(try TableMessage.decode(wire: wire), expected)
            XCTAssertLessThan(wire.count, try CanonicalJSON.encode(m).count / 4, m.typeName)
        }
        // The host-made id in 7 bytes (§13.2's example): kind, 0x00, 4 bytes, two varints.
        let confirm = try TableMessage.confirm(table: "1267f349-1-12", number: 5, stateHash: hash).wireBytes()
        XCTAssertEqual(confirm, [0x06, 0x00, 0x12, 0x67, 0xF3, 0x49, 0x01, 0x0C, 0x05] + Array(0..<8))
        let rare: TableMessage = .sync(table: "ab-1-1", moves: 4, stateHash: hash)
        XCTAssertEqual(try rare.wireBytes(), try CanonicalJSON.encode(rare))
        XCTAssertEqual(try TableMessage.decode(wire: try rare.wireBytes()), rare)
    }
}
