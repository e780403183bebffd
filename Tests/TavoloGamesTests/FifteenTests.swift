import Foundation
import TavoloCore
import TavoloGames
import TavoloTestSupport
import XCTest

/// The engine against the independent Python vectors, and the solvers' answers checked by replaying them.
final class FifteenTests: XCTestCase {
    func loadFifteenVectors(file: String = #filePath) throws -> [[String: Any]] {
        let data = try ProtocolVectors.data("fifteen.json")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(object["cases"] as? [[String: Any]])
    }

    func checkVector<Size: FifteenSize>(_ c: [String: Any], _ size: Size.Type) throws {
        let seed = try XCTUnwrap(UInt64(try XCTUnwrap(c["seed"] as? String)))
        let players = try XCTUnwrap(c["players"] as? Int)
        var state = try FifteenState<Size>(players: players, seed: seed)
        XCTAssertEqual(state.scramble.tiles.map(Int.init), c["scramble"] as? [Int], "n \(Size.n) seed \(seed)")
        XCTAssertEqual(state.stateHash.hex, c["startHash"] as? String)
        let seat = try XCTUnwrap(c["seat"] as? Int)
        for name in try XCTUnwrap(c["moves"] as? [String]) {
            try state.apply(try XCTUnwrap(FifteenMove(name: name)), seat: seat)
        }
        XCTAssertEqual(state.seatHash(seat).hex, c["seatHashAfter"] as? String)
        if c["seat0GivesUp"] as? Bool == true { try state.apply(.giveUp, seat: 0) }
        XCTAssertEqual(state.canonicalBytes.hexString, c["canonicalAfter"] as? String)
        XCTAssertEqual(state.stateHash.hex, c["hashAfter"] as? String)
    }

    func testEngineMatchesThePythonVectors() throws {
        let cases = try loadFifteenVectors()
        XCTAssertEqual(cases.count, 30)
        for c in cases {
            switch c["n"] as? Int {
            case 4: try checkVector(c, Fifteen4.self)
            case 5: try checkVector(c, Fifteen5.self)
            case 6: try checkVector(c, Fifteen6.self)
            default: XCTFail("bad n")
            }
        }
    }

    func testSeatsMoveIndependentlyAndTheirOrderDoesNotMatter() throws {
        var a = try FifteenState4(players: 2, seed: 9)
        var b = a
        let m0 = a.legalMoves(seat: 0)[0]
        let m1 = a.legalMoves(seat: 1)[1]
        try a.apply(m0, seat: 0)
        try a.apply(m1, seat: 1)
        try b.apply(m1, seat: 1)
        try b.apply(m0, seat: 0)
        XCTAssertEqual(a.stateHash, b.stateHash)
        XCTAssertEqual(a.activeSeats, [0, 1])
        XCTAssertNotEqual(a.boards[0], a.boards[1])
    }

    func testAnImpossibleSlideIsRejectedAndChangesNothing() throws {
        // A seed whose scramble leaves the blank on an edge, so one slide is impossible.
        let seed = try XCTUnwrap(
            (UInt64(1)...50).first { try FifteenState4(players: 1, seed: $0).boards[0].slides.count < 4 })
        var s = try FifteenState4(players: 1, seed: seed)
        let impossible = try XCTUnwrap(FifteenMove.slides.first { !s.boards[0].canSlide($0) })
        let before = s.stateHash
        XCTAssertThrowsError(try s.apply(impossible, seat: 0))
        XCTAssertEqual(s.stateHash, before)
    }

    func testGivingUpEndsTheSeatAndTheGame() throws {
        var s = try FifteenState4(players: 2, seed: 5)
        try s.apply(.giveUp, seat: 1)
        XCTAssertEqual(s.activeSeats, [0])
        XCTAssertThrowsError(try s.apply(.up, seat: 1)) { XCTAssertEqual(($0 as? MoveError)?.code, .notYourTurn) }
        try s.apply(.giveUp, seat: 0)
        XCTAssertEqual(s.outcome, GameOutcome(winners: [], scores: [0, 0]))
    }

    /// IDA* is optimal: on 3×3 boards its lengths equal breadth-first distances.
    func testIDAStarFindsShortestSolutions() throws {
        var rng = TavoloRNG(seed: 11)
        for _ in 0..<6 {
            let board = FifteenBoard.scrambled(n: 3, steps: 40, rng: &rng)
            let found = try XCTUnwrap(FifteenIDAStar.solve(board))
            XCTAssertEqual(found.moves.count, bfsDistance(board))
            var b = board
            for m in found.moves { XCTAssertTrue(b.slide(m)) }
            XCTAssertTrue(b.isSolved)
        }
    }

    func bfsDistance(_ start: FifteenBoard) -> Int {
        var seen: Set<[UInt8]> = [start.tiles]
        var frontier = [start]
        var depth = 0
        while !frontier.isEmpty {
            if frontier.contains(where: \.isSolved) { return depth }
            var next: [FifteenBoard] = []
            for b in frontier {
                for m in b.slides {
                    var c = b
                    c.slide(m)
                    if seen.insert(c.tiles).inserted { next.append(c) }
                }
            }
            frontier = next
            depth += 1
        }
        return -1
    }

    func testReductionSolvesEverySize() throws {
        for n in [4, 5, 6] {
            for seed in UInt64(1)...4 {
                var rng = TavoloRNG(seed: seed)
                let board = FifteenBoard.scrambled(n: n, rng: &rng)
                let moves = try XCTUnwrap(FifteenReduction.solve(board), "n \(n) seed \(seed)")
                var b = board
                for m in moves { XCTAssertTrue(b.slide(m)) }
                XCTAssertTrue(b.isSolved, "n \(n) seed \(seed)")
            }
        }
    }

    func testSolverBotsFinishTheRace() throws {
        let entry = try XCTUnwrap(GameCatalog.standard["fifteen6"])
        let report = try entry.playout(PlayoutRequest(players: 2, games: 2, seed: 3, bots: ["reduce", "reduce"]))
        XCTAssertEqual(report.draws, 0)
        XCTAssertEqual(report.seats.map(\.wins), [2, 2])
    }
}
