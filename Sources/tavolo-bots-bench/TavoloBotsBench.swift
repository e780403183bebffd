import ArgumentParser

/// Bot strength and speed for `scripts/bench othello-vs-grhino` (and the figures behind the bot levels): games
/// through the engines in one process, never through a daemon.
@main
struct TavoloBotsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tavolo-bots-bench",
        abstract: "Bot strength against outside engines and bot speed, through the game engines.",
        subcommands: [
            OthelloVsGRhino.self, OthelloSpeed.self, LevelsSpeed.self, FifteenSpeed.self, CardSearchMatch.self,
            OthelloTrainGames.self, OthelloFit.self, OthelloEvalMatch.self,
        ])
}
