import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// A node votes only while a majority of the members is present at it (PROTOCOL.md §9.12). Every node cut apart past
/// the grace used to vote all the others out; healed, the votes could meet in orders that differ from node to node,
/// and two majorities vote out two different members (the long runs of 2026-11-28 saw it). This checks the rule
/// itself: in this scenario the end states agreed without it too.
final class TableVoteMajorityTests: XCTestCase {
    /// Three members, every link cut past the grace, then healed at once: nobody votes while alone, and whatever the
    /// members vote once they meet again, every node logs the same takeovers and ends on the same state.
    func testEveryNodeCutApartPastTheGraceEndsAlikeEverywhere() throws {
        for seed in UInt64(1)...6 {
            var net = InMemoryTableNetwork(nodes: 3, seed: seed, catalog: .standard)
            let hosted = net.request(0) { $0.host(game: "briscola", players: 3, grace: 5) }
            let id = try XCTUnwrap(try hosted?.get()).id
            net.deliverAll()
            for i in 0..<3 { XCTAssertNoThrow(try net.join(i, table: id, seat: i, bot: "random").get()) }
            net.deliverAll()
            XCTAssertNoThrow(try net.request(0, id, .start).get())
            net.run { n in (n.table(0, id)?.session?.moveNumber ?? 0) >= 4 }
            net.cut(0, 1)
            net.cut(0, 2)
            net.cut(1, 2)
            // Past every node's grace for both others.
            net.run { n in n.now > 40_000 && n.pendingTimers(0).allSatisfy { !"\($0.timer)".contains("grace") } }
            for i in 0..<3 {
                XCTAssertEqual(net.table(i, id)?.log.ownVotes?.count ?? 0, 0, "seed \(seed): n\(i) voted alone")
            }
            net.healAll()
            net.run { n in (0..<3).allSatisfy { n.first($0, .finished) != nil || n.first($0, .stopped) != nil } }
            // A member voted out follows as a spectator; every node ends on the same state and the same takeovers.
            var hashes: Set<StateHash> = []
            var takeovers: Set<[NodeID]> = []
            for i in 0..<3 {
                let stopped = net.first(i, .stopped).map { "\($0)" } ?? "none"
                let result = try XCTUnwrap(
                    net.first(i, .finished)?.result, "seed \(seed): n\(i) did not finish: \(stopped)")
                hashes.insert(result.finalHash)
                takeovers.insert((net.table(i, id)?.log.takeovers ?? []).map(\.member))
            }
            XCTAssertEqual(hashes.count, 1, "seed \(seed): the nodes ended on different states")
            XCTAssertEqual(takeovers.count, 1, "seed \(seed): the nodes logged different takeovers: \(takeovers)")
        }
    }
}
