import TavoloCore
import TavoloRecordFormat
import TavoloRecords
import TavoloSealed
import TavoloTable
import TavoloTestSupport
import XCTest

/// A sealed game's record (PROTOCOL.md §14.12): every member writes the same body, with every secret and each deal's
/// deck hash; a receiver deals it again from the secrets and accepts it, and refuses one whose secrets, deck hashes,
/// moves or named cheaters were changed.
final class SealedRecordTests: XCTestCase {
    let verifier = RecordVerifier(catalog: .standard)

    /// The record every node of a finished sealed game writes: one body for all.
    func records(_ net: InMemoryTableNetwork, _ id: TableID, nodes: [Int]) throws -> RecordedGame {
        let records = try nodes.map { i in
            try XCTUnwrap(RecordedGame.from(try XCTUnwrap(net.table(i, id)?.log), startedAt: nil, endedAt: 1), "n\(i)")
        }
        XCTAssertEqual(Set(records.map(\.id)).count, 1, "every member writes the same record")
        return records[0]
    }

    func body(_ record: RecordedGame) throws -> RecordBody { try CanonicalJSON.decode(RecordBody.self, record.body) }

    func refused(_ b: RecordBody, _ why: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = try CanonicalJSON.encode(b)
        let result = verifier.verify(id: RecordedGame.id(of: bytes), body: bytes)
        guard case .failure(let refusal) = result else { return XCTFail("accepted: \(why)", file: file, line: line) }
        XCTAssertFalse(refusal.description.isEmpty, file: file, line: line)
    }

    func testASealedGamesRecordIsDealtAgainFromItsSecretsAndAccepted() throws {
        for (game, owners) in [("briscola", [0, 1, 2]), ("spirits", [0, 1, 0, 2]), ("briscola", [0, 1])] {
            let (net, id) = try SealedTableTests.playSealed(game, owners: owners, seed: 11)
            let record = try records(net, id, nodes: Array(Set(owners)).sorted())
            let b = try verifier.verify(id: record.id, body: record.body).get()
            XCTAssertEqual(b.sealed?.secrets.count, Set(owners).count, game)
            XCTAssertNil(b.cheaters, game)
            var changed = b
            changed.sealed?.secrets[0] = String(repeating: "1", count: 64)
            try refused(changed, "\(game): another secret")
            changed = b
            changed.sealed?.deckHashes[0] = String(repeating: "0", count: 64)
            try refused(changed, "\(game): another deck hash")
            changed = b
            changed.cheaters = [b.seats[0].node]
            try refused(changed, "\(game): a cheater the audit does not name")
            changed = b
            changed.moves.removeLast()
            try refused(changed, "\(game): a move left out")
            changed = b
            changed.sealed = nil
            try refused(changed, "\(game): dealt from the joint seed instead")
            changed = b
            changed.players = 0
            try refused(changed, "\(game): no players (a range of them would trap)")
        }
    }

    /// A member that fled with a card it could follow with is named by every node's audit: the record names it,
    /// a receiver's audit names it too, and a record that leaves it out is refused.
    func testTheRecordOfACheatedGameNamesTheCheater() throws {
        var net = InMemoryTableNetwork(nodes: 3, seed: 12, catalog: .standard, sealedCheats: [1: [.falseFlee]])
        let id = try XCTUnwrap(try net.request(0) { $0.host(game: "spirits", players: 3, sealed: true) }?.get()).id
        net.deliverAll()
        for i in 0..<3 { XCTAssertNoThrow(try net.join(i, table: id, seat: i, bot: "heuristic").get()) }
        net.deliverAll()
        XCTAssertNoThrow(try net.request(0, id, .start).get())
        net.run { n in (0..<3).allSatisfy { n.first($0, .finished) != nil || n.first($0, .stopped) != nil } }
        XCTAssertEqual(net.first(0, .finished)?.result?.cheaters, [net.nodes[1].name])
        // The liar trusts its own moves: its log names nobody, so its record differs; the honest ones agree.
        let record = try records(net, id, nodes: [0, 2])
        let b = try verifier.verify(id: record.id, body: record.body).get()
        XCTAssertEqual(b.cheaters, [net[1].hex])
        var changed = b
        changed.cheaters = nil
        try refused(changed, "the cheater left out")
    }

    /// A member lost and taken over: the record names the takeover, and its secret, recovered by the heir, is in it.
    func testTheRecordOfASealedGameWithAnHeirHoldsTheLeaversSecret() throws {
        var (net, id) = try SealedHeirTests.start("briscola", players: 4, seed: 21, moves: 6)
        net.kill(3)
        net.run { n in (0..<3).allSatisfy { n.first($0, .finished) != nil || n.first($0, .stopped) != nil } }
        let record = try records(net, id, nodes: [0, 1, 2])
        let b = try verifier.verify(id: record.id, body: record.body).get()
        XCTAssertEqual(b.sealed?.secrets.count, 4)
        XCTAssertEqual(b.takeovers?.count, 1)
    }
}

/// `tavolo log` of a sealed table (PROTOCOL.md §14.12): from a capture holding the audit, the game is dealt again
/// from the secrets and every captured hash is checked; a changed move is found.
final class SealedCaptureReplayTests: XCTestCase {
    func capture(_ game: String, owners: [Int], seed: UInt64) throws -> ([TableReplay.Captured], TableResult) {
        var net = InMemoryTableNetwork(nodes: (owners.max() ?? 0) + 1, seed: seed, catalog: .standard)
        net.capturing = true
        let id = try XCTUnwrap(try net.request(0) { $0.host(game: game, players: owners.count, sealed: true) }?.get())
            .id
        net.deliverAll()
        for (seat, node) in owners.enumerated() {
            XCTAssertNoThrow(try net.join(node, table: id, seat: seat, bot: "random").get())
            net.deliverAll()
        }
        XCTAssertNoThrow(try net.request(0, id, .start).get())
        net.run { n in (0...(owners.max() ?? 0)).allSatisfy { n.first($0, .finished) != nil } }
        let result = try XCTUnwrap(net.first(0, .finished)?.result)
        let captured = net.captured.enumerated().map { TableReplay.Captured(frame: $0, sender: $1.from, body: $1.body) }
        return (captured, result)
    }

    func testASealedGameIsCheckedFromACaptureHoldingItsAudit() throws {
        for (game, owners) in [("briscola", [0, 1, 2]), ("spirits", [0, 1, 0])] {
            let (captured, result) = try capture(game, owners: owners, seed: 4)
            let outcome = try XCTUnwrap(TableReplay(catalog: .standard).run(captured).first)
            XCTAssertNil(outcome.problem, game)
            XCTAssertNil(outcome.unverifiable, game)
            XCTAssertEqual(outcome.finalHash, result.finalHash, game)
            XCTAssertGreaterThan(outcome.hashesChecked, 10, game)
            // Without the audit nothing can be opened: said so, not a mismatch.
            let noAudit = captured.filter { c in
                guard case .sealed(_, .audit)? = try? TableMessage.decode(wire: c.body) else { return true }
                return false
            }
            let partial = try XCTUnwrap(TableReplay(catalog: .standard).run(noAudit).first)
            XCTAssertNil(partial.problem, game)
            XCTAssertNotNil(partial.unverifiable, game)
        }
    }

    func testAChangedMoveInTheCaptureIsFound() throws {
        let (captured, _) = try capture("briscola", owners: [0, 1, 2], seed: 6)
        // Move 5 as captured names the card move 6 played: a card its seat did not hold, or not then.
        let moves = captured.enumerated().compactMap { i, c -> (Int, TableMessage)? in
            guard let m = try? TableMessage.decode(wire: c.body), case .move = m else { return nil }
            return (i, m)
        }
        let sixth = try XCTUnwrap(moves.first { if case .move(_, 6, _, _, _) = $0.1 { true } else { false } })
        guard case .move(_, _, _, let otherCard, _) = sixth.1 else { return XCTFail() }
        var changed = captured
        for (i, m) in moves {
            guard case .move(let t, 5, let seat, _, let hash) = m else { continue }
            changed[i].body = try TableMessage.move(table: t, number: 5, seat: seat, move: otherCard, stateHash: hash)
                .wireBytes()
        }
        let outcome = try XCTUnwrap(TableReplay(catalog: .standard).run(changed).first)
        XCTAssertNotNil(outcome.problem)
    }
}
