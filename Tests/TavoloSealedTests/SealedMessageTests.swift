import Foundation
import TavoloSealed
import TavoloTestSupport
import XCTest

/// The JSON of §14.7: the Python generator's messages decode to what this side makes from the same secrets, encode
/// back to the same objects, and every malformed field is refused.
final class SealedMessageTests: XCTestCase {
    private func vectorCase() throws -> [String: Any] {
        let data = try ProtocolVectors.data("sealed.json")
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap((doc["cases"] as? [[String: Any]])?.first { $0["messages"] != nil })
    }

    private func decode(_ object: Any) throws -> SealedMessage {
        try JSONDecoder().decode(SealedMessage.self, from: try JSONSerialization.data(withJSONObject: object))
    }

    private func object(_ message: SealedMessage) throws -> NSDictionary {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(message)) as? NSDictionary)
    }

    func testTheGeneratorsMessagesAreOurs() throws {
        let c = try vectorCase()
        let context = SealedContext(tableId: try XCTUnwrap(c["table"] as? String))
        let seeds = try XCTUnwrap(c["secrets"] as? [[String: String]]).map {
            [UInt8](hexString: $0["sigma"] ?? "") ?? []
        }
        let members = seeds.enumerated().map { SealedMemberSecret(seed: $1, context: context, member: $0) }
        var deal = SealedDeal(
            context: context, number: 1, cards: SealedCardPoints(count: 54), publicKeys: members.map(\.publicKey))
        let (input, deck) = deal.shuffle(with: members[0])
        let shares = try sharesOfMember1(&deal, members)
        let piece = SealedEscrow.pieces(of: members[0], holders: [1, 2])[0]
        let ours: [SealedMessage] = [
            .key(table: context.tableId, key: members[0].publicKey, proof: members[0].keyProof()),
            .escrow(
                table: context.tableId,
                pieces: SealedEscrow.seal(
                    members[0], holders: [1, 2], holderKeys: [members[1].publicKey, members[2].publicKey])),
            .shuffle(table: context.tableId, deal: 1, input: input, deck: SealedDeck.encode(deck)),
            shares,
            .open(
                table: context.tableId, deal: 1, number: 3, position: 0,
                share: try XCTUnwrap(deal.shares(of: members[0], positions: [0]).first).share),
            .audit(table: context.tableId, secrets: [.init(member: 2, secret: members[2].seed)]),
            .release(table: context.tableId, member: 0, pieces: [.init(holder: 1, piece: piece)]),
            .acting(member: 1, shares),
        ]
        let theirs = try XCTUnwrap(c["messages"] as? [[String: Any]])
        XCTAssertEqual(theirs.count, ours.count)
        for (t, o) in zip(theirs, ours) {
            XCTAssertEqual(try decode(t), o, "\(o.typeName)")
            XCTAssertEqual(try object(o), t as NSDictionary, "\(o.typeName)")
        }
    }

    /// §14.11's second escrow: the heir of member 0 splits σ_0 again among the members it does not act for, with the
    /// formulas of the first; the generator's `table.sealed-reescrow` and `table.sealed-rerelease` are ours.
    func testTheGeneratorsSecondEscrowIsOurs() throws {
        let data = try ProtocolVectors.data("sealed.json")
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let c = try XCTUnwrap((doc["cases"] as? [[String: Any]])?.first { $0["secondEscrow"] != nil })
        let second = try XCTUnwrap(c["secondEscrow"] as? [String: Any])
        let context = SealedContext(tableId: try XCTUnwrap(c["table"] as? String))
        let members = try XCTUnwrap(c["secrets"] as? [[String: String]]).enumerated().map {
            SealedMemberSecret(seed: [UInt8](hexString: $1["sigma"] ?? "") ?? [], context: context, member: $0)
        }
        let holders = try XCTUnwrap(second["holders"] as? [Int])
        XCTAssertEqual(holders, Array(2..<members.count))
        let pieces = SealedEscrow.pieces(of: members[0], holders: holders)
        XCTAssertEqual(pieces.map(\.hexString), second["pieces"] as? [String])
        let sealed = SealedEscrow.seal(members[0], holders: holders, holderKeys: holders.map { members[$0].publicKey })
        XCTAssertEqual(sealed.map(\.commitment.hexString), second["commitments"] as? [String])
        for piece in sealed {
            XCTAssertNotNil(SealedEscrow.open(piece, owner: 0, holder: members[piece.holder]), "holder \(piece.holder)")
        }
        let recovered = SealedEscrow.recover(
            pieces: pieces, context: context, member: 0, publicKey: members[0].publicKey)
        XCTAssertEqual(recovered?.seed, members[0].seed)
        let ours: [SealedMessage] = [
            .reEscrow(table: context.tableId, member: 0, pieces: sealed),
            .reRelease(table: context.tableId, member: 0, pieces: [.init(holder: 2, piece: pieces[0])]),
        ]
        let theirs = try XCTUnwrap(second["messages"] as? [[String: Any]])
        XCTAssertEqual(theirs.count, ours.count)
        for (t, o) in zip(theirs, ours) {
            XCTAssertEqual(try decode(t), o, "\(o.typeName)")
            XCTAssertEqual(try object(o), t as NSDictionary, "\(o.typeName)")
        }
    }

    private func sharesOfMember1(_ deal: inout SealedDeal, _ members: [SealedMemberSecret]) throws -> SealedMessage {
        for j in 0..<3 {
            let (input, deck) = deal.shuffle(with: members[j])
            try deal.acceptShuffle(from: j, input: input, deck: SealedDeck.encode(deck))
        }
        let shares = deal.shares(of: members[1], positions: [0, 1, 2]).map {
            SealedMessage.PositionShare(position: $0.position, share: $0.share)
        }
        return .shares(table: deal.context.tableId, deal: 1, shares: shares)
    }

    /// §9.1 caps a table message at 65,536 bytes: the largest sealed ones, a 54-card deck and the shares of a
    /// six-member Spirits! deal (25 positions of the other seats), fit with room to spare.
    func testTheLargestMessagesFitATableMessage() throws {
        let context = SealedContext(tableId: String(repeating: "t", count: 64))
        let members = (0..<6).map {
            SealedMemberSecret(seed: [UInt8](repeating: UInt8($0), count: 32), context: context, member: $0)
        }
        var deal = SealedDeal(
            context: context, number: 3, cards: SealedCardPoints(count: 54), publicKeys: members.map(\.publicKey))
        for j in 0..<6 {
            let (input, deck) = deal.shuffle(with: members[j])
            try deal.acceptShuffle(from: j, input: input, deck: SealedDeck.encode(deck))
            let shuffle = SealedMessage.shuffle(
                table: context.tableId, deal: 3, input: input, deck: SealedDeck.encode(deck))
            XCTAssertLessThan(try JSONEncoder().encode(shuffle).count, 16_384)
        }
        let shares = deal.shares(of: members[0], positions: (0..<30).filter { $0 % 6 != 0 })
            .map { SealedMessage.PositionShare(position: $0.position, share: $0.share) }
        XCTAssertEqual(shares.count, 25)
        let message = SealedMessage.shares(table: context.tableId, deal: 3, shares: shares)
        XCTAssertLessThan(try JSONEncoder().encode(message).count, 16_384)
        XCTAssertEqual(try JSONDecoder().decode(SealedMessage.self, from: JSONEncoder().encode(message)), message)
    }

    func testMalformedFieldsAreRefused() throws {
        let c = try vectorCase()
        let messages = try XCTUnwrap(c["messages"] as? [[String: Any]])
        func refused(_ index: Int, _ change: (inout [String: Any]) -> Void, _ why: String) {
            var m = messages[index]
            change(&m)
            XCTAssertThrowsError(try decode(m), why)
        }
        refused(0, { $0["key"] = ($0["key"] as? String)?.uppercased() }, "upper-case hex")
        refused(0, { $0["key"] = String(repeating: "f", count: 64) }, "a non-canonical point")
        refused(0, { $0["proof"] = String(repeating: "f", count: 128) }, "non-canonical scalars")
        refused(0, { $0["type"] = "table.sealed-keys" }, "an unknown type")
        refused(0, { $0["table"] = "" }, "an empty table id")
        refused(2, { $0["deck"] = String((($0["deck"] as? String) ?? "").dropLast(2)) }, "a deck cut short")
        refused(2, { $0["deal"] = 0 }, "deal 0")
        refused(2, { $0["input"] = "00" }, "a short input hash")
        refused(3, { $0["shares"] = (($0["shares"] as? [Any]) ?? []).reversed() as [Any] }, "positions out of order")
        refused(3, { $0["shares"] = [Any]() }, "no share")
        refused(4, { $0["number"] = -1 }, "a negative move number")
        refused(4, { $0["position"] = 256 }, "a position past any deck")
        refused(5, { $0["secrets"] = [["member": 99, "secret": String(repeating: "0", count: 64)]] }, "member 99")
        refused(6, { $0["pieces"] = [Any]() }, "a release without a piece")
        refused(6, { $0["pieces"] = [["holder": 1, "piece": "00"]] }, "a short piece")
        refused(7, { $0["member"] = 16 }, "shares of member 16")
    }
}
