import TavoloCore
import TavoloProtocol
import TavoloTable
import XCTest

/// PROTOCOL.md §9.10, §10.6: a race's takeover vote names a total move count. Two voters can hold the same total with
/// different seats' moves (the leaver's last move reached one of them, a racer's newest move the other), so the votes
/// agree at once; the heir must not play the leaver's seat on from a move the other voter holds already. The syncs a
/// node sends when it pauses and when it agrees a takeover settle it (without both, the voters end on two logs).
extension TableResilienceTests {
    /// Node `i`'s bot at seat `i` slides once; what it sends stays in flight.
    func slide(_ mesh: inout Mesh, _ id: TableID, node i: Int) {
        var d = mesh.nodes[mesh[i]]!
        let effects = d.timerFired(.raceBot(id, seat: i))
        mesh.nodes[mesh[i]] = d
        mesh.apply(mesh[i], effects)
    }

    func testVotersWithOneTotalButAnotherSplitAgreeOnEverySeatsMoves() throws {
        for heirGetsTheLastMove in [false, true] {
            var mesh = Mesh(3)
            let info = try mesh.request(0) { $0.host(game: "fifteen", players: 3) }.get()
            let id = info.id
            for i in 0..<3 { _ = try mesh.request(i) { $0.request(id, .join(seat: i, bot: "reduce")) }.get() }
            _ = try mesh.request(0) { $0.request(id, .start) }.get()
            for _ in 0..<3 {
                for i in 0..<3 {
                    slide(&mesh, id, node: i)
                    mesh.run()
                }
            }
            let seed = try XCTUnwrap(mesh.table(0, id)?.jointSeed)
            let heir = try XCTUnwrap(HeirOrder.first(of: [mesh[0], mesh[1]], jointSeed: seed))
            let heirIndex = heir == mesh[0] ? 0 : 1
            let other = 1 - heirIndex
            // n2's last move reaches one voter only, then n2 is gone for good.
            let reaches = heirGetsTheLastMove ? heirIndex : other
            mesh.cut.insert([mesh[2], mesh[1 - reaches]])
            slide(&mesh, id, node: 2)
            mesh.run()
            // The voter that missed it slides once more; n2 is lost before that move is in.
            slide(&mesh, id, node: 1 - reaches)
            mesh.isolate(2)
            for i in 0..<2 {
                var d = mesh.nodes[mesh[i]]!
                let effects = d.timerFired(.grace(id, member: mesh[2]))
                mesh.nodes[mesh[i]] = d
                mesh.apply(mesh[i], effects)
            }
            XCTAssertEqual(
                mesh.table(0, id)?.session?.moveNumber, mesh.table(1, id)?.session?.moveNumber, "one total")
            XCTAssertNotEqual(mesh.table(0, id)?.raceNext(2), mesh.table(1, id)?.raceNext(2), "another split")
            mesh.run()
            XCTAssertEqual(
                (0..<3).map { mesh.table(0, id)?.raceNext($0) }, (0..<3).map { mesh.table(1, id)?.raceNext($0) },
                "the takeover agreed, both hold every seat's moves")
            // The race goes on to its end.
            for _ in 0..<400 where (0..<2).contains(where: { mesh.table($0, id)?.info.phase == .playing }) {
                for i in 0..<2 {
                    for seat in 0..<3 {
                        var d = mesh.nodes[mesh[i]]!
                        let effects = d.timerFired(.raceBot(id, seat: seat))
                        mesh.nodes[mesh[i]] = d
                        mesh.apply(mesh[i], effects)
                        mesh.run()
                    }
                }
            }
            let label = heirGetsTheLastMove ? "the heir held the leaver's last move" : "the other voter held it"
            for i in 0..<2 {
                let t = try XCTUnwrap(mesh.table(i, id))
                XCTAssertEqual(t.info.phase, .finished, "\(label): n\(i) \(t.stopReason.map { $0.reason } ?? "")")
                XCTAssertEqual(t.log.takeovers?.map(\.seats), [[2]], label)
            }
            XCTAssertEqual(mesh.hash(0, id), mesh.hash(1, id), label)
            XCTAssertEqual(
                mesh.table(0, id)?.log.moves.filter { $0.seat == 2 }.map(\.move),
                mesh.table(1, id)?.log.moves.filter { $0.seat == 2 }.map(\.move), "\(label): seat 2's moves")
        }
    }
}
