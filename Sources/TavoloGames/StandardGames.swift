import TavoloCore

extension GameCatalog {
    /// Every game this build of Tavolo offers.
    public static let standard = GameCatalog([
        GameEntry(
            SpiritsState.self, bots: [.spiritsRandom, .spiritsHeuristic, .spiritsSearch] + BotFactory.spiritsLevels,
            defaultBot: "heuristic"),
        GameEntry(BriscolaState.self, bots: BotFactory.briscolaLevels(BotFactory.briscolaBots), defaultBot: "strong"),
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

extension BotFactory where State == BriscolaState {
    /// The levels (`BotLevel`) on top of Briscola's own bots, each mapped to one of them by kind.
    public static func briscolaLevels(_ bots: [BotFactory<BriscolaState>]) -> [BotFactory<BriscolaState>] {
        func bot(_ kind: String) -> BotFactory<BriscolaState> { bots.first { $0.kind == kind } ?? .random }
        let levels: [BotFactory<BriscolaState>] = [
            bot("random").level(.easy, summary: "random: any card of the hand (instant)"),
            bot("emulator").level(.medium, summary: "emulator: the seed's priority list, no look-ahead (instant)"),
            .withMistakes(
                bot("strong"), percent: 15, level: .hard,
                summary: "the strong bot, but one card in seven at random (~1 ms)"),
            bot("search").level(
                .expert,
                summary:
                    "search: the strong bot with sixteen times the samples of the hidden cards, and an exact ending over every hand the opponent may hold once two draws are left (2 players; ~25 ms, at most ~0.1 s)"
            ),
        ]
        // Another helper may register its own levels for Briscola: its kinds win.
        return bots + levels.filter { level in !bots.contains { $0.kind == level.kind } }
    }
}
