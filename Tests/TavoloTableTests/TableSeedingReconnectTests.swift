import TavoloCore
import TavoloTable
import TavoloTestSupport
import XCTest

/// Seeding on a network whose sessions break and come back (PROTOCOL.md §9.3). A message is not sent while no
/// session is up, and one in a session that broke is lost, so a member can miss another's commitment and then get
/// its reveal on the next session: the table stopped, "… revealed before committing" (ten tables at once on sixteen
/// test hosts, `LanScaleTests`, now and then under load).
final class TableSeedingReconnectTests: XCTestCase {
    /// Two members' session breaks as the table starts and comes back once both have committed: each sends the
    /// other its commitment again, then its reveal, and the table seeds and plays to the end at every node.
    func testASessionThatBreaksWhileSeedingGetsTheRoundAgain() throws {
        for seed in UInt64(1)...6 {
            var net = InMemoryTableNetwork(nodes: 3, seed: seed, catalog: .standard)
            let info = try net.host(0, game: "spirits", players: 3).get()
            net.run { $0.list(1).count == 1 && $0.list(2).count == 1 }
            for i in 0..<3 { try net.join(i, table: info.id, seat: i, bot: "random").get() }
            net.run { $0.table(0, info.id)?.info.freeSeats.isEmpty == true }
            net.cut(1, 2)
            try net.request(0, info.id, .start).get()
            // The host holds every commitment; the two cut apart lack each other's, and so cannot reveal.
            XCTAssertTrue(net.run { $0.table(0, info.id)?.commitments.count == 3 }, "seed \(seed): no commitments")
            XCTAssertNil(net.table(1, info.id)?.jointSeed)
            net.heal(1, 2)
            let ended = net.run { n in (0..<3).allSatisfy { n.table($0, info.id)?.info.phase.isOver == true } }
            XCTAssertTrue(ended, "seed \(seed): the game never ended")
            for i in 0..<3 {
                let t = net.table(i, info.id)
                XCTAssertEqual(
                    t?.info.phase, .finished, "seed \(seed), n\(i): \(t?.stopReason.map { $0.reason } ?? "not over")")
            }
            XCTAssertEqual(net.table(1, info.id)?.session?.stateHash, net.table(2, info.id)?.session?.stateHash)
        }
    }
}
