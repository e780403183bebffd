import Foundation
import TavoloControl
import TavoloCore
import TavoloRecordFormat
import TavoloTable
import XCTest

/// A leaver signs its forfeit (PROTOCOL.md §11.7): the game counts as lost for it on every node — the one it
/// played against and its own, which gets the record by sync — although it never signs the record.
extension LeaveIntegrationTests {
    func testALeaversSignedForfeitCountsAgainstItOnEveryNode() throws {
        let (id, watch) = try othello()
        watch.stop()
        let bob = try harness.status(1).id
        XCTAssertEqual(try tavolo(1, ["leave", id.rawValue]).status, 0)
        // Alice plays her seat to the end; the heir's bot plays bob's.
        try harness.eventually("the game ends", seconds: 120) {
            guard let state = try? client(0).call(.state(table: id)) else { return false }
            if state.info.phase == .finished { return true }
            if let move = state.legalMoves.first {
                _ = try? client(0).call(.move(table: id, move: move))
            }
            return false
        }
        for node in 0..<2 {
            try harness.eventually("node \(node) counts bob's loss", seconds: 60) {
                let board = try? client(node).call(.scores(game: "othello"))
                let line = board?.games.first?.humans.first { $0.node == bob }
                return line?.games == 1 && line?.wins == 0
            }
        }
        let history = try client(0).call(.history(game: nil, player: nil))
        XCTAssertEqual(history.first { $0.table == id.rawValue }?.forfeited?.map(\.node), [bob])
    }
}
