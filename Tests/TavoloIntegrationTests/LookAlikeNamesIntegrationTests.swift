import Foundation
import TavoloControl
import TavoloCore
import TavoloTable
import TavoloTestSupport
import XCTest

/// A node that takes a name like another's is shown with its id in every list of the CLI (PROTOCOL.md §4.1): the
/// table list, a table's state and the terminal table, as the page and `tavolo chat` already did (issue 30).
final class LookAlikeNamesIntegrationTests: DaemonTestCase {
    var tavolo: String { harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path }

    func testALookAlikeHostAndSeatCarryTheirIdsInTheTableListsAndThePlayScreen() throws {
        _ = try harness.start(1)
        let real = harness.name(0)
        // "-n0" and "-no" fold alike (a zero reads as an o, the dash is left out): a stranger's try at passing for
        // node 0. The node's last `--name` is the one it goes by.
        let fake = String(real.dropLast()) + "o"
        let faker = try harness.startNode(extraArguments: ["--name", fake])
        try harness.eventually("both nodes answer", seconds: 30) {
            (0...1).allSatisfy { (try? client($0).call(.status)) != nil }
        }
        let ids = try (0...1).map { try client($0).call(.status).id }
        try harness.eventually("node 0 sees \(fake) connected", seconds: 30) {
            (try? client(0).call(.peers))?.contains {
                $0.name == fake && $0.state == .connected
            } == true
        }
        let info = try client(faker).call(.host(game: "othello", players: 2))
        _ = try client(faker).call(.join(table: info.id, game: nil, seat: 0, bot: "random"))
        try harness.eventually("node 0 sees \(info.id)", seconds: 15) {
            (try? client(0).call(.tables).contains { $0.id == info.id }) == true
        }
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 1, bot: nil))
        let realShown = "\(real) (id \(ids[0].prefix(8)))"
        let fakeShown = "\(fake) (id \(ids[1].prefix(8)))"
        let control = ["--control", harness.nodes[0].controlPath]

        try harness.eventually("both seats taken in node 0's list", seconds: 15) {
            (try? runProcess(tavolo, ["list"] + control).stdout.contains("seat 1: \(realShown)")) == true
        }
        let list = try runProcess(tavolo, ["list"] + control)
        XCTAssertEqual(list.status, 0, list.combined)
        XCTAssertTrue(list.stdout.contains("host \(fakeShown), open"), list.stdout)
        XCTAssertTrue(list.stdout.contains("seat 0: bot (random) for \(fakeShown)\n"), list.stdout)

        _ = try client(faker).call(.start(table: info.id))
        try harness.eventually("the game started on node 0", seconds: 15) {
            (try? client(0).call(.state(table: info.id)).info.phase) == .playing
        }
        let state = try runProcess(tavolo, ["state", info.id.rawValue] + control)
        XCTAssertEqual(state.status, 0, state.combined)
        XCTAssertTrue(state.stdout.contains("host \(fakeShown), playing"), state.stdout)
        XCTAssertTrue(state.stdout.contains("seat 1: \(realShown)"), state.stdout)

        let term = try TmuxTerminal(
            socket: "tavolo-lookalike-\(harness.runID)",
            command: "\(tavolo) play \(info.id) \(control.joined(separator: " "))")
        _ = try term.waitFor("the seats on the play screen", seconds: 20) {
            $0.contains("(id \(ids[1].prefix(8)))") && $0.contains("(id \(ids[0].prefix(8)))")
        }
    }

    /// A name like no other's stays as it is: the id is there only when two names could be taken for each other.
    func testNamesLikeNoOtherAreNotMarked() throws {
        _ = try harness.start(1)
        try harness.eventually("node 0 answers", seconds: 30) {
            (try? client(0).call(.status)) != nil
        }
        let info = try client(0).call(.host(game: "othello", players: 2))
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 0, bot: nil))
        let list = try runProcess(tavolo, ["list", "--control", harness.nodes[0].controlPath])
        XCTAssertEqual(list.status, 0, list.combined)
        XCTAssertTrue(list.stdout.contains("host \(harness.name(0)), open"), list.stdout)
        XCTAssertTrue(list.stdout.contains("seat 0: \(harness.name(0))  ← yours"), list.stdout)
        XCTAssertFalse(list.stdout.contains("(id "), list.stdout)
    }
}
