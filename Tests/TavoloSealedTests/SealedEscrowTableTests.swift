import TavoloCore
import TavoloGames
import TavoloSealed
import XCTest

/// The escrow of §14.11 at the level of one member's `SealedTable`: escrows checked as they come, the pieces
/// released to the heir, the secret recovered, and each lie named — a released piece that is not the committed one
/// names its sender; pieces that do not give the leaver's secret name the leaver.
final class SealedEscrowTableTests: XCTestCase {
    /// `count` members of a sealed Briscola (seed 7 for three, 8 for four), every key and escrow exchanged; with
    /// `forged`, the last member's escrow splits that secret instead of its own.
    func members(_ count: Int, seed: UInt64, lastEscrowOf forged: SealedMemberSecret? = nil) throws -> [SealedTable] {
        let h = try SealedTableHarness(game: "briscola", seatMembers: Array(0..<count), seed: seed)
        var tables = h.members.map(\.table)
        for i in 0..<count {
            for j in 0..<count where i != j {
                try tables[i].acceptKey(from: j, key: tables[j].secret!.publicKey, proof: tables[j].secret!.keyProof())
            }
        }
        for j in 0..<count {
            var message = try XCTUnwrap(tables[j].escrowMessage)
            if j == count - 1, let forged {
                let holders = Array(0..<j)
                let keys = holders.map { tables[$0].secret!.publicKey }
                message = .escrow(
                    table: forged.context.tableId,
                    pieces: SealedEscrow.seal(forged, holders: holders, holderKeys: keys))
            }
            guard case .escrow(_, let pieces) = message else { return [] }
            for i in 0..<count where i != j { try tables[i].acceptEscrow(from: j, pieces: pieces) }
        }
        return tables
    }

    func threeMembers(escrowOf2 forged: SealedMemberSecret? = nil) throws -> [SealedTable] {
        try members(3, seed: 7, lastEscrowOf: forged)
    }

    func testTheHeirRecoversTheLeaversSecretFromTheOthersPieces() throws {
        var tables = try threeMembers()
        XCTAssertTrue(tables.allSatisfy(\.hasEveryEscrow))
        // Member 2 leaves; member 0 is its heir. Member 1 releases its piece to it.
        XCTAssertEqual(try tables[0].pass(2, to: 0), [])
        XCTAssertTrue(tables[0].awaitsSecret(of: 2))
        let released = try tables[1].pass(2, to: 0)
        guard case .release(_, 2, let pieces)? = released.first else { return XCTFail("\(released)") }
        XCTAssertEqual(pieces.map(\.holder), [1])
        _ = try tables[0].acceptRelease(from: 1, of: 2, pieces: pieces)
        XCTAssertEqual(tables[0].inherited[2]?.seed, tables[2].secret!.seed)
        XCTAssertFalse(tables[0].awaitsSecret(of: 2))
        XCTAssertEqual(
            tables[0].auditMessage!,
            .audit(
                table: tables[0].context.tableId,
                secrets: [
                    .init(member: 0, secret: tables[0].secret!.seed), .init(member: 2, secret: tables[2].secret!.seed),
                ]))
    }

    func testAFalseReleasedPieceNamesItsSender() throws {
        var tables = try threeMembers()
        _ = try tables[0].pass(2, to: 0)
        guard case .release(_, _, var pieces)? = try tables[1].pass(2, to: 0).first else { return XCTFail() }
        pieces[0].piece[0] ^= 1
        XCTAssertThrowsError(try tables[0].acceptRelease(from: 1, of: 2, pieces: pieces)) {
            XCTAssertEqual(($0 as? SealedFault)?.code, .badEscrow)
            XCTAssertEqual(($0 as? SealedFault)?.member, 1)
        }
    }

    /// Member 2's escrow is consistent piece by piece (each opens to its commitment) but splits another secret: the
    /// heir finds out once every piece is in, and names member 2.
    func testAnEscrowOfAnotherSecretNamesItsOwner() throws {
        let context = SealedContext(tableId: "5eed7-briscola")
        let other = SealedMemberSecret(seed: [UInt8](repeating: 9, count: 32), context: context, member: 2)
        var tables = try threeMembers(escrowOf2: other)
        _ = try tables[0].pass(2, to: 0)
        guard case .release(_, _, let pieces)? = try tables[1].pass(2, to: 0).first else { return XCTFail() }
        XCTAssertThrowsError(try tables[0].acceptRelease(from: 1, of: 2, pieces: pieces)) {
            XCTAssertEqual(($0 as? SealedFault)?.code, .badEscrow)
            XCTAssertEqual(($0 as? SealedFault)?.member, 2)
        }
    }

    func testAMalformedOrSecondEscrowIsRefused() throws {
        var tables = try threeMembers()
        guard case .escrow(_, let pieces)? = tables[1].escrowMessage else { return XCTFail() }
        XCTAssertThrowsError(try tables[0].acceptEscrow(from: 1, pieces: Array(pieces.reversed())))
        XCTAssertThrowsError(try tables[0].acceptEscrow(from: 1, pieces: [pieces[0], pieces[0]]))
        let other = SealedMemberSecret(
            seed: [UInt8](repeating: 3, count: 32), context: tables[1].context, member: 1)
        let second = SealedEscrow.seal(
            other, holders: [0, 2], holderKeys: [0, 2].map { tables[$0].secret!.publicKey })
        XCTAssertThrowsError(try tables[0].acceptEscrow(from: 1, pieces: second))
        XCTAssertNoThrow(try tables[0].acceptEscrow(from: 1, pieces: pieces), "the same escrow again is no lie")
    }
}

extension SealedEscrowTableTests {
    /// Two members out together: each holds the piece of the other's secret the heir lacks, so neither can be
    /// recovered, and the heir says so once every other piece is in — not before.
    func testTwoMembersOutTogetherAreUnrecoverable() throws {
        var tables = try fourMembers()
        XCTAssertEqual(try tables[0].pass(2, to: 0), [])
        XCTAssertEqual(try tables[0].pass(3, to: 0), [])
        XCTAssertEqual(tables[0].unrecoverable, [], "member 1's pieces may still come")
        for owner in [2, 3] {
            guard case .release(_, _, let pieces)? = try tables[1].pass(owner, to: 0).first else { return XCTFail() }
            _ = try tables[0].acceptRelease(from: 1, of: owner, pieces: pieces)
        }
        XCTAssertEqual(tables[0].unrecoverable, [2, 3])
        XCTAssertTrue(tables[0].inherited.isEmpty)
    }

    func fourMembers() throws -> [SealedTable] { try members(4, seed: 8) }
}

extension SealedEscrowTableTests {
    /// An audit may name members up to 15 on the wire: one past the table's is nobody's, not a crash.
    func testAnAuditNamingAMemberPastTheTableIsSkipped() throws {
        var tables = try threeMembers()
        let own = SealedMessage.MemberSecret(member: 1, secret: tables[1].secret!.seed)
        let stray = SealedMessage.MemberSecret(member: 15, secret: [UInt8](repeating: 1, count: 32))
        XCTAssertNoThrow(try tables[0].acceptAudit(from: 1, secrets: [own, stray]))
        XCTAssertEqual(tables[0].auditSecrets.keys.sorted(), [1])
    }
}
