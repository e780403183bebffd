import Foundation
import GRDB
import TavoloCore
import TavoloGames
import TavoloRecordFormat
import XCTest

@testable import TavoloRecords

/// Every seat owner signs a record, bots' owners too (PROTOCOL.md §11.4 step 7, §11.7): a game of bots alone that
/// names a node at a seat it never signed is refused, and was the hole a forger used to put a victim's bots at made-up
/// games (kept, listed as the victim's own, counted for its bots).
final class RecordSeatOwnerSignatureTests: XCTestCase {
    var dir: String!
    let verifier = RecordVerifier(catalog: .standard)

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("owners-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// An Othello game of bots: seat 0 test node 1's, seat 1 test node 2's (`RecordFactory`'s made-up ids, mapped),
    /// signed by both but `unsigned`.
    func botGame(seed: UInt64, unsigned: Set<Int> = []) throws -> SignedRecord {
        try TestSigners.signed(
            RecordFactory.playout(catalog: .standard, game: "othello", players: 2, seed: seed, bot: "greedy"),
            except: unsigned)
    }

    func verify(_ r: SignedRecord) -> Result<SignedRecord, RecordVerifier.Refusal> {
        verifier.verify(id: r.game.id, body: r.game.body, signatures: r.signatures)
    }

    func testABotGameNamingANodeThatNeverSignedIsRefused() throws {
        let forged = try botGame(seed: 1, unsigned: [2])
        XCTAssertEqual(forged.signatures.map(\.node), [TestSigners.node(1)], "the forger alone signed")
        XCTAssertFalse(forged.isSigned)
        guard case .failure(let why) = verify(forged) else { return XCTFail("a forged game of bots was accepted") }
        XCTAssertEqual(why.description, "unsigned: seat owner \(TestSigners.node(2).prefix(8)) did not sign it")
        // Nor does a node without a seat make up for the owner.
        var stranger = forged
        stranger.signatures += TestSigners.all[2].sign(recordID: forged.game.id).map { [$0] } ?? []
        guard case .failure = verify(stranger) else { return XCTFail("a signature of a node without a seat counted") }
    }

    func testAnHonestBotGameOfTwoNodesIsCompleteAndCounts() throws {
        let honest = try botGame(seed: 2)
        XCTAssertEqual(Set(honest.signatures.map(\.node)), [TestSigners.node(1), TestSigners.node(2)])
        let checked = try verify(honest).get()
        XCTAssertTrue(checked.isSigned)
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: TestSigners.node(2))
        XCTAssertEqual(try store.insert([checked], source: .peer), 1)
        XCTAssertEqual(try store.verified([honest.game.id]), [honest.game.id])
        let othello = try XCTUnwrap(try store.scores(game: "othello", catalog: .standard).games.first)
        XCTAssertEqual([othello.finished, othello.unverified], [1, 0])
        XCTAssertEqual(othello.bots.map(\.games), [2])
    }

    /// A game of one node's bots needs that node's signature alone; a member that left, whose seat passed to the
    /// heir's bot, need not sign (it owns no seat at the end).
    func testOnlyTheOwnersAtTheEndMustSign() throws {
        var b = try botGame(seed: 3).body
        b.seats = b.seats.map { .init(seat: $0.seat, node: TestSigners.node(1), name: "ann", bot: $0.bot) }
        XCTAssertEqual(RecordSignature.requiredSigners(of: b), [TestSigners.node(1)])
        XCTAssertTrue(RecordSignature.isComplete(b, signers: [TestSigners.node(1)]))
        b.takeovers = [
            .init(
                member: TestSigners.node(3), name: "eve", seats: [1], heir: TestSigners.node(1), bot: "greedy",
                number: 10, appliedAt: 10, forfeit: true)
        ]
        XCTAssertEqual(RecordSignature.requiredSigners(of: b), [TestSigners.node(1)], "not the member that left")
        XCTAssertFalse(RecordSignature.isComplete(b, signers: [TestSigners.node(3)]), "nor does it stand in")
    }

    /// A database that kept records under the earlier rule (a game of bots alone complete with one owner's
    /// signature): at start, a forged game a peer sent naming this node's bots goes, this node's own game still
    /// lacking the other owner's signature becomes unverified, and the leaderboards are counted again.
    func testRecordsKeptUnderTheEarlierRuleAreCheckedAgain() throws {
        let me = TestSigners.node(2)
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: me)
        let forged = try botGame(seed: 4, unsigned: [2])
        let own = try botGame(seed: 5, unsigned: [1])
        let honest = try botGame(seed: 6)
        try store.insert([forged], source: .peer)
        try store.insert([own], source: .local)
        try store.insert([honest], source: .peer)
        // As the earlier rule had it: all three signed and counted.
        try store.pool.write { db in
            try db.execute(sql: "UPDATE record SET verified = 1")
            try Standings.recount(db)
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v8-every-seat-owner-signs'")
        }
        XCTAssertEqual(try store.scores(game: "othello", catalog: .standard).games.first?.finished, 3)
        try store.close()
        let (again, _) = try RecordStore.open(stateDirectory: dir, me: me)
        XCTAssertEqual(try again.known([forged.game.id, own.game.id, honest.game.id]), [own.game.id, honest.game.id])
        XCTAssertEqual(try again.verified([own.game.id, honest.game.id]), [honest.game.id])
        let othello = try XCTUnwrap(try again.scores(game: "othello", catalog: .standard).games.first)
        XCTAssertEqual([othello.finished, othello.unverified], [1, 1])
        XCTAssertEqual(othello.bots.map(\.games), [2], "the honest game's two seats only")
        let (stored, recomputed) = try again.standingsCheck()
        XCTAssertEqual(stored, recomputed)
        XCTAssertEqual(try again.awaitingSignature(of: TestSigners.node(1), limit: 32), [own.game.id])
    }
}
