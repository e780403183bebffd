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

    /// `--chaos --sealed`: a member killed and restarted, and one stopped within the grace, at sealed tables of four;
    /// every game ends agreed and "deck verified" at every node (PROTOCOL.md §14.12).
    func testChaosOnSealedTablesEndsEveryGameVerified() throws {
        let sim = try simulate([
            "--chaos", "--sealed", "--peers", "4", "--game", "briscola", "--bot", "random", "--games", "3", "--seed",
            "2",
            "--json",
        ])
        XCTAssertEqual(sim.status, 0, "\(sim.stderr) \(sim.stdout)")
        let report = try JSONDecoder().decode(ChaosSimulation.Report.self, from: Data(sim.stdout.utf8))
        XCTAssertEqual(report.sealed, true)
        XCTAssertEqual(report.games.map(\.fault), [.none, .killRestart, .stopWithinGrace])
        for g in report.games {
            XCTAssertTrue(g.finished && g.agreed, "\(g)")
            XCTAssertEqual(g.deck, "deck verified", "\(g)")
            XCTAssertEqual(g.movesLost, 0, "\(g)")
        }
        XCTAssertTrue(report.games[1].resumed, "the restarted member resumed its sealed game")
    }

    /// `--chaos --power-cut`: every node killed at once and started again at a sealed table; each goes on from its own
    /// journal, and every game ends agreed, "deck verified", each node's log beginning with what it held at the cut
    /// (PROTOCOL.md §14.12). Bots alone cannot tell the fix from the bug: before it the members began the game again
    /// from move 0 and their bots, deterministic, played the same moves again. A person's moves were lost:
    /// `SealedHeirIntegrationTests.testEveryMemberKilledTogetherResumesWithEveryMove` is the test that fails without it.
    func testAPowerCutAtASealedTableLosesNothing() throws {
        let sim = try simulate([
            "--chaos", "--power-cut", "--sealed", "--peers", "3", "--game", "briscola", "--bot", "random", "--games",
            "2", "--seed", "2", "--json",
        ])
        XCTAssertEqual(sim.status, 0, "\(sim.stderr) \(sim.stdout)")
        let report = try JSONDecoder().decode(ChaosSimulation.Report.self, from: Data(sim.stdout.utf8))
        XCTAssertEqual(report.games.map(\.fault), [.powerCut, .powerCut])
        for g in report.games {
            XCTAssertTrue(g.finished && g.agreed && g.resumed, "\(g)")
            XCTAssertEqual(g.deck, "deck verified", "\(g)")
            XCTAssertEqual(g.movesLost, 0, "\(g)")
        }
    }
}
