import Foundation
import TavoloSimulation
import TavoloTestSupport
import XCTest

/// `tavolo simulate --sealed`: the simulation's tables deal from a sealed deck (PROTOCOL.md §14) and its report
/// carries each game's audit verdict; a game with nothing hidden to seal is refused before any node starts.
final class SealedSimulationTests: DaemonTestCase {
    func simulate(_ args: [String]) throws -> ProcessOutput {
        let tavolo = harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = harness.root.path
        return try runProcess(tavolo, ["simulate"] + args, environment: env)
    }

    func testASealedSimulationReportsItsGamesVerifiedAndOthelloIsRefused() throws {
        let sim = try simulate(["--peers", "3", "--game", "briscola", "--games", "1", "--sealed", "--json"])
        XCTAssertEqual(sim.status, 0, "\(sim.stderr) \(sim.stdout)")
        let report = try JSONDecoder().decode(Simulation.Report.self, from: Data(sim.stdout.utf8))
        XCTAssertEqual(report.games.count, 1)
        XCTAssertEqual(report.allVerified, true)
        for g in report.games {
            XCTAssertTrue(g.agree, "\(g)")
            XCTAssertEqual(g.finalHashes.count, 3)
            XCTAssertEqual(g.sealed, "verified", "\(g)")
            XCTAssertNil(g.cheaters)
        }

        // Refused in one line before any node starts: Othello has no hidden cards.
        let refused = try simulate(["--peers", "2", "--game", "othello", "--games", "1", "--sealed"])
        XCTAssertNotEqual(refused.status, 0)
        let lines = refused.stderr.split(separator: "\n", omittingEmptySubsequences: true)
        XCTAssertEqual(lines.count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("othello") && refused.stderr.contains("seal"), refused.stderr)
        XCTAssertTrue(refused.stdout.isEmpty, refused.stdout)
    }
}
