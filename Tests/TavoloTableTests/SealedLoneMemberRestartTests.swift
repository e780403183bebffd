import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// A node alone at its sealed table (its user and its bots: `tavolo host spirits --seat --bots --start`, sealed by
/// default) killed and started again (PROTOCOL.md §14.12). A restarted member begins its sealed game again with
/// nothing played and catches the moves up from the others; alone, it had nobody to catch up from: its bots played
/// the game again from move 0 and its user's moves were lost, the journal written over. It plays its journal's moves
/// again itself now, each card opened with its own share, the only one.
final class SealedLoneMemberRestartTests: XCTestCase {
    /// Plays the user's seat (its first legal move) until the game has `moves` moves or is over.
    func playUser(_ net: inout InMemoryTableNetwork, _ id: TableID, until moves: Int) throws {
        while let state = net.state(0, id), (state.moveNumber ?? 0) < moves, !state.info.phase.isOver {
            if let move = state.legalMoves.first {
                XCTAssertNoThrow(try net.request(0, id, .move(move)).get())
            }
            net.run { n in
                guard let s = n.state(0, id) else { return true }
                return !s.legalMoves.isEmpty || s.info.phase.isOver || (s.moveNumber ?? 0) >= moves
            }
        }
    }

    func testALoneMemberRestartedMidGameKeepsEveryMoveAndEndsVerified() throws {
        for (game, players) in [("spirits", 3), ("briscola", 2), ("briscola", 4)] {
            let label = "\(game) for \(players)"
            var net = InMemoryTableNetwork(nodes: 1, seed: UInt64(players), catalog: .standard)
            let hosted = net.request(0) { $0.host(game: game, players: players, sealed: true) }
            let id = try XCTUnwrap(try hosted?.get(), label).id
            XCTAssertNoThrow(try net.join(0, table: id, seat: 0, bot: nil).get(), label)
            for seat in 1..<players {
                XCTAssertNoThrow(try net.join(0, table: id, seat: seat, bot: "random").get(), label)
            }
            XCTAssertNoThrow(try net.request(0, id, .start).get(), label)
            net.deliverAll()
            try playUser(&net, id, until: 12)
            let before = try XCTUnwrap(net.state(0, id), label)
            let moves = try XCTUnwrap(net.table(0, id)?.log.moves, label)
            XCTAssertGreaterThanOrEqual(moves.count, 12, label)

            net.kill(0)
            XCTAssertEqual(net.restart(0), [id], "\(label): the table was not restored")
            net.run { n in (n.state(0, id)?.moveNumber ?? 0) >= moves.count || n.first(0, .stopped) != nil }
            let after = try XCTUnwrap(net.state(0, id), label)
            XCTAssertEqual(after.moveNumber, before.moveNumber, "\(label): moves lost in the restart")
            XCTAssertEqual(after.stateHash, before.stateHash, "\(label): another state after the restart")
            XCTAssertEqual(
                net.table(0, id)?.log.moves.map(\.after), moves.map(\.after), "\(label): the journal's moves changed")

            try playUser(&net, id, until: .max)
            let stopped = net.first(0, .stopped).map { "\($0)" } ?? "none"
            let result = try XCTUnwrap(net.first(0, .finished)?.result, "\(label): not finished; stopped \(stopped)")
            XCTAssertEqual(result.sealed, "verified", label)
        }
    }
}
