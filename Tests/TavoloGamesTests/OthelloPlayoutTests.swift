import TavoloCore
import XCTest

@testable import TavoloGames

/// The generic random-playout test for Othello with disc-count invariants, and bot checks.
final class OthelloPlayoutTests: XCTestCase {
    /// Discs placed so far, per game, to check counts move by move (4 at the start, +1 per placement).
    static func checkInvariants(_ s: OthelloState) {
        XCTAssertEqual(s.black & s.white, 0, "a square holds one disc")
        let discs = s.black.nonzeroBitCount + s.white.nonzeroBitCount
        XCTAssertGreaterThanOrEqual(discs, 4)
        XCTAssertLessThanOrEqual(discs - 4, s.moveNumber, "at most one disc per move")
        XCTAssertEqual(s.discs, [s.black.nonzeroBitCount, s.white.nonzeroBitCount])
        let canMove = OthelloBitboard.moves(s.black, s.white) != 0 || OthelloBitboard.moves(s.white, s.black) != 0
        XCTAssertEqual(s.isOver, !canMove, "the game ends exactly when neither colour can place")
        if let o = s.outcome {
            XCTAssertEqual(o.scores, s.discs)
            XCTAssertEqual(o.winners, o.scores[0] > o.scores[1] ? [0] : o.scores[1] > o.scores[0] ? [1] : [])
        }
    }

    func harness(placed: Box) -> RandomPlayoutHarness<OthelloState> {
        RandomPlayoutHarness<OthelloState>(
            check: { s in
                Self.checkInvariants(s)
                if s.moveNumber == 0 { placed.count = 0 }
                if s.moveNumber > 0 {
                    // The previous move placed a disc unless the count stayed the same (a pass).
                    let discs = s.black.nonzeroBitCount + s.white.nonzeroBitCount
                    XCTAssertTrue(discs == placed.count + 4 || discs == placed.count + 5)
                    placed.count = discs - 4
                }
            },
            // With a placement available a pass is illegal; with none, every placement is.
            illegalMove: { s in s.placements != 0 ? .pass : OthelloMove(square: 0) },
            deepCheckEvery: 2)
    }

    final class Box { var count = 0 }

    func testRandomPlayouts() throws {
        let (_, moves) = try harness(placed: Box()).run(players: 2, games: 500, firstSeed: 1)
        XCTAssertGreaterThan(moves, 500 * 50)
    }

    func testSameSeedsSameTranscript() throws {
        try harness(placed: Box()).runTwiceAndCompare(players: 2, games: 20, firstSeed: 3)
    }

    func testSomeRandomGamesPass() throws {
        var passes = 0
        for seed: UInt64 in 1...300 {
            var s = try OthelloState(players: 2, seed: seed)
            var bot = RandomBot<OthelloState>(rng: botRNG(gameSeed: seed, seat: 0))
            while case .seat(let seat) = s.turn {
                let m = bot.chooseMove(in: s, seat: seat)
                if m.isPass {
                    passes += 1
                    XCTAssertEqual(s.legalMoves(), [.pass])
                    XCTAssertEqual(s.placements, 0)
                }
                try s.apply(m)
            }
        }
        XCTAssertGreaterThan(passes, 0, "random games should reach a forced pass")
    }

    func testBotsAreDeterministicThroughTheCatalog() throws {
        guard let entry = GameCatalog.standard["othello"] else { return XCTFail("othello not registered") }
        let request = PlayoutRequest(players: 2, games: 2, seed: 40, bots: ["alphabeta", "greedy"])
        let a = try entry.playout(request)
        XCTAssertEqual(a.transcript, try entry.playout(request).transcript)
        let lines = try entry.transcript(players: 2, seed: 1, bots: ["greedy", "random"])
        XCTAssertTrue(lines[1].contains("before"), lines[1])
    }
}
