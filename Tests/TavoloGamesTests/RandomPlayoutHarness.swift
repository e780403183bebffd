import Foundation
import TavoloCore
import XCTest

/// The generic random-simulation check (`GameSelfTest` in TavoloCore) with a game's own invariants, reported as
/// test failures. Every registered game also gets the plain check automatically (`CatalogSelfTests`).
struct RandomPlayoutHarness<State: GameState> {
    /// Game-specific invariants checked after every move; XCTFail (or throw) to report.
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
        var test = GameSelfTest<State>()
        let check = self.check
        test.check = { state in
            do { try check(state) } catch { return "\(error)" }
            return nil
        }
        test.illegalMove = illegalMove
        test.deepCheckEvery = deepCheckEvery
        let report = test.run(players: players, games: games, firstSeed: firstSeed)
        for p in report.problems { XCTFail(p, file: file, line: line) }
        XCTAssertEqual(report.games, games, "not every game was played to its end", file: file, line: line)
        return (report.transcript, report.moves)
    }

    /// Runs the same batch twice and checks the transcripts agree.
    func runTwiceAndCompare(players: Int, games: Int, firstSeed: UInt64 = 1) throws {
        let a = try run(players: players, games: games, firstSeed: firstSeed)
        let b = try run(players: players, games: games, firstSeed: firstSeed)
        XCTAssertEqual(a.transcript, b.transcript, "same seeds gave different transcripts")
    }
}
