import ArgumentParser
import Foundation
import TavoloCore
import TavoloSimulation

/// `tavolo simulate --chaos` (PROTOCOL.md §9.9–9.13 under fire).
extension Simulate {
    func runChaos(daemon: String, bot: String) throws {
        var options = ChaosSimulation.Options(
            peers: peers, game: game, games: games, seed: seed ?? UInt64.random(in: 0...UInt64.max), bot: bot,
            daemonPath: daemon)
        options.grace = grace
        options.onTestHosts = hosts
        options.sealed = sealed
        options.powerCut = powerCut
        let quiet = json
        let chaos = ChaosSimulation(options: options) { line in if !quiet { FileHandleStderr.write(line) } }
        SimulationSignals.install { chaos.stopAll() }
        let report: ChaosSimulation.Report
        do { report = try chaos.run() } catch { throw CleanExit.failure("chaos simulation failed: \(error)") }
        if json {
            try printJSON(report)
        } else {
            print(
                "chaos: \(report.peers) nodes \(report.network == "lo" ? "on this host" : "on test hosts"), \(report.game)\(report.sealed == true ? " sealed" : ""), \(report.bot) bots, seed \(report.seed), "
                    + "grace \(report.grace) s")
            for (i, g) in report.games.enumerated() {
                print(
                    "game \(i + 1): \(g.fault.rawValue)"
                        + (g.victim.map { " of \($0)" } ?? "") + (g.faultAtMove.map { " at move \($0)" } ?? "")
                        + (g.cutSeconds.map { " for \(String(format: "%.0f", $0)) s" } ?? "")
                        + ", \(counted(g.moves, "move")), \(g.outcomeText), "
                        + "\(g.agreed ? "agreed" : "DISAGREED")\(g.resumed ? ", resumed" : "")"
                        + "\(g.takenOver ? ", taken over" : ""), \(counted(g.movesLost, "move")) lost"
                        + (g.deck.map { ", \($0)" } ?? "")
                        + (g.problem.map { " (\($0))" } ?? ""))
            }
            print(
                "games played \(report.played), finished \(report.finished), "
                    + (report.abandoned.map { $0 > 0 ? "abandoned \($0), " : "" } ?? "") + "agreed \(report.agreed), "
                    + "resumed \(report.resumed), taken over \(report.takenOver), moves lost \(report.movesLost)")
        }
        if !report.ok { throw ExitCode(1) }
    }
}
