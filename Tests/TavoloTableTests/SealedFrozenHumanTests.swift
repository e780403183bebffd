import TavoloCore
import TavoloProtocol
import TavoloSealed
import TavoloTable
import TavoloTestSupport
import XCTest

/// A sealed table's human seat cut off at its turn, its cards open (PROTOCOL.md §14.11): the others vote it out and the
/// heir's bot plays its cards; back, its node follows as a spectator to the same verified end. And a card move that
/// arrives without its opening waits for it (§14.7): `SealedHeirIntegrationTests`' stopped member, let go on, now and
/// then got the heir's move on a session that came up after the heir had sent the opening (the move waited for the
/// heir's journal), and stopped its copy with `sealed/wrong-card` naming itself.
final class SealedFrozenHumanTests: XCTestCase {
    func testAHumanSeatCutOffAtItsTurnIsVotedOutAndFollowsVerified() throws {
        for seed in UInt64(1)...4 {
            var net = InMemoryTableNetwork(nodes: 3, seed: seed, catalog: .standard)
            let id = try SealedTableTests.startSealed(&net, "briscola", bots: ["random", "random", nil])
            let turn = net.run { n in
                guard let st = n.state(2, id) else { return false }
                return st.turn == 2 && !st.legalMoves.isEmpty
            }
            XCTAssertTrue(turn, "seed \(seed)")
            net.partition([2])
            net.run { n in (0...1).allSatisfy { n.table($0, id)?.log.takeovers?.isEmpty == false } }
            net.run(limit: 200) { _ in false }
            net.healAll()
            net.run { n in (0..<3).allSatisfy { n.first($0, .finished) != nil || n.first($0, .stopped) != nil } }
            for i in 0..<3 {
                let stopped = net.first(i, .stopped).map { "\($0)" } ?? "none"
                if net.first(i, .finished) == nil { print(net.trace.tail(80).joined(separator: "\n")) }
                XCTAssertNotNil(net.first(i, .finished), "seed \(seed): n\(i) stopped: \(stopped)")
            }
        }
    }

    /// One opening from node 0 to node 2 never arrives (sent before their session came up, in the real case); its
    /// move does. Node 2 waits for it, and takes it from node 0's catch-up once their session comes back.
    func testACardMoveWithoutItsOpeningWaitsForIt() throws {
        final class Once: @unchecked Sendable { var dropped = false }
        for seed in UInt64(1)...3 {
            var net = InMemoryTableNetwork(nodes: 3, seed: seed, catalog: .standard)
            let once = Once()
            net.delivers = { m, from, to in
                guard from == 0, to == 2, !once.dropped, case .sealed(_, .open) = m else { return true }
                once.dropped = true
                return false
            }
            let id = try SealedTableTests.startSealed(&net, "briscola", bots: ["random", "random", "random"])
            net.run { _ in once.dropped }
            net.deliverAll()
            XCTAssertNil(net.first(2, .stopped), "seed \(seed): a move without its opening stopped node 2")
            net.reconnect(0, 2)
            net.run { n in (0..<3).allSatisfy { n.first($0, .finished) != nil || n.first($0, .stopped) != nil } }
            for i in 0..<3 {
                let stopped = net.first(i, .stopped).map { "\($0)" } ?? "none"
                XCTAssertEqual(net.first(i, .finished)?.result?.sealed, "verified", "seed \(seed): n\(i): \(stopped)")
            }
        }
    }
}
