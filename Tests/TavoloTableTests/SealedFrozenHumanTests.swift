import TavoloCore
import TavoloProtocol
import TavoloSealed
import TavoloTable
import TavoloTestSupport
import XCTest

/// A sealed table's human seat cut off at its turn, its cards open (PROTOCOL.md §14.11): the others vote it out and the
/// heir's bot plays its cards; back, its node follows as a spectator to the same verified end. (Written while chasing
/// `SealedHeirIntegrationTests`' stopped member, whose copy now and then stops with `sealed/wrong-card` naming itself
/// after SIGCONT: a cut here is not a SIGSTOP, and this passes; the real-process case is not understood yet.)
final class SealedFrozenHumanTests: XCTestCase {
    func testAHumanSeatCutOffAtItsTurnIsVotedOutAndFollowsVerified() throws {
        for seed in UInt64(1)...4 {
            var net = InMemoryTableNetwork(nodes: 3, seed: seed, catalog: .standard)
            let id = try XCTUnwrap(try net.request(0) { $0.host(game: "briscola", players: 3, sealed: true) }?.get()).id
            net.deliverAll()
            for i in 0..<3 { XCTAssertNoThrow(try net.join(i, table: id, seat: i, bot: i == 2 ? nil : "random").get()) }
            net.deliverAll()
            XCTAssertNoThrow(try net.request(0, id, .start).get())
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
}
