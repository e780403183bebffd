import Foundation
import TavoloSealed
import TavoloTestSupport
import XCTest

/// Replays Protocol/vectors/sealed.json (generate_sealed_vectors.py, an independent Python implementation of §14)
/// byte for byte: card points, derived keys and proofs, every member's shuffle, shares, proofs and the opened deck.
final class SealedVectorTests: XCTestCase {
    private func vectors() throws -> [String: Any] {
        let data = try ProtocolVectors.data("sealed.json")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func hex(_ s: Any?) throws -> [UInt8] {
        let text = try XCTUnwrap(s as? String)
        var out: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            out.append(try XCTUnwrap(UInt8(text[index..<next], radix: 16)))
            index = next
        }
        return out
    }

    private func point(_ s: Any?) throws -> RistrettoPoint { try XCTUnwrap(RistrettoPoint(bytes: try hex(s))) }

    func testCardPoints() throws {
        let expected = try XCTUnwrap(try vectors()["cardPoints"] as? [String]).map { try point($0) }
        XCTAssertEqual(SealedCardPoints(count: 54).points, expected)
    }

    func testCases() throws {
        let cases = try XCTUnwrap(try vectors()["cases"] as? [[String: Any]])
        XCTAssertEqual(cases.count, 3)
        for c in cases { try check(c) }
    }

    private func check(_ c: [String: Any]) throws {
        let context = SealedContext(tableId: try XCTUnwrap(c["table"] as? String))
        let cards = SealedCardPoints(count: try XCTUnwrap(c["cards"] as? Int))
        let secrets = try XCTUnwrap(c["secrets"] as? [[String: String]])
        let members = try secrets.enumerated().map { j, s in
            SealedMemberSecret(seed: try hex(s["sigma"]), context: context, member: j)
        }
        for (j, s) in secrets.enumerated() {
            XCTAssertEqual(members[j].key.bytes, try hex(s["key"]))
            XCTAssertEqual(members[j].publicKey, try point(s["publicKey"]))
            let proof = try XCTUnwrap(KeyProof(bytes: try hex(s["keyProof"])))
            XCTAssertEqual(members[j].keyProof(), proof)
            XCTAssertTrue(proof.verifies(publicKey: members[j].publicKey, context: context, member: j))
        }
        let jointKey = try XCTUnwrap(
            SealedJointKey.combine(
                keys: members.map(\.publicKey), proofs: members.map { $0.keyProof() }, context: context))
        XCTAssertEqual(jointKey, try point(c["jointKey"]))
        for d in try XCTUnwrap(c["deals"] as? [[String: Any]]) {
            try checkDeal(d, members: members, cards: cards, jointKey: jointKey)
        }
        if let escrow = c["escrow"] as? [String: Any] { try checkEscrow(escrow, members: members) }
    }

    private func checkDeal(
        _ d: [String: Any], members: [SealedMemberSecret], cards: SealedCardPoints, jointKey: RistrettoPoint
    ) throws {
        let number = try XCTUnwrap(d["deal"] as? Int)
        let orders = try XCTUnwrap(d["orders"] as? [[Int]])
        let steps = try XCTUnwrap(d["steps"] as? [String])
        var deck = SealedDeck.initial(cards)
        for (j, member) in members.enumerated() {
            XCTAssertEqual(SealedShuffle.order(secret: member, deal: number, count: cards.count), orders[j])
            deck = SealedShuffle.step(deck, secret: member, deal: number, jointKey: jointKey)
            XCTAssertEqual(deck, SealedDeck.decode(try hex(steps[j]), count: cards.count), "deal \(number) step \(j)")
        }
        XCTAssertEqual(SealedDeck.hash(deck), try hex(d["finalHash"]))
        for s in try XCTUnwrap(d["shares"] as? [[String: Any]]) {
            let p = try XCTUnwrap(s["position"] as? Int)
            let j = try XCTUnwrap(s["member"] as? Int)
            let theirs = DecryptionShare(
                share: try point(s["share"]), proof: try XCTUnwrap(ShareProof(bytes: try hex(s["proof"]))))
            XCTAssertEqual(DecryptionShare.make(secret: members[j], deal: number, position: p, card: deck[p]), theirs)
            XCTAssertTrue(
                theirs.verifies(
                    context: members[j].context, deal: number, position: p, member: j,
                    publicKey: members[j].publicKey, card: deck[p]))
        }
        let opened = deck.enumerated().map { p, card in
            DecryptionShare.open(
                card,
                shares: members.map { DecryptionShare.make(secret: $0, deal: number, position: p, card: card).share },
                cards: cards)
        }
        XCTAssertEqual(opened, try XCTUnwrap(d["opened"] as? [Int]))
    }

    private func checkEscrow(_ e: [String: Any], members: [SealedMemberSecret]) throws {
        let owner = members[try XCTUnwrap(e["owner"] as? Int)]
        let holders = try XCTUnwrap(e["holders"] as? [Int])
        let pieces = SealedEscrow.pieces(of: owner, holders: holders)
        XCTAssertEqual(pieces, try XCTUnwrap(e["pieces"] as? [String]).map { try hex($0) })
        let commitments = zip(holders, pieces).map {
            SealedEscrow.commitment(context: owner.context, owner: owner.member, holder: $0, piece: $1)
        }
        XCTAssertEqual(commitments, try XCTUnwrap(e["commitments"] as? [String]).map { try hex($0) })
        let keys = holders.map { members[$0].publicKey }
        let sealed = try XCTUnwrap(e["sealed"] as? [[String: Any]])
        XCTAssertEqual(
            SealedEscrow.seal(owner, holders: holders, holderKeys: keys),
            try sealed.map {
                SealedEscrow.SealedPiece(
                    holder: try XCTUnwrap($0["member"] as? Int), ephemeral: try point($0["ephemeral"]),
                    sealed: try hex($0["sealed"]), commitment: try hex($0["commitment"]))
            })
        for piece in SealedEscrow.seal(owner, holders: holders, holderKeys: keys) {
            XCTAssertEqual(
                SealedEscrow.open(piece, owner: owner.member, holder: members[piece.holder]),
                pieces[try XCTUnwrap(holders.firstIndex(of: piece.holder))])
        }
        XCTAssertEqual(
            SealedEscrow.recover(
                pieces: pieces, context: owner.context, member: owner.member, publicKey: owner.publicKey)?
                .seed, owner.seed)
    }
}
