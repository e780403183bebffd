import TavoloCore
import TavoloProtocol
import XCTest

@testable import TavoloTable

/// PROTOCOL.md §10.6: a race's forfeit names the leaver's count of every seat's moves, and its seats pass only once a
/// member holds that many of every seat; a total reached with other seats' moves is not enough.
extension TableRaceTests {
    func testARaceForfeitPassesOnlyOnceEverySeatsMovesAreIn() throws {
        var mesh = Mesh(3)
        let id = try seatedTable(&mesh, game: "fifteen", bots: ["reduce", "reduce", "reduce"])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        for i in 0..<3 { fire(&mesh, id, node: i, seats: [i]) }
        let machine = try XCTUnwrap(mesh.table(0, id))
        XCTAssertEqual((0..<3).map(machine.raceNext), [1, 1, 1])
        // n2 says it left holding two moves of its own seat: n0 has one, though it has three moves in all.
        var d = try XCTUnwrap(mesh.nodes[mesh[0]])
        _ = d.received(.forfeit(table: id, number: 3, seatMoves: [0, 1, 2]), from: mesh[2])
        mesh.nodes[mesh[0]] = d
        XCTAssertEqual(mesh.table(0, id)?.replaced, [mesh[2]], "agreed at once: the leaver's own decision")
        XCTAssertNil(mesh.table(0, id)?.log.takeovers, "not passed: seat 2's second move is not in yet")
    }

    func testARaceForfeitWhoseCountsDoNotAddUpIsRefused() throws {
        var mesh = Mesh(3)
        let id = try seatedTable(&mesh, game: "fifteen", bots: ["reduce", "reduce", "reduce"])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        var d = try XCTUnwrap(mesh.nodes[mesh[0]])
        let refused = [[1, 1, 2], [3], [-1, 2, 2]].map { counts in
            d.received(.forfeit(table: id, number: 3, seatMoves: counts), from: mesh[2]).filter {
                if case .refused = $0 { true } else { false }
            }.count
        }
        XCTAssertEqual(refused, [1, 1, 1])
        XCTAssertEqual(d.tables[id]?.replaced, [])
    }
}
