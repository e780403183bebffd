import Foundation

/// The generic random-simulation check every registered game passes (OpenSpiel's `RandomSimTest`): seeded
/// random games with, at every step, one seat to play, a non-empty sorted legal move list without duplicates,
/// an illegal move (when the game offers one) rejected with
/// `move/illegal` and the state unchanged, the game's own invariants; at the end an outcome and no legal moves;
/// and every `deepCheckEvery` games every move played surviving its trip through JSON, a replay from (players,
/// seed, moves) and a JSON round trip of the state, both giving the same hash. It reports problems instead of trapping, so tests and tools can print them.
public struct GameSelfTest<State: GameState> {
    /// Game-specific invariants checked after every move: return a problem, or nil.
    public var check: (State) -> String? = { _ in nil }
    /// A move that is never legal in `state`, when the game has one to offer.
    public var illegalMove: (State) -> State.Move? = { _ in nil }
    /// Replay and JSON checks every this many games (they cost more than a game).
    public var deepCheckEvery = 1
    /// Moves after which a game counts as endless.
    public var maxMoves = 100_000

    public init() {}

    public typealias Report = GameSelfTestReport
}

/// What `GameSelfTest` found.
public struct GameSelfTestReport: Sendable {
    /// Problems found, each naming its seed; empty when the game passed.
    public var problems: [String] = []
    /// Hash over every game's final state: the same seeds must give the same transcript.
    public var transcript: String = ""
    public var games = 0
    public var moves = 0
}

extension GameSelfTest {
    /// Plays `games` games for `players` seats with seeds `firstSeed ..< firstSeed + games`.
    public func run(players: Int, games: Int, firstSeed: UInt64 = 1) -> Report {
        var report = Report()
        var transcript = TranscriptHasher()
        for g in 0..<games {
            let seed = firstSeed &+ UInt64(g)
            guard let end = play(players: players, seed: seed, deep: g % deepCheckEvery == 0, into: &report) else {
                continue
            }
            report.games += 1
            transcript.add(end)
            if report.problems.count > 20 { break }
        }
        report.transcript = transcript.finalize()
        return report
    }

    /// One game; returns its final hash, or nil when it could not be played to the end.
    func play(players: Int, seed: UInt64, deep: Bool, into report: inout Report) -> StateHash? {
        func problem(_ text: String) { report.problems.append("\(State.gameName) \(players)p seed \(seed): \(text)") }
        var state: State
        do { state = try State(players: players, seed: seed) } catch {
            problem("cannot start: \(error)")
            return nil
        }
        var rng = TavoloRNG(seed: seed, stream: 0xBEEF)
        var history: [State.Move] = []
        if let p = check(state) { problem(p) }
        while case .seat(let seat) = state.turn {
            guard (0..<players).contains(seat) else {
                problem("seat \(seat) out of range")
                return nil
            }
            let legal = state.legalMoves()
            guard !legal.isEmpty else {
                problem("seat \(seat) to play has no legal move")
                return nil
            }
            if legal != legal.sorted() { problem("legal moves not sorted") }
            if Set(legal).count != legal.count { problem("duplicate legal moves") }
            if let bad = illegalMove(state), !legal.contains(bad) {
                var copy = state
                do {
                    try copy.apply(bad)
                    problem("illegal move \(bad) accepted")
                } catch {
                    if error.code != .illegal { problem("illegal move \(bad) rejected as \(error.code.rawValue)") }
                }
                if copy.stateHash != state.stateHash { problem("a rejected move changed the state") }
            }
            let move = legal[rng.below(legal.count)]
            // Every move through JSON costs more than the game: in the deep-checked games only.
            if deep, let json = try? JSONValue(encoding: move), (try? json.decode(State.Move.self)) != move {
                problem("move \(move) does not survive its JSON")
            }
            if state.moveNumber != history.count { problem("moveNumber \(state.moveNumber) after \(history.count)") }
            do { try state.apply(move) } catch {
                problem("legal move \(move) refused: \(error)")
                return nil
            }
            history.append(move)
            if let p = check(state) { problem(p) }
            if history.count > maxMoves {
                problem("the game did not end after \(maxMoves) moves")
                return nil
            }
        }
        if state.outcome == nil { problem("terminal without an outcome") }
        if !state.legalMoves().isEmpty { problem("moves after the end") }
        report.moves += history.count
        if deep {
            let replayed = try? GameRecord<State>(players: players, seed: seed, moves: history).replay()
            if replayed?.stateHash != state.stateHash { problem("replay from the history differs") }
            let decoded = (try? CanonicalJSON.encode(state)).flatMap { try? CanonicalJSON.decode(State.self, $0) }
            if decoded?.stateHash != state.stateHash { problem("JSON round trip of the state differs") }
        }
        return state.stateHash
    }
}
