import TavoloSealed
import XCTest

/// The group wrapper and the two proofs: what is accepted, and that each kind of lie is refused.
final class SealedProofTests: XCTestCase {
    let table = SealedContext(tableId: "0123abcd-1-1")

    func member(_ j: Int, seed: UInt8? = nil) -> SealedMemberSecret {
        SealedMemberSecret(seed: [UInt8](repeating: seed ?? UInt8(j + 1), count: 32), context: table, member: j)
    }

    func testPointsDecodeOnlyCanonicalEncodings() {
        XCTAssertEqual(RistrettoPoint(bytes: [UInt8](repeating: 0, count: 32)), .identity)
        XCTAssertNotNil(RistrettoPoint(bytes: RistrettoPoint.generator.bytes))
        // 2^255 − 1 is not a field element's canonical encoding; 31 bytes is no point at all.
        XCTAssertNil(RistrettoPoint(bytes: [UInt8](repeating: 0xFF, count: 32)))
        XCTAssertNil(RistrettoPoint(bytes: [UInt8](repeating: 0, count: 31)))
    }

    func testScalarsDecodeOnlyCanonicalEncodings() {
        // ℓ = 2^252 + 27742317777372353535851937790883648493, little-endian: the first non-canonical value.
        let order: [UInt8] = [
            0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
        ]
        XCTAssertNil(RistrettoScalar(bytes: order))
        var belowOrder = order
        belowOrder[0] -= 1
        XCTAssertNotNil(RistrettoScalar(bytes: belowOrder))
        XCTAssertEqual(RistrettoPoint.base(times: RistrettoScalar.zero), .identity)
    }

    func testGroupLawsHoldThroughTheWrapper() {
        let x = member(0).key
        let y = member(1).key
        XCTAssertEqual(RistrettoPoint.base(times: x + y), .base(times: x) + .base(times: y))
        XCTAssertEqual(RistrettoPoint.base(times: x * y), RistrettoPoint.base(times: x).times(y))
        XCTAssertEqual(RistrettoPoint.base(times: x - x), .identity)
        XCTAssertEqual(RistrettoPoint.base(times: x) - .base(times: y), .base(times: x - y))
    }

    func testCardPointsAreDistinctAndReadBack() {
        let cards = SealedCardPoints(count: 54)
        XCTAssertEqual(Set(cards.points).count, 54)
        for i in 0..<54 { XCTAssertEqual(cards.card(of: cards.points[i]), i) }
        XCTAssertNil(cards.card(of: .generator))
        XCTAssertEqual(SealedCardPoints(count: 40).points, Array(cards.points.prefix(40)))
    }

    func testKeyProofVerifiesOnlyForItsKeyTableAndMember() throws {
        let alice = member(0)
        let proof = alice.keyProof()
        XCTAssertTrue(proof.verifies(publicKey: alice.publicKey, context: table, member: 0))
        XCTAssertEqual(KeyProof(bytes: proof.bytes), proof)
        XCTAssertFalse(proof.verifies(publicKey: alice.publicKey, context: table, member: 1))
        XCTAssertFalse(proof.verifies(publicKey: alice.publicKey, context: SealedContext(tableId: "other"), member: 0))
        XCTAssertFalse(proof.verifies(publicKey: member(1).publicKey, context: table, member: 0))
        let bent = KeyProof(challenge: proof.challenge, response: proof.response + .one)
        XCTAssertFalse(bent.verifies(publicKey: alice.publicKey, context: table, member: 0))
    }

    /// The rogue key: a last member that publishes `h = X − h_0` without knowing its log cannot prove it.
    func testARogueKeyHasNoProofAndTheJointKeyRefusesIt() {
        let honest = member(0)
        let rogue = RistrettoPoint.base(times: member(5).key) - honest.publicKey
        let copied = honest.keyProof()
        let keys = [honest.publicKey, rogue]
        XCTAssertNil(SealedJointKey.combine(keys: keys, proofs: [copied, copied], context: table))
        let fair = [honest.publicKey, member(1).publicKey]
        XCTAssertEqual(
            SealedJointKey.combine(keys: fair, proofs: [honest.keyProof(), member(1).keyProof()], context: table),
            fair[0] + fair[1])
    }

    func testShareProofVerifiesAndEveryWrongShareIsRefused() throws {
        let alice = member(0)
        let bob = member(1)
        let card = SealedCiphertext.open(SealedCardPoints.point(card: 7))
            .rerandomised(by: bob.key, jointKey: alice.publicKey + bob.publicKey)
        let share = DecryptionShare.make(secret: alice, deal: 1, position: 3, card: card)
        func verifies(_ s: DecryptionShare, deal: Int = 1, position: Int = 3, member: Int = 0) -> Bool {
            s.verifies(
                context: table, deal: deal, position: position, member: member, publicKey: alice.publicKey, card: card)
        }
        XCTAssertTrue(verifies(share))
        XCTAssertEqual(share.share, card.a.times(alice.key))
        XCTAssertFalse(verifies(share, deal: 2))
        XCTAssertFalse(verifies(share, position: 4))
        XCTAssertFalse(verifies(share, member: 1))
        // A share off by anything, with the honest proof: refused.
        XCTAssertFalse(verifies(DecryptionShare(share: share.share + .generator, proof: share.proof)))
        // Bob's share passed off as Alice's, with Bob's own valid proof: refused against Alice's key.
        let bobs = DecryptionShare.make(secret: bob, deal: 1, position: 3, card: card)
        XCTAssertFalse(verifies(DecryptionShare(share: bobs.share, proof: bobs.proof)))
        XCTAssertEqual(ShareProof(bytes: share.proof.bytes), share.proof)
        XCTAssertNil(ShareProof(bytes: [UInt8](repeating: 0xFF, count: 64)))
    }
}
