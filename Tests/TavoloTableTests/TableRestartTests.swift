import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloRecords
import TavoloTable
import XCTest

/// A node killed and restarted from its journal (PROTOCOL.md §9.9, §9.11) where it crosses other features: a race
/// (§10.6), and a table whose other seats are all this node's own bots.
final class TableRestartTests: XCTestCase {
    typealias Mesh = TableResilienceTests.Mesh

    /// Fires every pending race-bot timer of node `i` once (one move per seat), delivering what follows.
    func fireRaceBots(_ mesh: inout Mesh, node i: Int) {
        let timers = mesh.timers[mesh[i], default: []].filter { if case .raceBot = $0 { true } else { false } }
        mesh.timers[mesh[i]]?.removeAll { if case .raceBot = $0 { true } else { false } }
        for timer in timers { mesh.fire(i, timer) }
    }

    /// Node `i` is killed (its links drop) and started again from the log it last persisted.
    func restart(_ mesh: inout Mesh, node i: Int, _ id: TableID) throws {
        let log = try XCTUnwrap(mesh.table(i, id)?.log)
        mesh.isolate(i)
        mesh.run()
        var fresh = TableDirectory(
            context: TableContext(me: mesh[i], myName: "n\(i)", catalog: .standard),
            nonces: .reproducible(seed: 9, nodeIndex: UInt64(i)))
        XCTAssertEqual(try fresh.restore(log).get(), id)
        mesh.timers[mesh[i]] = []
        mesh.events[mesh[i]] = []
        mesh.nodes[mesh[i]] = fresh
        mesh.apply(mesh[i], fresh.takeRestoredEffects())
        mesh.heal(i)
    }

    func finished(_ mesh: Mesh, _ i: Int) -> TableResult? {
        for e in mesh.events[mesh[i], default: []] { if case .finished(let r) = e.detail { return r } }
        return nil
    }

    func testARaceMoveIsJournaledBeforeItIsSent() throws {
        var mesh = Mesh(2)
        let info = try mesh.request(0) { $0.host(game: "fifteen", players: 2) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .join(seat: 0, bot: nil)) }.get()
        _ = try mesh.request(1) { $0.request(info.id, .join(seat: 1, bot: "reduce")) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .start) }.get()
        let move = try XCTUnwrap(mesh.table(0, info.id)?.session?.legalMoves(seat: 0).first?.json)
        var d = try XCTUnwrap(mesh.nodes[mesh[0]])
        let (result, effects) = d.request(info.id, .move(move))
        _ = try result.get()
        let persisted = try XCTUnwrap(
            effects.firstIndex { if case .persist(let log) = $0 { log.moves.count == 1 } else { false } })
        let sent = try XCTUnwrap(effects.firstIndex { if case .send(.raceMove, _) = $0 { true } else { false } })
        XCTAssertLessThan(persisted, sent, "the move is on disk before it leaves")
    }

    /// A racer killed mid-race restarts at its last journaled move of every seat, catches up on what it missed,
    /// and the race finishes with every node agreeing (the crossing of issue 28: it used to restore at move 0).
    func testARestartedRacerResumesAndTheRaceFinishes() throws {
        var mesh = Mesh(3)
        let info = try mesh.request(0) { $0.host(game: "fifteen", players: 3) }.get()
        for i in 0..<3 { _ = try mesh.request(i) { $0.request(info.id, .join(seat: i, bot: "reduce")) }.get() }
        _ = try mesh.request(0) { $0.request(info.id, .start) }.get()
        for _ in 0..<10 { for i in 0..<3 { fireRaceBots(&mesh, node: i) } }
        // Node 2's links go dead before anyone notices: its next moves are journaled, then lost on the wire.
        for j in 0..<2 {
            mesh.cut.insert([mesh[2], mesh[j]])
            mesh.cut.insert([mesh[j], mesh[2]])
        }
        for _ in 0..<3 { fireRaceBots(&mesh, node: 2) }
        XCTAssertEqual(mesh.table(0, info.id)?.raceNext(2), 10)
        try restart(&mesh, node: 2, info.id)
        let restored = try XCTUnwrap(mesh.table(2, info.id))
        XCTAssertEqual(restored.raceNext(2), 13, "restored at its own seat's last journaled move")
        // Its pause names the members as people know them, before any of them reconnects (not their node ids).
        let paused = mesh.events[mesh[2], default: []].compactMap { e -> [String]? in
            if case .paused(let members, _, _) = e.detail { members } else { nil }
        }
        XCTAssertTrue(paused.contains { Set($0).isSuperset(of: ["n0", "n1"]) }, "\(paused)")
        XCTAssertEqual(mesh.table(0, info.id)?.raceNext(2), 13, "the others caught up on the moves they lost")
        for _ in 0..<2_000 where (0..<3).contains(where: { mesh.table($0, info.id)?.info.phase.isActive == true }) {
            for i in 0..<3 { fireRaceBots(&mesh, node: i) }
        }
        let results = (0..<3).compactMap { finished(mesh, $0) }
        XCTAssertEqual(results.count, 3, "every node finished")
        XCTAssertEqual(Set(results.map(\.finalHash)).count, 1)
        XCTAssertEqual(Set(results.map(\.ranking)).count, 1)
        // Each seat's sequence is the same in every node's log.
        let sequences = (0..<3).map { i in
            (mesh.table(i, info.id)?.log.moves ?? []).sorted { ($0.seat, $0.number) < ($1.seat, $1.number) }
                .map { "\($0.seat).\($0.number).\($0.move.jsonText)" }
        }
        XCTAssertEqual(sequences[0], sequences[1])
        XCTAssertEqual(sequences[0], sequences[2])
        // Every node writes the same record of the race, and a peer's check accepts it (§11.1, §11.4).
        let records = try (0..<3).map { i in
            try XCTUnwrap(RecordedGame.from(XCTUnwrap(mesh.table(i, info.id)?.log), startedAt: nil, endedAt: 1))
        }
        XCTAssertEqual(Set(records.map(\.id)).count, 1)
        let body = try RecordVerifier(catalog: .standard).verify(id: records[0].id, body: records[0].body).get()
        XCTAssertEqual(body.ranking, results[0].ranking)
        XCTAssertEqual(body.winners, Array((results[0].ranking ?? []).prefix(1)))
        XCTAssertEqual(body.votes?.count, 3)
    }

    /// `tavolo host spirits --seat --bots --start`, then `kill -9` and a restart: with no other member to wait
    /// for, the table plays on at once (it used to stay paused for good, "paused:  lost").
    func testAnOwnBotOnlyTableResumesAfterARestart() throws {
        var mesh = Mesh(1)
        let info = try mesh.request(0) { $0.host(game: "spirits", players: 3) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .join(seat: 0, bot: nil)) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .fill(bot: "random")) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .start) }.get()
        let log = try XCTUnwrap(mesh.table(0, info.id)?.log)
        var fresh = TableDirectory(
            context: TableContext(me: mesh[0], myName: "n0", catalog: .standard),
            nonces: .reproducible(seed: 1, nodeIndex: 0))
        _ = try fresh.restore(log).get()
        let effects = fresh.takeRestoredEffects()
        XCTAssertEqual(fresh.tables[info.id]?.info.phase, .playing)
        XCTAssertTrue(effects.contains { if case .emit(let e) = $0, case .yourTurn = e.detail { true } else { false } })
        XCTAssertEqual(fresh.tables[info.id]?.session?.stateHash, mesh.table(0, info.id)?.session?.stateHash)
    }
}
