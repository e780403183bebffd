import TavoloSealed
import XCTest

/// A whole sealed deal in one process: keys, every member's shuffle in turn, private and public openings, the
/// audit's recomputation of a shuffle, and the escrow of a leaver's secret.
final class SealedDeckTests: XCTestCase {
    let table = SealedContext(tableId: "feedbeef-2-7")

    struct Deal {
        var members: [SealedMemberSecret]
        var jointKey: RistrettoPoint
        var steps: [[SealedCiphertext]]
        var final: [SealedCiphertext] { steps.last ?? [] }
    }

    func deal(members count: Int, cards: SealedCardPoints, deal number: Int = 1) -> Deal {
        let members = (0..<count).map { j in
            SealedMemberSecret(
                seed: (0..<32).map { UInt8(truncatingIfNeeded: $0 * 7 + j * 31 + 1) }, context: table, member: j)
        }
        let jointKey = RistrettoPoint.sum(members.map(\.publicKey))
        var steps = [SealedDeck.initial(cards)]
        for m in members {
            steps.append(SealedShuffle.step(steps[steps.count - 1], secret: m, deal: number, jointKey: jointKey))
        }
        return Deal(members: members, jointKey: jointKey, steps: steps)
    }

    func shares(_ d: Deal, position p: Int, from members: [Int]) -> [RistrettoPoint] {
        members.map { DecryptionShare.make(secret: d.members[$0], deal: 1, position: p, card: d.final[p]).share }
    }

    func testEveryCardOpensOnceEveryMemberShares() {
        let cards = SealedCardPoints(count: 54)
        let d = deal(members: 4, cards: cards)
        let order = (0..<54).map {
            DecryptionShare.open(d.final[$0], shares: shares(d, position: $0, from: [0, 1, 2, 3]), cards: cards)
        }
        XCTAssertEqual(order.compactMap { $0 }.sorted(), Array(0..<54))
        XCTAssertNotEqual(order.compactMap { $0 }, Array(0..<54), "four shuffles left the deck in order")
    }

    func testACardIsNotReadableWithoutOneMembersShare() {
        let cards = SealedCardPoints(count: 40)
        let d = deal(members: 3, cards: cards)
        for p in 0..<40 {
            XCTAssertNil(DecryptionShare.open(d.final[p], shares: shares(d, position: p, from: [0, 1]), cards: cards))
            XCTAssertNil(DecryptionShare.open(d.final[p], shares: shares(d, position: p, from: [1, 2]), cards: cards))
        }
    }

    func testNoTwoMembersPublishTheSameCiphertextForACard() {
        let d = deal(members: 2, cards: SealedCardPoints(count: 40))
        XCTAssertTrue(Set(d.steps[0]).isDisjoint(with: Set(d.steps[1])))
        XCTAssertTrue(Set(d.steps[1]).isDisjoint(with: Set(d.steps[2])))
    }

    func testTheAuditRecomputesEachShuffleAndFindsATamperedOne() {
        let cards = SealedCardPoints(count: 40)
        let d = deal(members: 3, cards: cards)
        for (j, m) in d.members.enumerated() {
            XCTAssertEqual(SealedShuffle.step(d.steps[j], secret: m, deal: 1, jointKey: d.jointKey), d.steps[j + 1])
        }
        // Member 1 slips in a card it sealed itself (it would know where that card lies): recomputing its step from
        // its revealed secret gives another deck.
        var forged = d.steps[2]
        forged[5] = SealedCiphertext.open(cards.points[0]).rerandomised(by: .one, jointKey: d.jointKey)
        XCTAssertNotEqual(SealedShuffle.step(d.steps[1], secret: d.members[1], deal: 1, jointKey: d.jointKey), forged)
        XCTAssertNotEqual(SealedDeck.hash(forged), SealedDeck.hash(d.steps[2]))
    }

    /// The audit replays shuffles from the joint secret (fixed-base multiplications only): it must give the very
    /// encodings the members computed from the joint key, or an honest member would be named.
    func testAShuffleReplayedFromTheJointSecretIsTheMembersOwnBitForBit() {
        let d = deal(members: 4, cards: SealedCardPoints(count: 54))
        let joint = d.members.map(\.key).reduce(RistrettoScalar.zero, +)
        XCTAssertEqual(RistrettoPoint.base(times: joint), d.jointKey)
        for (j, m) in d.members.enumerated() {
            XCTAssertEqual(SealedShuffle.step(d.steps[j], secret: m, deal: 1, jointSecret: joint), d.steps[j + 1])
        }
        // A wrong joint secret (one member's key left out) gives another deck: the replay does use it.
        let short = d.members.dropFirst().map(\.key).reduce(RistrettoScalar.zero, +)
        XCTAssertNotEqual(SealedShuffle.step(d.steps[1], secret: d.members[1], deal: 1, jointSecret: short), d.steps[2])
    }

    func testEachDealShufflesDifferently() {
        let m = SealedMemberSecret(seed: [UInt8](repeating: 9, count: 32), context: table, member: 0)
        XCTAssertEqual(SealedShuffle.order(secret: m, deal: 1, count: 54).sorted(), Array(0..<54))
        XCTAssertNotEqual(
            SealedShuffle.order(secret: m, deal: 1, count: 54), SealedShuffle.order(secret: m, deal: 2, count: 54))
    }

    func testDeckWireFormRoundTripsAndRefusesAnOpenCard() {
        let d = deal(members: 2, cards: SealedCardPoints(count: 40))
        XCTAssertEqual(SealedDeck.decode(SealedDeck.encode(d.final), count: 40), d.final)
        XCTAssertNil(SealedDeck.decode(SealedDeck.encode(d.final), count: 39))
        XCTAssertNil(SealedDeck.decode(SealedDeck.encode(d.steps[0]), count: 40), "a card with a = identity is open")
    }

    func testEscrowGivesTheSecretBackOnlyFromEveryPiece() {
        let owner = SealedMemberSecret(seed: [UInt8](repeating: 0x5A, count: 32), context: table, member: 1)
        let pieces = SealedEscrow.pieces(of: owner, holders: [0, 2, 3])
        XCTAssertEqual(pieces.count, 3)
        let back = SealedEscrow.recover(pieces: pieces, context: table, member: 1, publicKey: owner.publicKey)
        XCTAssertEqual(back?.seed, owner.seed)
        XCTAssertNil(
            SealedEscrow.recover(
                pieces: Array(pieces.dropLast()), context: table, member: 1, publicKey: owner.publicKey))
        var lying = pieces
        lying[0][0] ^= 1
        XCTAssertNil(SealedEscrow.recover(pieces: lying, context: table, member: 1, publicKey: owner.publicKey))
        XCTAssertNotEqual(
            SealedEscrow.commitment(context: table, owner: 1, holder: 0, piece: pieces[0]),
            SealedEscrow.commitment(context: table, owner: 1, holder: 0, piece: lying[0]))
    }

    func testAnEscrowPieceOpensOnlyForItsHolder() {
        let members = (0..<3).map {
            SealedMemberSecret(seed: [UInt8](repeating: UInt8(0x40 + $0), count: 32), context: table, member: $0)
        }
        let sealed = SealedEscrow.seal(
            members[0], holders: [1, 2], holderKeys: [members[1].publicKey, members[2].publicKey])
        let pieces = SealedEscrow.pieces(of: members[0], holders: [1, 2])
        XCTAssertEqual(SealedEscrow.open(sealed[0], owner: 0, holder: members[1]), pieces[0])
        XCTAssertEqual(SealedEscrow.open(sealed[1], owner: 0, holder: members[2]), pieces[1])
        XCTAssertNil(SealedEscrow.open(sealed[0], owner: 0, holder: members[2]), "member 2 opened member 1's piece")
        // A piece of the owner's that is not what it committed to is refused by its holder.
        let bent = SealedEscrow.SealedPiece(
            holder: 1, ephemeral: sealed[0].ephemeral, sealed: sealed[0].sealed.map { $0 ^ 0x80 },
            commitment: sealed[0].commitment)
        XCTAssertNil(SealedEscrow.open(bent, owner: 0, holder: members[1]))
    }
}
