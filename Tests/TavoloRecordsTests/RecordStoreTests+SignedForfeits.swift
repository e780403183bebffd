import Foundation
import TavoloControl
import TavoloCore
import TavoloTable
import XCTest

@testable import TavoloRecords

/// A member that leaves signs its forfeit (PROTOCOL.md §11.7), so the loss counts for it although it never signs
/// the record of a game whose end it does not see; nobody else's signature can charge it with one, and one forfeit
/// is one loss however many records name it.
extension RecordStoreTests {
    /// The forfeit record of `forfeitRecord` with eve (test node 9) as the leaver, its forfeit signed by `signer`
    /// (test node index) for move count `number`, and the first seat's name set to `name` (another body, same game).
    func signedForfeitRecord(signer: Int, number: Int = 10, name: String = "ann") throws -> SignedRecord {
        let eve = TestSigners.node(9)
        var (_, b) = try forfeitRecord(eve: eve)
        b.seats[0].name = name
        let table = try XCTUnwrap(TableID(b.table))
        let seed = try XCTUnwrap(b.seed)
        b.takeovers?[0].signature = TestSigners.all[signer - 1].signForfeit(
            table: table, jointSeed: seed, number: number)
        let game = RecordedGame(body: try CanonicalJSON.encode(b), startedAt: nil, endedAt: 5)
        let signed = try TestSigners.signed(game, except: [9])
        XCTAssertTrue(signed.isSigned, "every seat owner signed it")
        return signed
    }

    func eveLine(_ store: RecordStore) throws -> (games: Int, wins: Int)? {
        let othello = try XCTUnwrap(try store.scores(game: "othello", catalog: .standard).games.first)
        return othello.humans.first { $0.player == "eve" }.map { ($0.games, $0.wins) }
    }

    func testAForfeitTheLeaverSignedCountsAgainstItWithoutItsRecordSignature() throws {
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: me)
        let record = try signedForfeitRecord(signer: 9)
        XCTAssertEqual(try RecordSignature.signedForfeits(of: record.body), [TestSigners.node(9)])
        XCTAssertEqual(try store.insert([record], source: .peer), 1)
        let line = try XCTUnwrap(try eveLine(store), "eve's forfeit counts")
        XCTAssertEqual([line.games, line.wins], [1, 0])
        let (stored, recomputed) = try store.standingsCheck()
        XCTAssertEqual(stored, recomputed)
    }

    func testAForfeitSignedByAnotherNodeOrForAnotherMoveDoesNotCount() throws {
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: me)
        let byAnother = try signedForfeitRecord(signer: 8)
        let otherMove = try signedForfeitRecord(signer: 9, number: 11, name: "ann2")
        XCTAssertEqual(RecordSignature.signedForfeits(of: byAnother.body), [])
        XCTAssertEqual(RecordSignature.signedForfeits(of: otherMove.body), [])
        XCTAssertEqual(try store.insert([byAnother, otherMove], source: .peer), 2)
        XCTAssertNil(try eveLine(store), "no valid forfeit signature: eve is charged with nothing")
        let (stored, recomputed) = try store.standingsCheck()
        XCTAssertEqual(stored, recomputed)
    }

    func testOneSignedForfeitIsOneLossHoweverManyRecordsCarryIt() throws {
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: me)
        let first = try signedForfeitRecord(signer: 9)
        let second = try signedForfeitRecord(signer: 9, name: "ann the second")
        XCTAssertNotEqual(first.game.id, second.game.id)
        XCTAssertEqual(try store.insert([first], source: .peer), 1)
        XCTAssertEqual(try store.insert([second], source: .peer), 1)
        XCTAssertEqual(try eveLine(store)?.games, 1)
        let (stored, recomputed) = try store.standingsCheck()
        XCTAssertEqual(stored, recomputed)
    }
}
