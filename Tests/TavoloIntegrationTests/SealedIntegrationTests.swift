import Foundation
import TavoloControl
import TavoloCore
import TavoloTable
import TavoloTestSupport
import XCTest

/// Sealed tables (PROTOCOL.md §14) between real `tavolod` processes: the members shuffle and open every card over
/// the mesh, every node checks every card played, and each ends with the audit's verdict, "deck verified".
final class SealedIntegrationTests: DaemonTestCase {
    /// Hosts a sealed table of `game` on node 0 with one bot seat per node of `owners`, starts it, and returns each
    /// node's `finished` result.
    func playSealed(_ game: String, owners: [Int], bot: String) throws -> [TableResult] {
        let nodes = Array(Set(owners)).sorted()
        let watchers = try nodes.map {
            try TableIntegrationTests.Events(path: harness.nodes[$0].controlPath, kinds: [.finished, .stopped])
        }
        defer { watchers.forEach { $0.close() } }
        let info = try client(0).call(.host(game: game, players: owners.count, sealed: true))
        XCTAssertEqual(info.sealed, true)
        try eventuallySync("every node sees \(info.id)", within: 15) {
            try nodes.allSatisfy { n in try client(n).call(.tables).contains { $0.id == info.id } }
        }
        for (seat, node) in owners.enumerated() {
            _ = try client(node).call(.join(table: info.id, game: nil, seat: seat, bot: bot))
        }
        try eventuallySync("seats taken", within: 15) {
            try client(0).call(.tables).first { $0.id == info.id }?.freeSeats.isEmpty == true
        }
        _ = try client(0).call(.start(table: info.id))
        try eventuallySync("every node ends the sealed game", within: 120) {
            watchers.allSatisfy { w in w.all.contains { $0.kind == .finished || $0.kind == .stopped } }
        }
        return try watchers.map { w in
            let stopped = w.all.first { $0.kind == .stopped }.map { "\($0.code ?? "") \($0.message ?? "")" }
            return try XCTUnwrap(w.all.first { $0.kind == .finished }?.result, "stopped: \(stopped ?? "no")")
        }
    }

    func testSealedBriscolaAndSpiritsBetweenThreeNodesEndDeckVerified() throws {
        _ = try harness.start(3)
        try harness.eventually("full mesh of 3", seconds: 30) { harness.isFullMesh([0, 1, 2]) }
        for (game, owners, bot) in [("briscola", [0, 1, 2], "strong"), ("spirits", [0, 1, 2, 0], "heuristic")] {
            let results = try playSealed(game, owners: owners, bot: bot)
            XCTAssertEqual(results.count, 3)
            for r in results {
                XCTAssertEqual(r.sealed, "verified", "\(game): \(r)")
                XCTAssertNil(r.cheaters)
                XCTAssertEqual(r.finalHash, results[0].finalHash, "\(game): the nodes ended on different states")
            }
        }
    }
}
