import TavoloCore
import TavoloProtocol
import XCTest

@testable import TavoloTable

/// PROTOCOL.md §9.3: the offer that seats a node, the start's offer and the other participants' commitments travel on
/// different links, and a loaded node may read them in any order. One that asked for a seat keeps a commitment that
/// comes before it knows it is seated; dropping it stopped the table with `seed/early-reveal` when the sender's
/// reveal came (seen once in a six-node simulation under load).
extension TableMachineTests {
    func testACommitmentThatOvertakesTheOfferSeatingThisNodeIsKept() throws {
        var mesh = Mesh(3)
        let (n0, n2) = (mesh[0], mesh[2])
        final class Held: @unchecked Sendable { var offers: [(NodeID, NodeID, TableMessage)] = [] }
        let held = Held()
        let info = try mesh.request(0) { $0.host(game: "spirits", players: 3) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .join(seat: 0, bot: "random")) }.get()
        _ = try mesh.request(1) { $0.request(info.id, .join(seat: 1, bot: "random")) }.get()
        // From here the host's offers to n2 (the one seating it, then the start) wait until n1 has committed.
        mesh.loses = { from, to, m in
            guard case .offer = m, from == n0, to == n2 else { return false }
            held.offers.append((from, to, m))
            return true
        }
        _ = try mesh.request(2) { $0.request(info.id, .join(seat: 2, bot: "random")) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .start) }.get()
        XCTAssertEqual(held.offers.count, 2, "the offer seating n2 and the start's")
        XCTAssertEqual(mesh.table(2, info.id)?.info.phase, .open, "n2 has seen neither")
        mesh.loses = nil
        for (from, to, m) in held.offers { mesh.queue.append((from, to, m)) }
        mesh.run()
        for i in 0..<3 {
            XCTAssertEqual(mesh.table(i, info.id)?.info.phase, .finished, "n\(i): \(mesh.events[mesh[i]] ?? [])")
        }
    }
}
