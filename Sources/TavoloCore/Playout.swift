import Foundation

/// What to play with no network: `games` games of `players` seats, bot kinds per seat.
public struct PlayoutRequest: Sendable {
    public var players: Int
    public var games: Int
    /// Game `i` (from 0) is played with seed `seed &+ i`, so game 0 (and a single game) uses `seed` itself.
    public var seed: UInt64
    /// One bot kind per seat.
    public var bots: [String]

    public init(players: Int, games: Int, seed: UInt64, bots: [String]) {
        self.players = players
        self.games = games
        self.seed = seed
        self.bots = bots
    }

    public func gameSeed(_ index: Int) -> UInt64 { seed &+ UInt64(index) }
}

/// Results for one seat over a batch.
public struct SeatReport: Sendable, Equatable {
    public var seat: Int
    public var bot: String
    public var wins: Int
    public var meanScore: Double
}

/// Results for one bot kind over all the seats it held.
public struct BotKindReport: Sendable, Equatable {
    public var bot: String
    public var seats: Int
    public var wins: Int
    public var winRate: Double
    public var meanScore: Double
}

/// The summary of a batch of games played with no network.
public struct PlayoutReport: Sendable {
    public var game: String
    public var scoreName: String
    public var players: Int
    public var games: Int
    public var seed: UInt64
    /// SHA-256 over every game's final state hash, in game order.
    public var transcript: String
    public var elapsedSeconds: Double
    public var totalMoves: Int
    public var seats: [SeatReport]
    public var bots: [BotKindReport]
    public var draws: Int
    /// The final state hash when exactly one game was played.
    public var finalHash: StateHash?

    public var gamesPerSecond: Double { elapsedSeconds > 0 ? Double(games) / elapsedSeconds : 0 }
    public var movesPerSecond: Double { elapsedSeconds > 0 ? Double(totalMoves) / elapsedSeconds : 0 }
    public var movesPerGame: Double { games > 0 ? Double(totalMoves) / Double(games) : 0 }
}

/// Why a playout could not run or finish.
public enum PlayoutError: Error, CustomStringConvertible, Equatable {
    /// The request names an unknown bot kind, a wrong number of bots, or bad counts.
    case badRequest(String)
    /// A bot chose a move the engine rejected, or a game never ended: an engine or bot bug.
    case engineFault(String)

    public var description: String {
        switch self {
        case .badRequest(let s): return s
        case .engineFault(let s): return "engine fault: \(s)"
        }
    }
}

/// Plays games of one type with bots, with no network. Generic so the hot loop is specialised per game.
public struct PlayoutRunner<State: GameState>: Sendable {
    public let factories: [BotFactory<State>]
    /// A game longer than this is an engine bug, not a long game.
    public var moveLimit = 100_000

    public init(factories: [BotFactory<State>]) { self.factories = factories }

    func validate(_ request: PlayoutRequest) throws(PlayoutError) -> [BotFactory<State>] {
        guard State.playerCounts.contains(request.players) else {
            let counts = State.playerCounts.map(String.init).joined(separator: ", ")
            throw .badRequest("\(State.gameName) is played by \(counts) players, not \(request.players)")
        }
        guard request.games >= 1 else { throw .badRequest("--games must be at least 1") }
        guard request.bots.count == request.players else {
            throw .badRequest("give one bot per seat: \(request.players) players but \(request.bots.count) bots")
        }
        var chosen: [BotFactory<State>] = []
        for kind in request.bots {
            guard let f = factories.first(where: { $0.kind == kind }) else {
                let known = factories.map(\.kind).joined(separator: ", ")
                throw .badRequest("unknown bot '\(kind)' for \(State.gameName); known bots: \(known)")
            }
            chosen.append(f)
        }
        return chosen
    }

    /// Plays one game to the end; calls `onMove` with the state before each move.
    public func playGame(
        players: Int, seed: UInt64, factories chosen: [BotFactory<State>],
        onMove: ((State, Int, State.Move) -> Void)? = nil
    ) throws(PlayoutError) -> (state: State, moves: Int) {
        var state: State
        do { state = try State(players: players, seed: seed) } catch { throw .badRequest(error.message) }
        var bots = chosen.enumerated().map { seat, f in f.make(seed, seat) }
        var moves = 0
        while case .seat(let seat) = state.turn {
            let move = bots[seat].chooseMove(in: state, seat: seat)
            onMove?(state, seat, move)
            do { try state.apply(move) } catch {
                throw .engineFault(
                    "game seed \(seed), move \(moves + 1): bot \(chosen[seat].kind) chose \(move): \(error)")
            }
            moves += 1
            if moves > moveLimit { throw .engineFault("game seed \(seed) did not end after \(moveLimit) moves") }
        }
        return (state, moves)
    }

    /// Plays a batch; `progress` is called with the number of games done, about every 1% of the batch.
    public func run(_ request: PlayoutRequest, progress: ((Int) -> Void)? = nil) throws(PlayoutError) -> PlayoutReport {
        let chosen = try validate(request)
        var wins = [Int](repeating: 0, count: request.players)
        var scoreSums = [Int](repeating: 0, count: request.players)
        var transcript = TranscriptHasher()
        var totalMoves = 0
        var draws = 0
        var lastHash: StateHash?
        let step = max(1, request.games / 100)
        let start = ContinuousClock.now
        for g in 0..<request.games {
            let (state, moves) = try playGame(players: request.players, seed: request.gameSeed(g), factories: chosen)
            guard let outcome = state.outcome else { throw .engineFault("game ended without an outcome") }
            totalMoves += moves
            if outcome.winners.isEmpty { draws += 1 }
            for w in outcome.winners { wins[w] += 1 }
            for (seat, s) in outcome.scores.enumerated() { scoreSums[seat] += s }
            let hash = state.stateHash
            transcript.add(hash)
            lastHash = hash
            if (g + 1) % step == 0 { progress?(g + 1) }
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let n = Double(request.games)
        let seats = (0..<request.players).map {
            SeatReport(seat: $0, bot: request.bots[$0], wins: wins[$0], meanScore: Double(scoreSums[$0]) / n)
        }
        var kinds: [String] = []
        for b in request.bots where !kinds.contains(b) { kinds.append(b) }
        let bots = kinds.map { kind -> BotKindReport in
            let mine = seats.filter { $0.bot == kind }
            let w = mine.reduce(0) { $0 + $1.wins }
            return BotKindReport(
                bot: kind, seats: mine.count, wins: w,
                winRate: Double(w) / (n * Double(mine.count)),
                meanScore: mine.reduce(0.0) { $0 + $1.meanScore } / Double(mine.count))
        }
        return PlayoutReport(
            game: State.gameName, scoreName: State.scoreName, players: request.players, games: request.games,
            seed: request.seed, transcript: transcript.finalize(), elapsedSeconds: seconds, totalMoves: totalMoves,
            seats: seats, bots: bots, draws: draws, finalHash: request.games == 1 ? lastHash : nil)
    }

    /// One game move by move, for a person: a line per move, then the outcome and final hash.
    public func transcriptLines(players: Int, seed: UInt64, bots: [String]) throws(PlayoutError) -> [String] {
        let chosen = try validate(PlayoutRequest(players: players, games: 1, seed: seed, bots: bots))
        var lines = ["\(State.gameName), \(players) players, seed \(seed)"]
        var n = 0
        let (state, _) = try playGame(players: players, seed: seed, factories: chosen) { state, seat, move in
            n += 1
            lines.append("\(n). seat \(seat) (\(bots[seat])): \(state.transcriptLine(move))")
        }
        if let o = state.outcome {
            let scores = o.scores.enumerated().map { "seat \($0.offset) \($0.element)" }.joined(separator: ", ")
            let winners =
                o.winners.isEmpty
                ? "draw"
                : "winner" + (o.winners.count > 1 ? "s" : "") + ": "
                    + o.winners.map { "seat \($0)" }.joined(separator: ", ")
            lines.append("end: \(winners); \(State.scoreName): \(scores)")
        }
        lines.append("final state hash: \(state.stateHash)")
        return lines
    }
}
