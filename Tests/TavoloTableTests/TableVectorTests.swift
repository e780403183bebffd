import Foundation
import TavoloCore
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

final class TableVectorTests: XCTestCase {
    func load() throws -> [String: Any] {
        let data = try ProtocolVectors.data("tables.json")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Every message decodes and re-encodes to exactly the vector's bytes.
    func testMessagesRoundTripByteForByte() throws {
        let messages = try XCTUnwrap(try load()["messages"] as? [String])
        var types = Set<String>()
        for text in messages {
            let message = try WireJSON.decode(TableMessage.self, Array(text.utf8))
            types.insert(message.typeName)
            XCTAssertEqual(String(decoding: try WireJSON.encode(message), as: UTF8.self), text)
        }
        XCTAssertEqual(types.count, 19, "every table message type has a vector")
    }

    func testJointSeedsAndCommitments() throws {
        let cases = try XCTUnwrap(try load()["jointSeeds"] as? [[String: Any]])
        for c in cases {
            let nonces = try XCTUnwrap(c["nonces"] as? [String]).compactMap { [UInt8](hexString: $0) }
            XCTAssertEqual(nonces.map(JointSeed.commitment(for:)), c["commitments"] as? [String])
            XCTAssertEqual(String(JointSeed.seed(nonces: nonces)), c["jointSeed"] as? String)
        }
        let testNonces = try XCTUnwrap(try load()["testNonces"] as? [[String: Any]])
        for n in testNonces {
            let nonce = JointSeed.testNonce(
                seed: 11, nodeIndex: UInt64(try XCTUnwrap(n["index"] as? Int)),
                counter: UInt64(try XCTUnwrap(n["counter"] as? Int)))
            XCTAssertEqual(nonce.hexString, n["nonce"] as? String)
        }
    }

    /// PROTOCOL.md §10.3 against the independent Python ranking.
    func testRaceRankings() throws {
        let cases = try XCTUnwrap(try load()["raceRankings"] as? [[String: Any]])
        XCTAssertEqual(cases.count, 6)
        for c in cases {
            let orders = try XCTUnwrap(c["orders"] as? [[Int]])
            let completed = Set(try XCTUnwrap(c["completed"] as? [Int]))
            let moves = try XCTUnwrap(c["moves"] as? [Int])
            XCTAssertEqual(
                RaceRanking.rank(orders: orders, completed: completed, moves: moves).ranking, c["ranking"] as? [Int])
        }
    }

    /// PROTOCOL.md §9.12's heirs' order against the independent Python ranks: not the order of the node ids.
    func testHeirOrderFollowsTheJointSeedNotTheIds() throws {
        let cases = try XCTUnwrap(try load()["heirOrders"] as? [[String: Any]])
        XCTAssertEqual(cases.count, 4)
        var orderedByIDEverywhere = true
        for c in cases {
            let seed = try XCTUnwrap(UInt64(try XCTUnwrap(c["jointSeed"] as? String)))
            let members = try XCTUnwrap(c["members"] as? [String]).compactMap(NodeID.init(hex:))
            let order = try XCTUnwrap(c["order"] as? [String]).compactMap(NodeID.init(hex:))
            XCTAssertEqual(members.map { HeirOrder.rank(of: $0, jointSeed: seed).hexString }, c["ranks"] as? [String])
            XCTAssertEqual(HeirOrder.first(of: members, jointSeed: seed), order.first)
            XCTAssertEqual(
                HeirOrder.first(of: members.reversed(), jointSeed: seed), order.first, "whatever the order given")
            if order.first != members.min() { orderedByIDEverywhere = false }
        }
        XCTAssertFalse(orderedByIDEverywhere, "some vector's heir is not the lowest id")
    }

    func testUnknownTypeIsAnError() {
        XCTAssertThrowsError(try WireJSON.decode(TableMessage.self, Array(#"{"type":"table.nope","table":"x"}"#.utf8)))
    }
}
