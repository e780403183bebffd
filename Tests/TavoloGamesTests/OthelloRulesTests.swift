import TavoloCore
import XCTest

@testable import TavoloGames

func sq(_ name: String) -> UInt64 { OthelloBitboard.square(named: name).map { 1 << UInt64($0) } ?? 0 }
func squares(_ names: String) -> UInt64 { names.split(separator: " ").reduce(0) { $0 | sq(String($1)) } }
func move(_ name: String) -> OthelloMove { OthelloMove(name: name) ?? .pass }

/// Scripted tests, one rule of RULES.md "Othello" each.
final class OthelloRulesTests: XCTestCase {
    func testStartPositionAndBlackMovesFirst() throws {
        let s = try OthelloState(players: 2, seed: 99)
        XCTAssertEqual(s.black, squares("d5 e4"))
        XCTAssertEqual(s.white, squares("d4 e5"))
        XCTAssertEqual(s.turn, .seat(0))
        XCTAssertEqual(s.legalMoves().map(\.description), ["d3", "c4", "f5", "e6"])
        XCTAssertEqual(try OthelloState(players: 2, seed: 1).stateHash, s.stateHash, "the seed does not matter")
        XCTAssertThrowsError(try OthelloState(players: 3, seed: 1))
    }

    func testPlacementFlipsEveryBracketedLine() throws {
        var s = try OthelloState(players: 2, seed: 0)
        try s.apply(move("d3"))
        XCTAssertEqual(s.black, squares("d3 d4 d5 e4"))
        XCTAssertEqual(s.white, squares("e5"))
        XCTAssertEqual(s.turn, .seat(1))
        // Several directions at once: white on a1, black on b1 b2 a2 c3? Only bracketed lines flip.
        var t = OthelloState(black: squares("b1 b2 a2 c2"), white: squares("c1 c3 a3 d2"), toMove: 1)
        try t.apply(move("a1"))
        XCTAssertEqual(t.white, squares("a1 b1 b2 a2 c1 c3 a3 d2"))
        XCTAssertEqual(t.black, squares("c2"), "c2 is not on a line from a1")
    }

    func testPlacementMustBracket() throws {
        var s = try OthelloState(players: 2, seed: 0)
        let before = s.stateHash
        for bad in ["a1", "d4", "c3", "pass"] {
            XCTAssertThrowsError(try s.apply(move(bad))) { XCTAssertEqual(($0 as? MoveError)?.code, .illegal) }
        }
        XCTAssertEqual(s.stateHash, before)
    }

    func testPassIsTheOnlyMoveWithoutAPlacement() throws {
        var s = OthelloState(black: squares("a1"), white: squares("b1 b2"), toMove: 0)
        try s.apply(move("c1"))
        XCTAssertEqual(s.turn, .seat(1))
        XCTAssertEqual(s.legalMoves(), [.pass])
        XCTAssertThrowsError(try s.apply(move("b3"))) { XCTAssertEqual(($0 as? MoveError)?.code, .illegal) }
        try s.apply(.pass)
        XCTAssertEqual(s.turn, .seat(0))
        XCTAssertFalse(s.legalMoves().contains(.pass))
    }

    func testGameEndsWhenNeitherCanMoveAndMoreDiscsWins() throws {
        var s = OthelloState(black: squares("a1"), white: squares("b1"), toMove: 0)
        try s.apply(move("c1"))
        XCTAssertEqual(s.turn, .terminal)
        XCTAssertEqual(s.outcome, GameOutcome(winners: [0], scores: [3, 0]))
        XCTAssertEqual(s.legalMoves(), [])
        XCTAssertThrowsError(try s.apply(.pass)) { XCTAssertEqual(($0 as? MoveError)?.code, .gameOver) }
        // A full board split 32–32 is a draw.
        let draw = OthelloState(black: 0x0000_0000_FFFF_FFFF, white: 0xFFFF_FFFF_0000_0000, toMove: 0)
        XCTAssertEqual(draw.outcome, GameOutcome(winners: [], scores: [32, 32]))
    }

    func testGameCanEndWithEmptySquaresLeft() throws {
        // The shortest game: nine moves, all discs black.
        var s = try OthelloState(players: 2, seed: 0)
        for m in ["e6", "f4", "e3", "f6", "g5", "d6", "e7", "f5", "c5"] { try s.apply(move(m)) }
        XCTAssertEqual(s.turn, .terminal)
        XCTAssertEqual(s.outcome?.scores, [13, 0])
    }

    func testMoveCodableAndNames() throws {
        XCTAssertEqual(OthelloBitboard.name(0), "a1")
        XCTAssertEqual(OthelloBitboard.name(63), "h8")
        XCTAssertEqual(OthelloBitboard.square(named: "h1"), 7)
        XCTAssertNil(OthelloMove(name: "i9"))
        let data = try JSONEncoder().encode([move("d3"), .pass])
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "[\"d3\",\"pass\"]")
        XCTAssertEqual(try JSONDecoder().decode([OthelloMove].self, from: data), [move("d3"), .pass])
        XCTAssertLessThan(move("h8"), .pass)
    }

    func testDescribeShowsBoardBeforeAndAfter() throws {
        let s = try OthelloState(players: 2, seed: 0)
        let text = s.describe(move("d3"))
        XCTAssertTrue(text.hasPrefix("black d3, flips d4 (black 4, white 1)"), text)
        XCTAssertTrue(text.contains("5 . . . X O . . .    5 . . . X O . . ."), text)
        XCTAssertTrue(text.contains("3 . . . . . . . .    3 . . . x . . . ."), text)
        XCTAssertEqual(s.boardDiagram().count, 9)
    }

    func testPerftMatchesPublishedCounts() {
        let published: [UInt64] = [1, 4, 12, 56, 244, 1396, 8200]
        for (depth, n) in published.enumerated() {
            XCTAssertEqual(OthelloPerft.count(depth: depth), n, "depth \(depth)")
        }
    }

    func testGreedyTakesMostFlipsThenLowestSquare() throws {
        var bot = OthelloGreedyBot()
        let s = try OthelloState(players: 2, seed: 0)
        XCTAssertEqual(bot.chooseMove(in: s, seat: 0), move("d3"), "all flip one: lowest square")
        let t = OthelloState(black: squares("a1 h1"), white: squares("b1 g1 f1"), toMove: 0)
        XCTAssertEqual(bot.chooseMove(in: t, seat: 0), move("e1"))
    }

    /// Final disc difference for `seat` with perfect play from `s`, by plain minimax over the engine.
    func bruteForce(_ s: OthelloState, seat: Int) throws -> Int {
        guard case .seat(let p) = s.turn else { return s.discs[seat] - s.discs[1 - seat] }
        var values: [Int] = []
        for m in s.legalMoves() {
            var child = s
            try child.apply(m)
            values.append(try bruteForce(child, seat: seat))
        }
        return (p == seat ? values.max() : values.min()) ?? 0
    }

    func testAlphaBetaSolvesEndgamesExactlyAndIsDeterministic() throws {
        var bot = OthelloAlphaBetaBot(rng: TavoloRNG(seed: 1), depth: 3, exactEmpties: 7)
        var greedy = OthelloGreedyBot()
        for seed: UInt64 in 1...6 {
            var state = try OthelloState(players: 2, seed: seed)
            var random = RandomBot<OthelloState>(rng: botRNG(gameSeed: seed, seat: 0))
            while case .seat(let seat) = state.turn {
                let empties = 64 - state.discs.reduce(0, +)
                if empties == 7 && state.placements != 0 {
                    let copy = bot
                    let m = bot.chooseMove(in: state, seat: seat)
                    bot = copy
                    XCTAssertEqual(m, bot.chooseMove(in: state, seat: seat), "same RNG state, same move")
                    var after = state
                    try after.apply(m)
                    XCTAssertEqual(try bruteForce(after, seat: seat), try bruteForce(state, seat: seat), "seed \(seed)")
                }
                let m =
                    empties > 20 ? random.chooseMove(in: state, seat: seat) : greedy.chooseMove(in: state, seat: seat)
                try state.apply(m)
            }
        }
    }
}
