import TavoloCore
import TavoloProtocol
import TavoloTable
import XCTest

/// A member seated just before the start commits as soon as it sees the start, and its commitment can reach
/// another member before the host's offers that seat it (another link): kept, not dropped, or its reveal would
/// later look like one without a commitment and stop the table (seen in ten tables at once on the LAN testbed).
extension TableResilienceTests {
    func testACommitmentThatOvertakesTheOfferSeatingItsSenderIsKept() throws {
        var mesh = Mesh(3)
        let info = try mesh.request(0) { $0.host(game: "othello", players: 2) }.get()
        _ = try mesh.request(1) { $0.request(info.id, .join(seat: 0, bot: "random")) }.get()
        func deliver(_ pick: (NodeID, NodeID, TableMessage) -> Bool) -> Bool {
            guard let k = mesh.queue.firstIndex(where: { pick($0.from, $0.to, $0.message) }) else { return false }
            mesh.queue.insert(mesh.queue.remove(at: k), at: 0)
            mesh.step()
            return true
        }
        // n2 takes the other seat (the host gets its request, its offers wait) and the host starts.
        _ = mesh.request(2, deliver: false) { $0.request(info.id, .join(seat: 1, bot: "random")) }
        XCTAssertTrue(deliver { from, to, _ in from == mesh[2] && to == mesh[0] })
        _ = try mesh.request(0, deliver: false) { $0.request(info.id, .start) }.get()
        // Everything to and from the host and n2 first, so n2 is seated, sees the start and commits, while n1 still
        // has the offer from before n2 sat down.
        while deliver({ from, to, _ in to != mesh[1] }) {}
        XCTAssertFalse(mesh.table(1, info.id)?.info.participants.contains(mesh[2]) == true, "n1 does not know yet")
        // n2's commitment overtakes the host's offers to n1.
        XCTAssertTrue(
            deliver { from, to, m in
                if from == mesh[2], to == mesh[1], case .commit = m { return true }
                return false
            })
        mesh.run()
        for i in 0..<3 {
            let t = try XCTUnwrap(mesh.table(i, info.id))
            XCTAssertNil(t.stopReason, "node \(i): \(t.stopReason.map { $0.reason } ?? "")")
            XCTAssertEqual(t.info.phase, .finished, "node \(i)")
        }
    }
}
