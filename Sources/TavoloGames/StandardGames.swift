import TavoloCore

extension GameCatalog {
    /// Every game this build of Tavolo offers.
    public static let standard = GameCatalog([
        GameEntry(SpiritsState.self, bots: [.spiritsRandom, .spiritsHeuristic], defaultBot: "heuristic")
    ])
}
