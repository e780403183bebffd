import Foundation
import Logging
import TavoloCore
import TavoloProtocol
import TavoloTestSupport
import XCTest

@testable import TavoloRecords

/// Two syncs wired to each other directly (no mesh): a game the peer has just played is not pushed to it at once
/// (it records the game itself), and is pushed once it is no longer fresh if the peer still lacks it.
final class RecordSyncTests: XCTestCase {
    var dir: String!
    // RecordFactory gives seat s the node id s + 1, which `TestSigners.signed` gives to test node s.
    let a = NodeID(hex: TestSigners.node(1))!
    let b = NodeID(hex: TestSigners.node(2))!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// `tap` sees every message, `tapA` those A sends, with the peer it sends each to (all go to B).
    func wire(
        _ storeA: RecordStore, _ storeB: RecordStore, freshness: Duration, pushesPerMinute: Int = 600,
        tap: (@Sendable (RecordMessage) -> Void)? = nil, tapA: (@Sendable (RecordMessage, NodeID) -> Void)? = nil
    ) -> (RecordSync, RecordSync) {
        var logger = Logger(label: "test.sync")
        logger.logLevel = .error
        let verifier = RecordVerifier(catalog: .standard)
        final class Ends: @unchecked Sendable { var a: RecordSync?; var b: RecordSync? }
        let ends = Ends()
        let (a, b) = (a, b)
        let syncA = RecordSync(
            store: storeA, verifier: verifier, signer: TestSigners.all[0], freshness: freshness, logger: logger
        ) { m, to in
            tap?(m)
            tapA?(m, to)
            if let bytes = try? CanonicalJSON.encode(m) { ends.b?.post(.message(bytes, from: a)) }
        }
        let syncB = RecordSync(
            store: storeB, verifier: verifier, signer: TestSigners.all[1], freshness: freshness,
            pushesPerMinute: pushesPerMinute, logger: logger
        ) { m, _ in
            tap?(m)
            if let bytes = try? CanonicalJSON.encode(m) { ends.a?.post(.message(bytes, from: b)) }
        }
        (ends.a, ends.b) = (syncA, syncB)
        // Each learns of the other before it handles anything, as the mesh's ordered events guarantee a node:
        // a summary from a peer not yet connected would be dropped.
        syncA.post(.connected(b))
        syncB.post(.connected(a))
        Task { await syncA.run() }
        Task { await syncB.run() }
        return (syncA, syncB)
    }

    func testAGameThePeerJustPlayedWaitsForItsFreshnessThenGoesIfStillLacking() async throws {
        let storeA = try RecordStore(path: dir + "/a.sqlite", me: a.hex)
        let storeB = try RecordStore(path: dir + "/b.sqlite", me: b.hex)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let old = try TestSigners.signed(
            RecordFactory.playout(catalog: .standard, game: "othello", players: 2, seed: 1, bot: "random")
        ).game
        let fresh = try TestSigners.signed(
            RecordFactory.playout(catalog: .standard, game: "othello", players: 2, seed: 2, bot: "random", endedAt: now)
        )
        .game
        try storeA.insert([try TestSigners.signed(old), try TestSigners.signed(fresh)], source: .local)
        // 5 s: room for a loaded machine between the record's end (`now`) and the first exchange.
        let (syncA, syncB) = wire(storeA, storeB, freshness: .seconds(5))
        try await eventually("b holds the old game") { try storeB.known([old.id]) == [old.id] }
        XCTAssertEqual(try storeB.known([fresh.id]), [], "the game b has just played is not pushed at once")
        // b never recorded it (it crashed, say): once it is no longer fresh, a asks again and sends it.
        try await eventually("b holds the fresh game after the freshness", within: 20) {
            try storeB.known([fresh.id]) == [fresh.id]
        }
        syncA.finish()
        syncB.finish()
    }

    func testAGameThePeerRecordsItselfNeverCrossesTheLink() async throws {
        let storeA = try RecordStore(path: dir + "/a.sqlite", me: a.hex)
        let storeB = try RecordStore(path: dir + "/b.sqlite", me: b.hex)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let fresh = try TestSigners.signed(
            RecordFactory.playout(catalog: .standard, game: "othello", players: 2, seed: 3, bot: "random", endedAt: now)
        )
        try storeA.insert([fresh], source: .local)
        let (syncA, syncB) = wire(storeA, storeB, freshness: .seconds(5))
        try await Task.sleep(for: .milliseconds(300))
        // b records the same game itself, as a member of its table does a moment after a.
        try storeB.insert([fresh], source: .local)
        await syncB.recordsAdded()
        // The scenario needs a's freshness to pass (the game would go after it, were b without it)...
        let freshFor = now + 5_000 - Int64(Date().timeIntervalSince1970 * 1000)
        if freshFor > 0 { try await Task.sleep(for: .milliseconds(freshFor)) }
        // ...and then the barrier: an old game a holds and b lacks, added now. Once b has it, a summary taken after
        // the freshness has been answered, and it carried only what b lacked.
        let marker = try TestSigners.signed(
            RecordFactory.playout(catalog: .standard, game: "othello", players: 2, seed: 4, bot: "random"))
        try storeA.insert([marker], source: .local)
        await syncA.recordsAdded()
        try await eventually("b holds the marker", within: 20) {
            try storeB.known([marker.game.id]) == [marker.game.id]
        }
        let sent = await syncA.stats.sent
        XCTAssertEqual(sent, 1, "the marker crossed the link, the game b recorded itself never did")
        syncA.finish()
        syncB.finish()
    }

    /// A record the peer refused is not offered to it again (it used to go every few seconds for as long as both
    /// ran). The barrier: a genuine record added after, which arrives; the refused one crossed the link once.
    func testARecordThePeerRefusedIsNotOfferedAgain() async throws {
        let storeA = try RecordStore(path: dir + "/a.sqlite", me: a.hex)
        let storeB = try RecordStore(path: dir + "/b.sqlite", me: b.hex)
        let genuine = try RecordFactory.playout(catalog: .standard, game: "othello", players: 2, seed: 5, bot: "greedy")
        var body = try genuine.decodedBody()
        body.winners = body.winners == [0] ? [1] : [0]
        let forgedSigned = try TestSigners.signed(
            RecordedGame(body: try CanonicalJSON.encode(body), startedAt: nil, endedAt: 1))
        let forged = forgedSigned.game
        try storeA.insert([forgedSigned], source: .local)
        let (syncA, syncB) = wire(storeA, storeB, freshness: .milliseconds(1))
        try await eventually("b refused the forged record") { await syncB.stats.refused == 1 }
        for seed in 6...7 {
            let signed = try TestSigners.signed(
                RecordFactory.playout(
                    catalog: .standard, game: "othello", players: 2, seed: UInt64(seed), bot: "random"))
            let next = signed.game
            try storeA.insert([signed], source: .local)
            await syncA.recordsAdded()
            try await eventually("b holds the genuine record of seed \(seed)") {
                try storeB.known([next.id]) == [next.id]
            }
        }
        let (sent, refused) = (await syncA.stats.sent, await syncB.stats.refused)
        XCTAssertEqual(sent, 3, "the forged record once, then the two genuine ones")
        XCTAssertEqual(refused, 1)
        XCTAssertEqual(try storeB.known([forged.id]), [])
        syncA.finish()
        syncB.finish()
    }

    /// A peer pushing more than its share a minute has the excess left unchecked and unstored (and told nothing
    /// refused, so an honest sender offers it again in the next minute).
    func testAPeersPushesAreBoundedPerMinute() async throws {
        let storeA = try RecordStore(path: dir + "/a.sqlite", me: a.hex)
        let storeB = try RecordStore(path: dir + "/b.sqlite", me: b.hex)
        let signed = try (10..<15).map {
            try TestSigners.signed(
                RecordFactory.playout(catalog: .standard, game: "othello", players: 2, seed: UInt64($0), bot: "random"))
        }
        let records = signed.map(\.game)
        try storeA.insert(signed, source: .local)
        let (syncA, syncB) = wire(storeA, storeB, freshness: .milliseconds(1), pushesPerMinute: 2)
        try await eventually("b put off the records over its share") { await syncB.stats.deferred == 3 }
        XCTAssertEqual(try storeB.known(records.map(\.id)).count, 2)
        let stats = await syncB.stats
        XCTAssertEqual(stats.accepted, 2)
        XCTAssertEqual(stats.refused, 0, "put off, not refused")
        syncA.finish()
        syncB.finish()
    }

    /// Two members of a game of people each write its record with its own signature: the one that ends second
    /// sends its signatures, the other adds them and answers with its own, and both hold the record signed.
    func testMembersExchangeTheirSignaturesAndBothRecordsCount() async throws {
        let storeA = try RecordStore(path: dir + "/a.sqlite", me: a.hex)
        let storeB = try RecordStore(path: dir + "/b.sqlite", me: b.hex)
        var body = try RecordFactory.playout(catalog: .standard, game: "othello", players: 2, seed: 8, bot: "greedy")
            .decodedBody()
        body.seats = body.seats.map { .init(seat: $0.seat, node: $0.node, name: $0.name, bot: nil) }
        let full = try TestSigners.signed(
            RecordedGame(body: try CanonicalJSON.encode(body), startedAt: nil, endedAt: 1))
        var onlyA = full
        onlyA.signatures = full.signatures.filter { $0.node == a.hex }
        var onlyB = full
        onlyB.signatures = full.signatures.filter { $0.node == b.hex }
        let (syncA, syncB) = wire(storeA, storeB, freshness: .seconds(30))
        try await eventually("b knows a is connected") { await syncB.peers[a] != nil }
        // Written once both are connected (what each holds on connecting is sent then: the next test).
        try storeA.insert([onlyA], source: .local)
        try storeB.insert([onlyB], source: .local)
        XCTAssertEqual(try storeA.verified([full.game.id]), [])
        await syncB.ownRecordStored(full.game.id, seatOwners: [a.hex])
        try await eventually("both hold the record with both signatures") {
            try storeA.verified([full.game.id]) == [full.game.id] && storeB.verified([full.game.id]) == [full.game.id]
        }
        XCTAssertEqual(try storeA.scores(game: "othello", catalog: .standard).games.first?.humans.count, 2)
        let sent = await syncA.stats.sent
        XCTAssertEqual(sent, 0, "no record crossed the link: only signatures")
        syncA.finish()
        syncB.finish()
    }

    /// Two nodes' bots played a game (every seat owner signs, bots' owners too: §11.7), and each wrote its record
    /// while the other was not connected (a crash, a dropped connection at the end): on connecting each sends the
    /// other its signature of the record still lacking the other's, and both hold it signed and count the bots.
    func testABotGameOfTwoNodesSignedApartCompletesOnConnecting() async throws {
        let storeA = try RecordStore(path: dir + "/a.sqlite", me: a.hex)
        let storeB = try RecordStore(path: dir + "/b.sqlite", me: b.hex)
        let full = try TestSigners.signed(
            RecordFactory.playout(catalog: .standard, game: "othello", players: 2, seed: 9, bot: "greedy"))
        XCTAssertEqual(RecordSignature.requiredSigners(of: full.body), [a.hex, b.hex], "both bots' owners")
        var onlyA = full
        onlyA.signatures = full.signatures.filter { $0.node == a.hex }
        var onlyB = full
        onlyB.signatures = full.signatures.filter { $0.node == b.hex }
        XCTAssertFalse(onlyA.isSigned, "one owner's signature does not complete a game of two nodes' bots")
        try storeA.insert([onlyA], source: .local)
        try storeB.insert([onlyB], source: .local)
        XCTAssertEqual(try storeA.awaitingSignature(of: b.hex, limit: 32), [full.game.id])
        XCTAssertEqual(try storeA.awaitingSignature(of: a.hex, limit: 32), [], "its own signature is held")
        let (syncA, syncB) = wire(storeA, storeB, freshness: .seconds(30))
        try await eventually("both hold the record with both signatures") {
            try storeA.verified([full.game.id]) == [full.game.id] && storeB.verified([full.game.id]) == [full.game.id]
        }
        for store in [storeA, storeB] {
            XCTAssertEqual(try store.scores(game: "othello", catalog: .standard).games.first?.bots.first?.games, 2)
            XCTAssertEqual(
                try store.awaitingSignature(of: a.hex, limit: 32) + store.awaitingSignature(of: b.hex, limit: 32), [])
        }
        let sent = await syncA.stats.sent + syncB.stats.sent
        XCTAssertEqual(sent, 0, "no record crossed the link: only signatures")
        syncA.finish()
        syncB.finish()
    }

    /// Both members write the record and send their signature at once: each message lacks the receiver's signature,
    /// but the receiver's own is already on its way on the same connection, so nobody answers (§11.3 step 7): two
    /// messages, not four.
    /// A's and B's stores, a two-player record both signed, and its copies with one signature each.
    func twoSignerRecord(seed: UInt64) throws -> (RecordStore, RecordStore, SignedRecord, SignedRecord, SignedRecord) {
        let storeA = try RecordStore(path: dir + "/a.sqlite", me: a.hex)
        let storeB = try RecordStore(path: dir + "/b.sqlite", me: b.hex)
        let full = try TestSigners.signed(
            RecordFactory.playout(catalog: .standard, game: "othello", players: 2, seed: seed, bot: "greedy"))
        var onlyA = full
        onlyA.signatures = full.signatures.filter { $0.node == a.hex }
        var onlyB = full
        onlyB.signatures = full.signatures.filter { $0.node == b.hex }
        return (storeA, storeB, full, onlyA, onlyB)
    }

    func testSignaturesSentAtOnceAreNotAnsweredAgain() async throws {
        let (storeA, storeB, full, onlyA, onlyB) = try twoSignerRecord(seed: 10)
        let count = MessageCounter()
        let (syncA, syncB) = wire(storeA, storeB, freshness: .seconds(30)) { m in
            if case .signatures = m { count.add() }
        }
        try await eventually("each knows the other is connected") {
            let (atA, atB) = (await syncA.peers[b], await syncB.peers[a])
            return atA != nil && atB != nil
        }
        try storeA.insert([onlyA], source: .local)
        try storeB.insert([onlyB], source: .local)
        await syncA.ownRecordStored(full.game.id, seatOwners: [b.hex])
        await syncB.ownRecordStored(full.game.id, seatOwners: [a.hex])
        try await eventually("both hold the record with both signatures") {
            try storeA.verified([full.game.id]) == [full.game.id] && storeB.verified([full.game.id]) == [full.game.id]
        }
        // An answer goes out in the handler that stores the signatures: once a call on each actor returns, that
        // handler is over, and any answer it sent is counted.
        _ = await syncA.stats
        _ = await syncB.stats
        XCTAssertEqual(count.value, 2, "one message of signatures each way, no answer")
        syncA.finish()
        syncB.finish()
    }

    /// At a game's end a member sends its own signature only, even when it holds another member's: that member
    /// sends its own itself (§11.3 step 7), and relaying it too doubled the bytes of a game's records.
    func testTheEndOfAGameSendsOnlyTheNodesOwnSignature() async throws {
        let (storeA, storeB, full, _, onlyB) = try twoSignerRecord(seed: 11)
        final class Signers: @unchecked Sendable {
            let lock = NSLock()
            var sent: [[String]] = []
        }
        let signers = Signers()
        let (syncA, syncB) = wire(storeA, storeB, freshness: .seconds(30)) { m in
            if case .signatures(_, let signatures) = m {
                signers.lock.withLock { signers.sent.append(signatures.map(\.node)) }
            }
        }
        try await eventually("each knows the other is connected") {
            let (atA, atB) = (await syncA.peers[b], await syncB.peers[a])
            return atA != nil && atB != nil
        }
        try storeA.insert([full], source: .local)
        try storeB.insert([onlyB], source: .local)
        await syncA.ownRecordStored(full.game.id, seatOwners: [b.hex])
        try await eventually("B holds the record with both signatures") {
            try storeB.verified([full.game.id]) == [full.game.id]
        }
        _ = await syncB.stats
        XCTAssertEqual(signers.lock.withLock { signers.sent }.first, [a.hex], "A's own signature, not B's back to it")
        syncA.finish()
        syncB.finish()
    }
}

/// A count shared by the syncs' send closures and the test.
final class MessageCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var value: Int { lock.withLock { n } }
}
