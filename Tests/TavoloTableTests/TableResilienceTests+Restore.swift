import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloRecords
import TavoloTable
import TavoloTestSupport
import XCTest

/// Restoring a table from its log, and a seeding interrupted by a loss (the resilience tests, continued).
extension TableResilienceTests {
    /// A node restarted from its log rebuilds the table exactly and waits, paused, for the others.
    func testATableIsRestoredFromItsLog() throws {
        var mesh = Mesh(3)
        let id = try othello(&mesh, bot0: "random")
        let move = try legal(mesh, 2, id)
        _ = try mesh.request(2) { $0.request(id, .move(move)) }.get()
        let log = try XCTUnwrap(mesh.table(2, id)?.log)
        var fresh = TableDirectory(
            context: TableContext(me: mesh[2], myName: "n2", catalog: .standard),
            nonces: .reproducible(seed: 5, nodeIndex: 2))
        XCTAssertEqual(try fresh.restore(log).get(), id)
        let t = try XCTUnwrap(fresh.tables[id])
        XCTAssertEqual(t.info.phase, .paused)
        XCTAssertEqual(t.session?.stateHash, mesh.hash(2, id))
        XCTAssertEqual(t.session?.moveNumber, 3)
        var bad = log
        bad.moves[1].after = String(repeating: "0", count: 64)
        var other = TableDirectory(
            context: TableContext(me: mesh[2], myName: "n2", catalog: .standard),
            nonces: .reproducible(seed: 5, nodeIndex: 2))
        XCTAssertThrowsError(try other.restore(bad).get())
    }

    /// A participant lost while seeding: the host reopens the table without it (it may not sit there again), and
    /// a new start seeds with fresh nonces.
    func testSeedingInterruptedByALossReopensTheTable() throws {
        var mesh = Mesh(3)
        let info = try mesh.request(0) { $0.host(game: "spirits", players: 3) }.get()
        for i in 0..<3 { _ = try mesh.request(i) { $0.request(info.id, .join(seat: i, bot: "random")) }.get() }
        _ = try mesh.request(0, deliver: false) { $0.request(info.id, .start) }.get()
        mesh.isolate(2)
        mesh.run()
        for i in 0..<2 {
            let t = try XCTUnwrap(mesh.table(i, info.id))
            XCTAssertEqual(t.info.phase, .open, "node \(i)")
            XCTAssertNil(t.info.seats[2].owner)
            XCTAssertNil(t.jointSeed)
        }
        // The lost node asks for its seat again (its link is back): refused.
        var host = mesh.nodes[mesh[0]]!
        _ = host.received(.seatRequest(table: info.id, seat: 2, bot: nil), from: mesh[2])
        mesh.nodes[mesh[0]] = host
        XCTAssertNil(mesh.table(0, info.id)?.info.seats[2].owner)
        _ = try mesh.request(0) { $0.request(info.id, .fill(bot: "random")) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .start) }.get()
        for i in 0..<2 {
            let t = mesh.table(i, info.id)
            XCTAssertEqual(t?.info.phase, .finished, "node \(i): \(t?.stopReason.map { $0.reason } ?? "")")
        }
        XCTAssertEqual(mesh.hash(0, info.id), mesh.hash(1, info.id))
    }
}
