import TavoloCore
import TavoloTable
import TavoloTestSupport
import XCTest

/// What a client is shown of a sealed table (PROTOCOL.md §14.7): until a seat's cards are open here, the game holds
/// the seed's order in their place, which is no hand the seat holds. A restarted member's page showed that hand, and
/// offered its cards as moves, until the openings came (`SealedRestartIntegrationTests` found it, now and then).
final class SealedViewTests: XCTestCase {
    func testASeatsCardsAreShownOnlyOnceOpenAndTheClientIsToldWhenTheyAre() throws {
        for seed in UInt64(1)...4 {
            var net = InMemoryTableNetwork(nodes: 2, seed: seed, catalog: .standard)
            let id = try SealedTableTests.startSealed(&net, "briscola", bots: ["random", nil])
            // Every hand node 1's clients could see before its seat first plays (none of its cards moves before), and
            // whether each step that first showed one told the clients.
            var hands: Set<JSONValue> = []
            var shownBefore = false
            var toldWhenShown = true
            var events = net.nodes[1].events.count
            let reached = net.run { n in
                guard let st = n.state(1, id) else { return false }
                let obs = st.observations.first
                if case .object(let fields) = obs, let hand = fields["hand"] { hands.insert(hand) }
                if obs != nil && !shownBefore { toldWhenShown = n.nodes[1].events.count > events }
                (shownBefore, events) = (obs != nil, n.nodes[1].events.count)
                return !st.legalMoves.isEmpty
            }
            XCTAssertTrue(reached, "seed \(seed): node 1's turn never came")
            XCTAssertEqual(
                hands.count, 1, "seed \(seed): the seat was shown more than one hand before it played: \(hands)")
            XCTAssertTrue(toldWhenShown, "seed \(seed): the cards opened and no event told the clients")
            let st = try XCTUnwrap(net.state(1, id))
            guard case .object(let fields) = st.observations.first, case .array(let hand)? = fields["hand"] else {
                return XCTFail("seed \(seed): no hand in \(String(describing: st.observations.first))")
            }
            let offered = st.legalMoves.compactMap { m -> JSONValue? in
                guard case .object(let move) = m else { return nil }
                return move["card"]
            }
            XCTAssertEqual(Set(offered), Set(hand), "seed \(seed): the moves offered are the hand shown")
        }
    }
}
