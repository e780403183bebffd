import ArgumentParser
import Foundation
import TavoloCore
import TavoloGames

/// The thinking time of every level of every game: seeded playouts with every seat at one level, CPU time per
/// move (a Fifteen bot plans its whole solution on its first move, so there the figure is per solve).
struct LevelsSpeed: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "levels-speed", abstract: "CPU time per move of each level of each game, from seeded playouts.")

    @Option(help: "Games per game and level (Othello's hard and expert: see othello-speed).")
    var games = 4

    func run() throws {
        say("levels: CPU per move, \(games) seeded games per game and level, every seat the same level")
        for entry in GameCatalog.standard.entries {
            for level in BotLevel.allCases {
                if entry.name == "othello" && [.hard, .expert].contains(level) { continue }
                let players = entry.playerCounts.contains(2) ? 2 : entry.playerCounts[0]
                let request = PlayoutRequest(
                    players: players, games: games, seed: 1, bots: Array(repeating: level.rawValue, count: players))
                let start = threadCPUSeconds()
                let report = try entry.playout(request)
                let cpu = threadCPUSeconds() - start
                let perMove = cpu / Double(max(1, report.totalMoves))
                let perGame = cpu / Double(max(1, report.games))
                say(
                    "  " + entry.name.padding(toLength: 9, withPad: " ", startingAt: 0)
                        + level.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                        + String(
                            format: " %9.3f ms/move  %9.1f ms/game  (%d moves)", 1000 * perMove, 1000 * perGame,
                            report.totalMoves))
            }
        }
    }
}
