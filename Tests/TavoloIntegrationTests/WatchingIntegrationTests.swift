import Foundation
import TavoloControl
import TavoloCore
import TavoloTable
import TavoloTestSupport
import XCTest

/// Someone else's table (issue 34): the node's view promised moves that never came and said "Nobody to play". No
/// move reaches a node away from a table (PROTOCOL.md §9.1): it is told so, in the same words everywhere.
final class WatchingIntegrationTests: DaemonTestCase {
    var tavolo: String { harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path }

    func testANodeAwayFromATableIsToldWhatReachesIt() throws {
        _ = try harness.start(2)
        try harness.eventually("two nodes connected", seconds: 30) { harness.isFullMesh([0, 1]) }
        let info = try client(0).call(.host(game: "othello", players: 2))
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 0, bot: nil))
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 1, bot: "greedy"))
        _ = try client(0).call(.start(table: info.id))

        var away = TableState(info: info)
        try harness.eventually("node 1 sees the game under way", seconds: 15) {
            away = (try? client(1).call(.state(table: info.id))) ?? away
            return away.info.phase == .playing
        }
        XCTAssertEqual(away.outsider, true)
        XCTAssertEqual(away.notices, [TableNotices.outsider])
        let member = try client(0).call(.state(table: info.id))
        XCTAssertNil(member.outsider, "the host is at its table")
        XCTAssertFalse(member.notices?.contains(TableNotices.outsider) ?? false)

        let shown = try runProcess(tavolo, ["state", info.id.rawValue, "--control", harness.nodes[1].controlPath])
        XCTAssertEqual(shown.status, 0, shown.combined)
        XCTAssertTrue(shown.stdout.contains(TableNotices.outsider), shown.stdout)
    }

    /// A table this node's bots play: a game that hides nothing is drawn for its user (the moves as they come); a
    /// game with hands is not, since no seat's hand is the user's to see.
    func testATableOfTheNodesBotsIsDrawnOnlyWhenItHidesNothing() throws {
        _ = try harness.start(1)
        try harness.eventually("the node answers", seconds: 30) {
            (try? client(0).call(.status)) != nil
        }
        for (game, players, shown) in [("othello", 2, true), ("fifteen", 2, true), ("spirits", 3, false)] {
            let info = try client(0).call(.host(game: game, players: players))
            for seat in 0..<players {
                _ = try client(0).call(.join(table: info.id, game: nil, seat: seat, bot: "random"))
            }
            _ = try client(0).call(.start(table: info.id))
            var state = TableState(info: info)
            try harness.eventually("\(game): a move played", seconds: 30) {
                state = (try? client(0).call(.state(table: info.id))) ?? state
                return (state.moveNumber ?? 0) > 0
            }
            XCTAssertEqual(state.mySeats, [], game)
            XCTAssertEqual(
                state.publicObservation != nil, shown, "\(game): \(String(describing: state.publicObservation))")
        }
    }
}
