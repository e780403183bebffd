import TavoloCore
import XCTest

@testable import TavoloGames

/// The searching Othello bot: legal everywhere, the same values as a plain search, exact endgames.
final class OthelloSearchTests: XCTestCase {
    /// Positions from seeded random games, each as (side to move, other side), with at least one placement.
    static func positions(seeds: ClosedRange<UInt64>, every: Int = 1, where keep: (Int) -> Bool = { _ in true }) throws
        -> [(own: UInt64, opp: UInt64)]
    {
        var found: [(UInt64, UInt64)] = []
        for seed in seeds {
            var state = try OthelloState(players: 2, seed: seed)
            var rng = TavoloRNG(seed: seed, stream: 9)
            var bot = RandomBot<OthelloState>(rng: rng)
            rng = TavoloRNG(seed: seed)
            while case .seat(let seat) = state.turn {
                let (own, opp) = seat == 0 ? (state.black, state.white) : (state.white, state.black)
                let empties = 64 - (own | opp).nonzeroBitCount
                if state.moveNumber % every == 0, OthelloBitboard.moves(own, opp) != 0, keep(empties) {
                    found.append((own, opp))
                }
                try state.apply(bot.chooseMove(in: state, seat: seat))
            }
        }
        return found
    }

    /// Plain negamax on the same evaluation (the trained weights, or with nil the hand-set terms): no table, no
    /// ordering, no pruning.
    static func plain(_ own: UInt64, _ opp: UInt64, depth: Int, weights: OthelloPatternWeights? = nil) -> Int {
        let moves = OthelloBitboard.moves(own, opp)
        if moves == 0 {
            if OthelloBitboard.moves(opp, own) == 0 { return OthelloSearch.finalValue(own, opp) }
            return -plain(opp, own, depth: depth, weights: weights)
        }
        if depth == 0 {
            let oppMoves = OthelloBitboard.moves(opp, own)
            if let weights { return weights.evaluate(own, opp, ownMoves: moves, oppMoves: oppMoves) }
            return OthelloEvaluation.evaluate(own, opp, ownMoves: moves, oppMoves: oppMoves)
        }
        var best = Int.min
        var bits = moves
        while bits != 0 {
            let sq = bits.trailingZeroBitCount
            bits &= bits - 1
            let f = OthelloBitboard.flips(own, opp, square: sq)
            best = max(best, -plain(opp & ~f, own | f | (1 << UInt64(sq)), depth: depth - 1, weights: weights))
        }
        return best
    }

    /// The final disc difference under perfect play, by trying everything.
    static func bruteForce(_ own: UInt64, _ opp: UInt64) -> Int {
        let moves = OthelloBitboard.moves(own, opp)
        if moves == 0 {
            if OthelloBitboard.moves(opp, own) == 0 { return own.nonzeroBitCount - opp.nonzeroBitCount }
            return -bruteForce(opp, own)
        }
        var best = Int.min
        var bits = moves
        while bits != 0 {
            let sq = bits.trailingZeroBitCount
            bits &= bits - 1
            let f = OthelloBitboard.flips(own, opp, square: sq)
            best = max(best, -bruteForce(opp & ~f, own | f | (1 << UInt64(sq))))
        }
        return best
    }

    func testTheTableAndOrderingChangeNoValueOfAFixedDepthSearch() throws {
        XCTAssertNotNil(OthelloPatternWeights.trained, "this build has trained weights")
        for weights in [nil, OthelloPatternWeights.trained] {
            try checkTheFixedDepthSearch(weights: weights)
        }
    }

    func checkTheFixedDepthSearch(weights: OthelloPatternWeights?) throws {
        let limits = OthelloSearch.Limits(maxDepth: 3, nodes: .max, exactEmpties: 0, trained: weights != nil)
        var compared = 0
        for (own, opp) in try Self.positions(seeds: 1...6, every: 7, where: { $0 > 10 }) {
            let expected = Self.plain(own, opp, depth: 3, weights: weights)
            let search = OthelloSearch(limits: limits)
            let full = search.search(
                own, opp, depth: 3, alpha: -OthelloSearch.infinity, beta: OthelloSearch.infinity, ply: 1)
            XCTAssertEqual(full, expected)
            // The root picks a move whose plain value is the best one.
            let choice = OthelloSearch(limits: limits).choose(own, opp)
            if OthelloBitboard.moves(own, opp).nonzeroBitCount > 1 {
                XCTAssertEqual(choice.value, expected)
                let f = OthelloBitboard.flips(own, opp, square: choice.square)
                XCTAssertEqual(
                    -Self.plain(opp & ~f, own | f | (1 << UInt64(choice.square)), depth: 2, weights: weights), expected)
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 20)
    }

    func testTheEndgameSolverIsExact() throws {
        let limits = OthelloSearch.Limits(maxDepth: 4, nodes: .max, exactEmpties: 9)
        var compared = 0
        for (own, opp) in try Self.positions(seeds: 1...30, where: { (7...9).contains($0) }) {
            let truth = Self.bruteForce(own, opp)
            // Above the shallow solver's empties (the ordered, tabled part) and below it.
            XCTAssertEqual(OthelloSearch(limits: limits).solve(own, opp, alpha: -65, beta: 65, ply: 1), truth)
            XCTAssertEqual(
                OthelloSearch(limits: limits).solveShallow(own, opp, alpha: -65, beta: 65, passed: false), truth)
            // A narrow window gives a bound on the right side of the truth.
            let low = OthelloSearch(limits: limits).solve(own, opp, alpha: truth, beta: truth + 1, ply: 1)
            XCTAssertLessThanOrEqual(low, truth)
            let choice = OthelloSearch(limits: limits).choose(own, opp)
            if OthelloBitboard.moves(own, opp).nonzeroBitCount > 1 {
                XCTAssertTrue(choice.exact)
                XCTAssertEqual(choice.value, truth)
                let f = OthelloBitboard.flips(own, opp, square: choice.square)
                XCTAssertEqual(-Self.bruteForce(opp & ~f, own | f | (1 << UInt64(choice.square))), truth)
            }
            compared += 1
        }
        XCTAssertGreaterThan(compared, 40)
    }

    /// A budget too small to finish an exact solve still yields a legal move (the midgame search's).
    func testAnAbortedSearchStillPlaysALegalMove() throws {
        let tiny = OthelloSearch.Limits(maxDepth: 20, nodes: 50, exactEmpties: 30)
        for (own, opp) in try Self.positions(seeds: 1...3, every: 3) {
            let choice = OthelloSearch(limits: tiny).choose(own, opp)
            XCTAssertNotEqual(OthelloBitboard.moves(own, opp) & (1 << UInt64(choice.square)), 0)
        }
    }

    /// Easy and medium play only legal moves (the playout stops on an illegal one) and the same game twice; the
    /// search, on a small budget (a debug build is slow), plays legally against random play and beats it.
    func testLevelsPlayLegallyAndRepeatably() throws {
        let entry = try XCTUnwrap(GameCatalog.standard["othello"])
        for pair in [["easy", "medium"], ["medium", "easy"]] {
            let request = PlayoutRequest(players: 2, games: 2, seed: 5, bots: pair)
            let a = try entry.playout(request)
            XCTAssertEqual(a.transcript, try entry.playout(request).transcript, "\(pair)")
        }
        let small = OthelloSearch.Limits(maxDepth: 8, nodes: 2_000, exactEmpties: 10)
        for seed: UInt64 in 1...4 {
            var state = try OthelloState(players: 2, seed: seed)
            let searcher = Int(seed % 2)
            var bots: [any Bot<OthelloState>] = [
                OthelloSearchBot(kind: "small", limits: small), RandomBot(rng: botRNG(gameSeed: seed, seat: 1)),
            ]
            if searcher == 1 { bots.reverse() }
            while case .seat(let seat) = state.turn {
                let move = bots[seat].chooseMove(in: state, seat: seat)
                XCTAssertTrue(state.legalMoves().contains(move))
                try state.apply(move)
            }
            XCTAssertEqual(state.outcome?.winners, [searcher], "seed \(seed)")
        }
    }

    /// The move depends on the position only: a bot asked twice, or a new bot, answers the same.
    func testTheSearchBotsMoveIsAFunctionOfThePosition() throws {
        let limits = OthelloSearch.Limits(maxDepth: 6, nodes: 3_000, exactEmpties: 8)
        var bot = OthelloSearchBot(kind: "test", limits: limits)
        var state = try OthelloState(players: 2, seed: 1)
        var rng = TavoloRNG(seed: 3)
        while case .seat(let seat) = state.turn {
            let first = bot.chooseMove(in: state, seat: seat)
            var fresh = OthelloSearchBot(kind: "test", limits: limits)
            XCTAssertEqual(bot.chooseMove(in: state, seat: seat), first)
            XCTAssertEqual(fresh.chooseMove(in: state, seat: seat), first)
            XCTAssertTrue(state.legalMoves().contains(first))
            let legal = state.legalMoves()
            try state.apply(state.moveNumber % 2 == 0 ? first : legal[rng.below(legal.count)])
        }
    }
}
