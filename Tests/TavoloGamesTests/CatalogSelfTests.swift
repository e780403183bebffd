import TavoloCore
import TavoloGames
import XCTest

/// Every registered game, at every player count, passes the generic random-simulation check: a game is tested
/// deeply the day it is registered, with no test written for it by hand.
final class CatalogSelfTests: XCTestCase {
    func testEveryRegisteredGamePassesTheGenericCheck() {
        XCTAssertFalse(GameCatalog.standard.entries.isEmpty)
        for entry in GameCatalog.standard.entries {
            for players in entry.playerCounts {
                let report = entry.selfTest(players: players, games: 100, firstSeed: 77)
                XCTAssertEqual(report.problems, [], "\(entry.name) for \(players)")
                XCTAssertEqual(report.games, 100, "\(entry.name) for \(players)")
                XCTAssertGreaterThan(report.moves, report.games, "\(entry.name) for \(players)")
                let again = entry.selfTest(players: players, games: 100, firstSeed: 77)
                XCTAssertEqual(again.transcript, report.transcript, "\(entry.name): same seeds, other games")
                let other = entry.selfTest(players: players, games: 20, firstSeed: 78)
                XCTAssertNotEqual(other.transcript, report.transcript, "\(entry.name): the seed changes nothing")
            }
        }
    }

    /// The check can fail: a game whose invariant is broken is reported, with its seed.
    func testTheCheckReportsABrokenInvariant() throws {
        var test = GameSelfTest<OthelloState>()
        test.check = { $0.moveNumber == 7 ? "seven" : nil }
        let report = test.run(players: 2, games: 3)
        XCTAssertEqual(report.problems.count, 3)
        XCTAssertTrue(report.problems.first?.contains("seed 1: seven") == true, "\(report.problems)")
    }
}

/// The generic perft walks `legalMoves`; Othello's fast bitboard count must agree with it.
final class PerftTests: XCTestCase {
    func testGenericPerftEqualsOthellosBitboardCount() throws {
        let start = try OthelloState(players: 2, seed: 1)
        for depth in 0...5 {
            XCTAssertEqual(Perft.count(start, depth: depth), OthelloPerft.count(depth: depth), "depth \(depth)")
        }
        XCTAssertEqual(Perft.count(start, depth: 4), 244)
    }

    func testEveryGameHasAPerft() throws {
        for entry in GameCatalog.standard.entries {
            let n = try entry.perft(players: entry.playerCounts[0], seed: 3, depth: 2)
            XCTAssertGreaterThan(n, 0, entry.name)
        }
    }
}
