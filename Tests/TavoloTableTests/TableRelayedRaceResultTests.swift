import TavoloCore
import TavoloProtocol
import XCTest

@testable import TavoloTable

/// PROTOCOL.md §9.5 in a race: a finished member relays a member's finishing order just before its result, since the
/// ranking counts every member's order; the receiver takes the two together or neither.
extension TableRaceTests {
    /// Three racers; n2's order and result never reach n0, which waits for them once it has finished racing.
    func raceMissingOneResult() throws -> (Mesh, TableID) {
        var mesh = Mesh(3)
        let (n0, n2) = (mesh[0], mesh[2])
        mesh.loses = { from, to, m in
            switch m {
            case .result, .raceOrder: return from == n2 && to == n0
            default: return false
            }
        }
        let id = try seatedTable(&mesh, game: "fifteen", bots: ["reduce", "reduce", "reduce"])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        for _ in 0..<2_000 where mesh.table(1, id)?.info.phase == .playing {
            for i in 0..<3 { fire(&mesh, id, node: i, seats: [i]) }
            fire(&mesh, id, node: 2, seats: [2])
        }
        mesh.loses = nil
        XCTAssertEqual(mesh.table(1, id)?.info.phase, .finished)
        XCTAssertEqual(mesh.table(2, id)?.info.phase, .finished)
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .playing, "n0 waits for n2's order and result")
        return (mesh, id)
    }

    func testAFinishedRacerAnswersALateVoteWithTheMembersOrderThenItsResult() throws {
        var (mesh, id) = try raceMissingOneResult()
        let (n0, n1, n2) = (mesh[0], mesh[1], mesh[2])
        let moves = try XCTUnwrap(mesh.table(0, id)?.session?.moveNumber)
        mesh.queue.append((n0, n1, .takeover(table: id, member: n2, number: moves)))
        mesh.run()
        let relayed = mesh.delivered.compactMap { d -> String? in
            switch d.message {
            case .raceOrder(_, _, let member?): "\(d.from)→\(d.to): order of \(member)"
            case .result(_, _, _, _, let r?): "\(d.from)→\(d.to): result of \(r.member)"
            default: nil
            }
        }
        XCTAssertEqual(relayed, ["\(n1)→\(n0): order of \(n2)", "\(n1)→\(n0): result of \(n2)"])
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .finished)
        XCTAssertNil(mesh.table(0, id)?.log.takeovers, "a vote after the end logs nothing")
        XCTAssertEqual(mesh.table(0, id)?.log.raceVotes, mesh.table(1, id)?.log.raceVotes, "the same votes")
        XCTAssertEqual(mesh.table(0, id)?.log.ranking, mesh.table(1, id)?.log.ranking, "the same ranking")
    }

    func testARelayedRaceResultWithoutAnOrderIsNotTaken() throws {
        var (mesh, id) = try raceMissingOneResult()
        let (n0, n1, n2) = (mesh[0], mesh[1], mesh[2])
        let hash = try XCTUnwrap(mesh.table(0, id)?.session?.stateHash)
        let result = TableMessage.result(
            table: id, winners: [], scores: [], finalHash: hash, relayed: ResultRelay(member: n2, takeovers: 0))
        mesh.queue.append((n1, n0, result))
        mesh.run()
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .playing, "no order of n2's: the result waits for its word")
        // A relayed order about the relayer itself is refused.
        var d = try XCTUnwrap(mesh.nodes[n0])
        let selfRelayed = TableMessage.raceOrder(table: id, order: [2, 0, 1], member: n2)
        let refused = d.received(selfRelayed, from: n2).filter { if case .refused = $0 { true } else { false } }
        XCTAssertEqual(refused.count, 1, "a member relaying its own order is refused")
        mesh.nodes[n0] = d
        // The order, then the result again: both taken.
        let order = try XCTUnwrap(mesh.table(1, id)?.race.orders[n2])
        mesh.queue.append((n1, n0, .raceOrder(table: id, order: order, member: n2)))
        mesh.queue.append((n1, n0, result))
        mesh.run()
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .finished)
        XCTAssertEqual(mesh.table(0, id)?.log.ranking, mesh.table(1, id)?.log.ranking)
    }
}
