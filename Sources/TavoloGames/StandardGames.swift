import TavoloCore

extension GameCatalog {
    /// Every game this build of Tavolo offers.
    public static let standard = GameCatalog([
        GameEntry(SpiritsState.self, bots: [.spiritsRandom, .spiritsHeuristic], defaultBot: "heuristic"),
        GameEntry(BriscolaState.self, bots: BotFactory.briscolaBots, defaultBot: "strong"),
        GameEntry(OthelloState.self, bots: BotFactory.othelloBots, defaultBot: "alphabeta"),
    ])
}
