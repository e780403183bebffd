import Foundation
import TavoloCore
import XCTest

/// The generic random-simulation test every registered game passes (DESIGN.md "Testing rules",
/// OpenSpiel's RandomSimTest): seeded random games, with at every step
/// - exactly one seat to play, a non-empty sorted legal move list with no duplicates,
/// - a move outside the legal list rejected with `move/illegal` and the state left unchanged,
/// - the game's own invariants (`check`),
/// and at the end an outcome, no legal moves, a replay from (players, seed, moves) giving the same hash,
/// a JSON round trip of the state giving the same hash, and the same seed giving the same transcript.
struct RandomPlayoutHarness<State: GameState> {
    /// Game-specific invariants checked after every move; throw or XCTFail to report.
    var check: (State) throws -> Void = { _ in }
    /// A move that is never legal in `state`, when the game has one to offer (checks rejection).
    var illegalMove: (State) -> State.Move? = { _ in nil }
    /// Full replay and JSON checks every `deepCheckEvery` games (they cost more than the game itself).
    var deepCheckEvery = 1

    /// Plays `games` games for `players` seats with seeds `firstSeed ..< firstSeed + games`;
    /// returns the transcript hash over final state hashes and the total number of moves.
    @discardableResult
    func run(players: Int, games: Int, firstSeed: UInt64 = 1, file: StaticString = #filePath, line: UInt = #line)
        throws -> (transcript: String, moves: Int)
    {
        var transcript = TranscriptHasher()
        var totalMoves = 0
        for g in 0..<games {
            let seed = firstSeed &+ UInt64(g)
            var state = try State(players: players, seed: seed)
            var rng = TavoloRNG(seed: seed, stream: 0xBEEF)
            var history: [State.Move] = []
            try check(state)
            while case .seat(let seat) = state.turn {
                XCTAssert((0..<players).contains(seat), "seat \(seat) out of range", file: file, line: line)
                let legal = state.legalMoves()
                XCTAssertFalse(
                    legal.isEmpty, "seed \(seed): seat \(seat) to play has no legal move", file: file, line: line)
                XCTAssertEqual(legal, legal.sorted(), "seed \(seed): legal moves not sorted", file: file, line: line)
                XCTAssertEqual(
                    Set(legal).count, legal.count, "seed \(seed): duplicate legal moves", file: file, line: line)
                if legal.isEmpty { return (transcript.finalize(), totalMoves) }
                if let bad = illegalMove(state), !legal.contains(bad) {
                    let before = state.stateHash
                    var copy = state
                    XCTAssertThrowsError(try copy.apply(bad), file: file, line: line) { error in
                        XCTAssertEqual((error as? MoveError)?.code, .illegal, file: file, line: line)
                    }
                    XCTAssertEqual(copy.stateHash, before, "a rejected move changed the state", file: file, line: line)
                }
                let move = legal[rng.below(legal.count)]
                XCTAssertEqual(state.moveNumber, history.count, file: file, line: line)
                try state.apply(move)
                history.append(move)
                try check(state)
                if history.count > 100_000 {
                    XCTFail("seed \(seed): game did not end", file: file, line: line)
                    return (transcript.finalize(), totalMoves)
                }
            }
            XCTAssertNotNil(state.outcome, "seed \(seed): terminal without outcome", file: file, line: line)
            XCTAssertTrue(state.legalMoves().isEmpty, "seed \(seed): moves after the end", file: file, line: line)
            if g % deepCheckEvery == 0 {
                let replayed = try GameRecord<State>(players: players, seed: seed, moves: history).replay()
                XCTAssertEqual(
                    replayed.stateHash, state.stateHash, "seed \(seed): replay differs", file: file, line: line)
                let data = try JSONEncoder().encode(state)
                let decoded = try JSONDecoder().decode(State.self, from: data)
                XCTAssertEqual(
                    decoded.stateHash, state.stateHash, "seed \(seed): JSON round trip differs", file: file, line: line)
            }
            totalMoves += history.count
            transcript.add(state.stateHash)
        }
        return (transcript.finalize(), totalMoves)
    }

    /// Runs the same batch twice and checks the transcripts agree.
    func runTwiceAndCompare(players: Int, games: Int, firstSeed: UInt64 = 1) throws {
        let a = try run(players: players, games: games, firstSeed: firstSeed)
        let b = try run(players: players, games: games, firstSeed: firstSeed)
        XCTAssertEqual(a.transcript, b.transcript, "same seeds gave different transcripts")
    }
}
