/// A registered game, with its types erased so commands and tables can look it up by name.
public struct GameEntry: Sendable {
    public let name: String
    public let summary: String
    public let playerCounts: [Int]
    public let scoreName: String
    public let lowerScoreIsBetter: Bool
    /// Whether seats move at the same time (PROTOCOL.md §10).
    public let isSimultaneous: Bool
    /// Bot kinds with a one-line summary each, in the order they were registered.
    public let bots: [(kind: String, summary: String)]
    /// The bot kind used when none is named (the strongest).
    public let defaultBot: String
    /// Whether a table may deal it from a sealed deck (PROTOCOL.md §14): the game is a `SealedCardGame`.
    public var isSealable: Bool { newSealedSession != nil }

    private let runPlayout: @Sendable (PlayoutRequest, ((Int) -> Void)?) throws(PlayoutError) -> PlayoutReport
    private let runTranscript: @Sendable (Int, UInt64, [String]) throws(PlayoutError) -> [String]
    private let newSession: @Sendable (Int, UInt64) throws(GameSetupError) -> any GameSession
    private let newSealedSession: (@Sendable (Int, UInt64) throws(GameSetupError) -> any SealedGameSession)?
    private let runSelfTest: @Sendable (Int, Int, UInt64) -> GameSelfTestReport
    private let runPerft: @Sendable (Int, UInt64, Int) throws(GameSetupError) -> UInt64

    /// `fastPerft`, when the game has one, counts from the start position faster than walking `legalMoves`
    /// (it must give the same counts: a test checks it).
    public init<State: GameState>(
        _ type: State.Type, bots factories: [BotFactory<State>], defaultBot: String,
        fastPerft: (@Sendable (_ depth: Int) -> UInt64)? = nil
    ) {
        name = State.gameName
        summary = State.summary
        playerCounts = State.playerCounts
        scoreName = State.scoreName
        lowerScoreIsBetter = State.lowerScoreIsBetter
        isSimultaneous = State.isSimultaneous
        bots = factories.map { ($0.kind, $0.summary) }
        self.defaultBot = defaultBot
        let runner = PlayoutRunner<State>(factories: factories)
        runPlayout = { (request, progress) throws(PlayoutError) in try runner.run(request, progress: progress) }
        runTranscript = { (players, seed, bots) throws(PlayoutError) in
            try runner.transcriptLines(players: players, seed: seed, bots: bots)
        }
        newSession = { (players, seed) throws(GameSetupError) in
            try GameSessionBox<State>(players: players, seed: seed, factories: factories)
        }
        newSealedSession = Self.sealedSessionMaker(State.self, factories: factories)
        runPerft = { (players, seed, depth) throws(GameSetupError) in
            if let fastPerft { return fastPerft(depth) }
            return Perft.count(try State(players: players, seed: seed), depth: depth)
        }
        runSelfTest = { players, games, seed in
            var test = GameSelfTest<State>()
            test.deepCheckEvery = 5
            return test.run(players: players, games: games, firstSeed: seed)
        }
    }

    /// Perft from the start position of a game for `players` with `seed` (most games' start depends on it).
    public func perft(players: Int, seed: UInt64, depth: Int) throws(GameSetupError) -> UInt64 {
        try runPerft(players, seed, depth)
    }

    /// The generic random-simulation check (`GameSelfTest`) on this game: every registered game gets it.
    public func selfTest(players: Int, games: Int, firstSeed: UInt64 = 1) -> GameSelfTestReport {
        runSelfTest(players, games, firstSeed)
    }

    /// A new game of this kind, type-erased, for tables.
    public func session(players: Int, seed: UInt64) throws(GameSetupError) -> any GameSession {
        try newSession(players, seed)
    }

    /// A new game of this kind dealt from a sealed deck, type-erased, for sealed tables; nil when the game cannot be
    /// (it is not a `SealedCardGame`: a board game has no cards to seal).
    public func sealedSession(players: Int, seed: UInt64) throws(GameSetupError) -> (any SealedGameSession)? {
        try newSealedSession?(players, seed)
    }

    /// The sealed sessions' maker when `State` is a `SealedCardGame`. The conformance is known only at run time
    /// here, so the existential metatype is opened to call the generic maker with the game's own type.
    private static func sealedSessionMaker<State: GameState>(_ type: State.Type, factories: [BotFactory<State>])
        -> (@Sendable (Int, UInt64) throws(GameSetupError) -> any SealedGameSession)?
    {
        guard let sealed = type as? any SealedCardGame.Type else { return nil }
        return sealedSessionMaker(opening: sealed, factories: factories)
    }

    private static func sealedSessionMaker<Sealed: SealedCardGame, State: GameState>(
        opening: Sealed.Type, factories: [BotFactory<State>]
    ) -> (@Sendable (Int, UInt64) throws(GameSetupError) -> any SealedGameSession)? {
        // `Sealed` is `State` itself, so the cast always succeeds; it only tells the compiler.
        guard let sealedFactories = factories as Any as? [BotFactory<Sealed>] else { return nil }
        return { (players, seed) throws(GameSetupError) in
            try SealedGameSessionBox<Sealed>(players: players, seed: seed, factories: sealedFactories)
        }
    }

    /// Plays a batch of games with bots and no network.
    public func playout(_ request: PlayoutRequest, progress: ((Int) -> Void)? = nil) throws(PlayoutError)
        -> PlayoutReport
    {
        try runPlayout(request, progress)
    }

    /// One game, move by move, as lines for a person.
    public func transcript(players: Int, seed: UInt64, bots: [String]) throws(PlayoutError) -> [String] {
        try runTranscript(players, seed, bots)
    }
}

/// The games a node offers, by name.
public struct GameCatalog: Sendable {
    public let entries: [GameEntry]

    public init(_ entries: [GameEntry]) { self.entries = entries.sorted { $0.name < $1.name } }

    public subscript(name: String) -> GameEntry? { entries.first { $0.name == name } }

    public var names: [String] { entries.map(\.name) }
}
