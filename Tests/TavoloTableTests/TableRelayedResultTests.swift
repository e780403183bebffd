import TavoloCore
import TavoloProtocol
import XCTest

@testable import TavoloTable

/// PROTOCOL.md §9.5, relayed results: a member that finished hands on the results it holds to a member that missed
/// one, which takes a relayed result only if it agrees with its own end, so a relayed result completes a table and
/// never stops one.
extension TableMachineTests {
    /// Three members play Spirits! to the end; n2's result never reaches n0, which waits for it.
    func tableMissingOneResult() throws -> (Mesh, TableID) {
        var mesh = Mesh(3)
        let (n0, n2) = (mesh[0], mesh[2])
        mesh.loses = { from, to, m in
            if case .result = m { return from == n2 && to == n0 }
            return false
        }
        let id = try seatedTable(&mesh, game: "spirits", bots: ["heuristic", "random", "heuristic"])
        _ = try mesh.request(0) { $0.request(id, .start) }.get()
        mesh.loses = nil
        XCTAssertEqual(mesh.table(1, id)?.info.phase, .finished)
        XCTAssertEqual(mesh.table(2, id)?.info.phase, .finished)
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .playing, "n0 waits for n2's result")
        return (mesh, id)
    }

    func testAFinishedMemberRelaysAResultAnotherMissed() throws {
        var (mesh, id) = try tableMissingOneResult()
        let s = try XCTUnwrap(mesh.table(0, id)?.session)
        // n0 syncs with n1 (its session came back): n1 answers with its result, then n2's.
        mesh.queue.append((mesh[0], mesh[1], .sync(table: id, moves: s.moveNumber, stateHash: s.stateHash)))
        mesh.run()
        let relayed = mesh.delivered.compactMap { d -> String? in
            guard case .result(_, _, _, _, let r?) = d.message else { return nil }
            return "\(d.from)→\(d.to): \(r.member)"
        }
        // Once for each sync n1 answers (n0's, then n0's answer to n1's own): a second copy is ignored.
        XCTAssertEqual(Set(relayed), ["\(mesh[1])→\(mesh[0]): \(mesh[2])"])
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .finished)
        XCTAssertEqual(mesh.table(0, id)?.log.finalHashes, mesh.table(1, id)?.log.finalHashes, "the same final hashes")
    }

    func testAFinishedMemberAnswersALateVoteWithTheMembersResult() throws {
        var (mesh, id) = try tableMissingOneResult()
        let s = try XCTUnwrap(mesh.table(0, id)?.session)
        mesh.queue.append((mesh[0], mesh[1], .takeover(table: id, member: mesh[2], number: s.moveNumber)))
        mesh.run()
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .finished)
        XCTAssertNil(mesh.table(0, id)?.log.takeovers, "a vote after the end logs nothing")
    }

    func testARelayedResultThatDisagreesNeitherCompletesNorStopsTheTable() throws {
        var (mesh, id) = try tableMissingOneResult()
        let s = try XCTUnwrap(mesh.table(0, id)?.session)
        let (n0, n1, n2) = (mesh[0], mesh[1], mesh[2])
        func relay(_ hash: StateHash, takeovers: Int, about member: NodeID, from: NodeID) {
            let m = TableMessage.result(
                table: id, winners: [], scores: [], finalHash: hash,
                relayed: ResultRelay(member: member, takeovers: takeovers))
            mesh.queue.append((from, n0, m))
            mesh.run()
        }
        relay(StateHash(bytes: [UInt8](repeating: 7, count: 32)), takeovers: 0, about: n2, from: n1)
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .playing, "another hash: dropped, the table not stopped")
        relay(s.stateHash, takeovers: 1, about: n2, from: n1)
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .playing, "another count of takeovers: dropped")
        var d = try XCTUnwrap(mesh.nodes[n0])
        let selfRelayed = TableMessage.result(
            table: id, winners: [], scores: [], finalHash: s.stateHash, relayed: ResultRelay(member: n2, takeovers: 0))
        XCTAssertEqual(refusals(d.received(selfRelayed, from: n2)), 1, "a member relaying its own result is refused")
        mesh.nodes[n0] = d
        relay(s.stateHash, takeovers: 0, about: n2, from: n1)
        XCTAssertEqual(mesh.table(0, id)?.info.phase, .finished)
    }
}
