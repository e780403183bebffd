import Foundation
import TavoloCore
import TavoloProtocol
import TavoloTestSupport
import XCTest

@testable import TavoloRecords

/// The summary after new records (§11.3 step 1) leaves out a peer that signed every one of them while every signer is
/// connected; a signer lost soon after has the peers left out told after all.
extension RecordSyncTests {
    /// A's summaries to B after the one of connecting, counted once each side knows the other.
    private func wiredCountingSummaries(_ storeA: RecordStore, _ storeB: RecordStore) async throws -> (
        RecordSync, RecordSync, MessageCounter
    ) {
        let summaries = MessageCounter()
        let b = b
        let (syncA, syncB) = wire(storeA, storeB, freshness: .seconds(30)) { _ in
        } tapA: { m, to in
            if case .summary = m, to == b { summaries.add() }
        }
        try await eventually("each knows the other is connected") {
            let (atA, atB) = (await syncA.peers[b], await syncB.peers[a])
            return atA != nil && atB != nil
        }
        try await eventually("A's summary on connecting went out") { summaries.value == 1 }
        return (syncA, syncB, summaries)
    }

    private func twoStores() throws -> (RecordStore, RecordStore) {
        (try RecordStore(path: dir + "/a.sqlite", me: a.hex), try RecordStore(path: dir + "/b.sqlite", me: b.hex))
    }

    /// A three-player game signed by A, B and a third node `c`.
    private func threeSignerRecord(seed: UInt64) throws -> (SignedRecord, NodeID) {
        let record = try TestSigners.signed(
            RecordFactory.playout(catalog: .standard, game: "spirits", players: 3, seed: seed, bot: "random"))
        return (record, NodeID(hex: TestSigners.node(3))!)
    }

    func testAGameThePeerSignedIsNotAnnouncedToIt() async throws {
        let (storeA, storeB, full, _, _) = try twoSignerRecord(seed: 12)
        let (syncA, syncB, summaries) = try await wiredCountingSummaries(storeA, storeB)
        try storeA.insert([full], source: .local)
        try storeB.insert([full], source: .local)
        await syncA.recordsAdded([full.game.id])
        // The announcement is due 1 s after: B signed the game and every signer is here, so it is left out.
        try await Task.sleep(for: .milliseconds(2_500))
        XCTAssertEqual(summaries.value, 1, "no summary to a peer that signed the only new record")
        syncA.finish()
        syncB.finish()
    }

    func testASignerLostAfterTheAnnouncementHasThePeersLeftOutTold() async throws {
        let (storeA, storeB) = try twoStores()
        let (three, c) = try threeSignerRecord(seed: 13)
        let (syncA, syncB, summaries) = try await wiredCountingSummaries(storeA, storeB)
        syncA.post(.connected(c))
        // B holds the record, but may lack c's signature: c could have sent it to A alone before it went.
        var withoutC = three
        withoutC.signatures.removeAll { $0.node == c.hex }
        try storeA.insert([three], source: .local)
        try storeB.insert([withoutC], source: .local)
        await syncA.recordsAdded([three.game.id])
        try await Task.sleep(for: .milliseconds(2_500))
        XCTAssertEqual(summaries.value, 1, "every signer here: B is left out")
        syncA.post(.lost(c))
        try await eventually("B is told once a signer is lost", within: 10) { summaries.value == 2 }
        try await eventually("B completes its copy from A", within: 10) {
            try storeB.verified([three.game.id]) == [three.game.id]
        }
        syncA.finish()
        syncB.finish()
    }

    func testAGameWithASignerNotConnectedIsAnnouncedAtOnce() async throws {
        let (storeA, storeB) = try twoStores()
        let (three, _) = try threeSignerRecord(seed: 14)
        let (syncA, syncB, summaries) = try await wiredCountingSummaries(storeA, storeB)
        try storeA.insert([three], source: .local)
        await syncA.recordsAdded([three.game.id])
        try await eventually("the summary goes out after the burst", within: 10) { summaries.value == 2 }
        try await eventually("B gets the record through it", within: 10) {
            try storeB.verified([three.game.id]) == [three.game.id]
        }
        syncA.finish()
        syncB.finish()
    }

    func testARecordStillWaitingForASignatureIsNotAnnounced() async throws {
        let (storeA, storeB, _, onlyA, _) = try twoSignerRecord(seed: 15)
        let (syncA, syncB, summaries) = try await wiredCountingSummaries(storeA, storeB)
        try storeA.insert([onlyA], source: .local)
        await syncA.recordsAdded([onlyA.game.id])
        try await Task.sleep(for: .milliseconds(2_500))
        XCTAssertEqual(summaries.value, 1, "a summary covers signed records only: nothing new to say")
        syncA.finish()
        syncB.finish()
    }
}
