import Foundation
import TavoloCore
import TavoloGames
import XCTest

/// The pattern databases and the IDA* that searches with them, against the Manhattan + linear-conflict IDA*.
/// Small partitions build in about a second even in a debug build; the 6-6-3 databases of the `expert` bot take
/// two minutes there, so their test runs in optimized builds or with TAVOLO_LONG_TESTS=1 (`scripts/test --long`).
final class FifteenPatternTests: XCTestCase {
    func testRankAndCellsAreInverses() {
        var rng = TavoloRNG(seed: 5)
        for count in 1...6 {
            for _ in 0..<50 {
                var cells = Array(0..<16)
                rng.shuffle(&cells)
                let placement = Array(cells.prefix(count))
                let rank = FifteenPatternDatabase.rank(cells: placement, boardCells: 16)
                XCTAssertLessThan(rank, FifteenPatternDatabase.placements(cells: 16, count: count))
                XCTAssertEqual(FifteenPatternDatabase.cells(of: rank, count: count, boardCells: 16), placement)
            }
        }
    }

    /// A pattern of every tile counts every move: the database is the exact distance of every 3×3 board, and
    /// exactly the solvable half of the placements is reached.
    func testAPatternOfEveryTileIsTheExactDistance() throws {
        let database = FifteenPatternDatabase(k: 3, tiles: [1, 2, 3, 4, 5, 6, 7, 8])
        XCTAssertEqual(database.entries.count, 362_880)
        XCTAssertEqual(database.entries.filter { $0 != .max }.count, 181_440)
        XCTAssertEqual(database.entries.filter { $0 != .max }.max(), 31)
        var rng = TavoloRNG(seed: 8)
        for _ in 0..<10 {
            let board = FifteenBoard.randomSolvable(n: 3, rng: &rng)
            let optimal = try XCTUnwrap(FifteenIDAStar.solve(board)).moves.count
            XCTAssertEqual(database.moves(on: board), optimal)
        }
    }

    /// Every draw is solvable, and every solvable 2×2 board is drawn.
    func testRandomBoardsAreTheSolvableOnes() {
        var reachable: Set<[UInt8]> = [FifteenBoard(solved: 2).tiles]
        var frontier = [FifteenBoard(solved: 2)]
        while let board = frontier.popLast() {
            for move in board.slides {
                var next = board
                next.slide(move)
                if reachable.insert(next.tiles).inserted { frontier.append(next) }
            }
        }
        XCTAssertEqual(reachable.count, 12)
        var drawn: Set<[UInt8]> = []
        var rng = TavoloRNG(seed: 3)
        for _ in 0..<400 { drawn.insert(FifteenBoard.randomSolvable(n: 2, rng: &rng).tiles) }
        XCTAssertEqual(drawn, reachable)
    }

    func testMirroringKeepsTheDistance() throws {
        var rng = TavoloRNG(seed: 4)
        for _ in 0..<6 {
            let board = FifteenBoard.randomSolvable(n: 3, rng: &rng)
            XCTAssertEqual(board.transposed.transposed, board)
            XCTAssertEqual(
                try XCTUnwrap(FifteenIDAStar.solve(board)).moves.count,
                try XCTUnwrap(FifteenIDAStar.solve(board.transposed)).moves.count)
        }
    }

    /// Five 3-tile databases on 4×4 (3,360 entries each): the search's lengths are the other IDA*'s, and along
    /// every optimal solution (whose i-th board is exactly length − i from solved) the estimate never exceeds that.
    func testSmallPartitionSolvesOptimallyAndAdmissibly() throws {
        let heuristic = FifteenPatternHeuristic(
            k: 4, groups: [[1, 2, 3], [4, 7, 8], [5, 6, 9], [10, 13, 14], [11, 12, 15]], reflected: true)
        try checkOptimalAndAdmissible(heuristic, scrambles: 6, steps: 40, seed: 21)
    }

    func testThreeByThreeWithTwoDatabases() throws {
        let heuristic = FifteenPatternHeuristic(k: 3, groups: [[1, 2, 3, 4], [5, 6, 7, 8]], reflected: true)
        var rng = TavoloRNG(seed: 9)
        for _ in 0..<8 {
            let board = FifteenBoard.randomSolvable(n: 3, rng: &rng)
            try checkOneBoard(board, heuristic)
        }
    }

    /// The `expert` bot's own 6-6-3 databases on the race's easy scrambles.
    func testStandardDatabasesSolveOptimallyAndAdmissibly() throws {
        try XCTSkipUnless(Self.optimizedOrLong, "the 6-6-3 databases take two minutes to build in a debug build")
        try checkOptimalAndAdmissible(.standard, scrambles: 8, steps: 60, seed: 33)
        // The expert bot plans exactly that search's solution for a race's scramble.
        let race = try FifteenState4(players: 1, seed: 7).scramble
        XCTAssertEqual(
            FifteenSolverBot<Fifteen4>.solve(race, method: .patternDatabases(nodeLimit: 8_000_000)),
            try XCTUnwrap(FifteenPatternSearch.solve(race)).moves)
        var rng = TavoloRNG(seed: 2)
        for _ in 0..<20 {
            let board = FifteenBoard.randomSolvable(n: 4, rng: &rng)
            let found = try XCTUnwrap(FifteenPatternSearch.solve(board))
            try checkAlongPath(board, found.moves, FifteenPatternHeuristic.standard)
        }
    }

    static var optimizedOrLong: Bool {
        #if DEBUG
            return ProcessInfo.processInfo.environment["TAVOLO_LONG_TESTS"] == "1"
        #else
            return true
        #endif
    }

    func checkOptimalAndAdmissible(
        _ heuristic: FifteenPatternHeuristic, scrambles: Int, steps: Int, seed: UInt64
    ) throws {
        var rng = TavoloRNG(seed: seed)
        for _ in 0..<scrambles {
            try checkOneBoard(FifteenBoard.scrambled(n: heuristic.k, steps: steps, rng: &rng), heuristic)
        }
    }

    func checkOneBoard(_ board: FifteenBoard, _ heuristic: FifteenPatternHeuristic) throws {
        let reference = try XCTUnwrap(FifteenIDAStar.solve(board)).moves.count
        let found = try XCTUnwrap(FifteenPatternSearch.solve(board, heuristic: heuristic))
        XCTAssertEqual(found.moves.count, reference, "\(board.rows)")
        try checkAlongPath(board, found.moves, heuristic)
    }

    /// The solution solves, and each board on it is estimated at most its distance (the moves still to play).
    func checkAlongPath(_ board: FifteenBoard, _ moves: [FifteenMove], _ heuristic: FifteenPatternHeuristic) throws {
        var b = board
        for (i, move) in moves.enumerated() {
            XCTAssertLessThanOrEqual(heuristic.estimate(b), moves.count - i, "\(b.rows)")
            XCTAssertTrue(b.slide(move))
        }
        XCTAssertTrue(b.isSolved)
        XCTAssertEqual(heuristic.estimate(b), 0)
    }
}
