import ArgumentParser
import TavoloGames

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a game's rules (docs/rules/GAME.md, as the table's ? key shows them) and its bots.")

    @Argument(help: "The game: \(GameRules.games.joined(separator: ", ")).") var game: String

    func validate() throws {
        guard GameRules.text(for: game) != nil else {
            throw ValidationError("no rules for '\(game)'; games: \(GameRules.games.joined(separator: ", "))")
        }
    }

    func run() throws { print(GameRules.textWithBots(for: game) ?? "") }
}
