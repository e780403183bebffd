import TavoloCore

extension GameCatalog {
    /// Every game this build of Tavolo offers.
    public static let standard = GameCatalog([
        GameEntry(SpiritsState.self, bots: [.spiritsRandom, .spiritsHeuristic], defaultBot: "heuristic"),
        GameEntry(BriscolaState.self, bots: BotFactory.briscolaBots, defaultBot: "strong"),
        GameEntry(
            OthelloState.self, bots: BotFactory.othelloBots, defaultBot: "alphabeta",
            fastPerft: { OthelloPerft.count(depth: $0) }),
        GameEntry(FifteenState4.self, bots: BotFactory.fifteenBots(Fifteen4.self), defaultBot: "solver"),
        GameEntry(FifteenState5.self, bots: BotFactory.fifteenBots(Fifteen5.self), defaultBot: "solver"),
        GameEntry(FifteenState6.self, bots: BotFactory.fifteenBots(Fifteen6.self), defaultBot: "solver"),
    ])
}

extension SpiritsState {
    /// Each round is a deal.
    public var dealNumber: Int { round }
    public var currentDeal: [UInt8]? { dealtDeck.map(\.rawValue) }
}

extension BriscolaState {
    /// Briscola is dealt once.
    public var dealNumber: Int { 1 }
    public var currentDeal: [UInt8]? { dealtDeck.map(\.id) }
}
