import Foundation
import TavoloCore
import XCTest

@testable import TavoloGames

/// Rounds seen in the current game, to check every game goes 1, 2, 3 and ends.
private final class RoundTracker: @unchecked Sendable {
    var last = 0
}

final class SpiritsPlayoutTests: XCTestCase {
    func harness() -> RandomPlayoutHarness<SpiritsState> {
        let tracker = RoundTracker()
        var h = RandomPlayoutHarness<SpiritsState>()
        h.check = { state in
            if state.moveNumber == 0 {
                XCTAssertEqual(state.round, 1)
                tracker.last = 1
            }
            XCTAssertTrue(state.round == tracker.last || state.round == tracker.last + 1, "rounds go one at a time")
            tracker.last = state.round
            XCTAssertTrue(state.cardsAccountedFor, "54 cards in hands, draw pile, pile and removed")
            XCTAssertLessThanOrEqual(state.fear, 7)
            for s in 0..<state.playerCount {
                XCTAssertGreaterThanOrEqual(state.ghosts[s], 0)
                XCTAssertGreaterThanOrEqual(state.ghosts[s], state.roundGhosts[s])
                XCTAssertLessThanOrEqual(state.hands[s].total, 5)
            }
            XCTAssertEqual(state.pile.isEmpty, state.top == nil)
            if state.isTerminal {
                XCTAssertEqual(state.round, 3, "the game ends after exactly 3 rounds")
                XCTAssertNotNil(state.outcome)
            } else {
                XCTAssertNil(state.outcome)
                XCTAssertEqual(state.phase == .open, state.pile.isEmpty)
                XCTAssertGreaterThan(state.hands[state.turnSeat].total, 0, "the seat to play has cards")
            }
        }
        // Every few moves, try a card the seat does not hold (or a flee when it may play).
        h.illegalMove = { state in
            guard state.moveNumber % 5 == 0, let seat = state.turn.seat else { return nil }
            let (kinds, flee) = state.legalKinds
            if !flee { return .flee(open: kinds.element(at: 0)) }
            let missing = (0..<18).first { state.hands[seat].count(of: SpiritsCard(unchecked: UInt8($0))) == 0 }
            return missing.map { .play(SpiritsCard(unchecked: UInt8($0))) }
        }
        h.deepCheckEvery = 10
        return h
    }

    func testRandomPlayoutsTwoToSixPlayers() throws {
        for players in 2...6 {
            try harness().run(players: players, games: 2000, firstSeed: 1000 * UInt64(players))
        }
    }

    func testSameSeedSameTranscript() throws {
        let entry = try XCTUnwrap(GameCatalog.standard["spirits"])
        let bots = ["heuristic", "random", "random"]
        let a = try entry.transcript(players: 3, seed: 5, bots: bots)
        let b = try entry.transcript(players: 3, seed: 5, bots: bots)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, try entry.transcript(players: 3, seed: 6, bots: bots))
        XCTAssertTrue(a.contains { $0.contains("round 3 begins") })
        let request = PlayoutRequest(
            players: 6, games: 50, seed: 7, bots: ["heuristic"] + Array(repeating: "random", count: 5))
        let r1 = try entry.playout(request)
        let r2 = try entry.playout(request)
        XCTAssertEqual(r1.transcript, r2.transcript)
        XCTAssertEqual(r1.totalMoves, r2.totalMoves)
        XCTAssertEqual(r1.seats, r2.seats)
        try harness().runTwiceAndCompare(players: 4, games: 20)
    }

    /// The specialised random bot makes exactly the choices of the generic `RandomBot`.
    func testSpiritsRandomBotMatchesGenericRandomBot() throws {
        for seed in UInt64(1)...30 {
            var a = try SpiritsState(players: 5, seed: seed)
            var fast = (0..<5).map { SpiritsRandomBot(rng: botRNG(gameSeed: seed, seat: $0)) }
            var generic = (0..<5).map { RandomBot<SpiritsState>(rng: botRNG(gameSeed: seed, seat: $0)) }
            while case .seat(let s) = a.turn {
                let m = fast[s].chooseMove(in: a, seat: s)
                XCTAssertEqual(m, generic[s].chooseMove(in: a, seat: s))
                try a.apply(m)
            }
        }
    }

    /// Bots see only the observation: states that look the same to the seat to play, but differ in the other
    /// hands and the draw pile, get the same move.
    func testBotsUseOnlyTheObservation() throws {
        var checked = 0
        for seed in UInt64(1)...60 {
            let players = 2 + Int(seed % 5)
            var state = try SpiritsState(players: players, seed: seed)
            var bots = (0..<players).map { SpiritsRandomBot(rng: botRNG(gameSeed: seed, seat: $0)) }
            var reshuffle = TavoloRNG(seed: seed, stream: 77)
            while case .seat(let s) = state.turn {
                if state.moveNumber % 3 == 0 {
                    var other = state
                    // Redistribute every card the seat cannot see, keeping hand sizes and the draw pile size.
                    var hidden = state.drawPile.map { $0 }
                    for o in 0..<players where o != s { hidden += state.hands[o].cards }
                    reshuffle.shuffle(&hidden)
                    var rest = hidden[...]
                    for o in 0..<players where o != s {
                        let n = state.hands[o].total
                        other.hands[o] = SpiritsCardCounts(rest.prefix(n))
                        rest = rest.dropFirst(n)
                    }
                    other.dealtDeck.replaceSubrange(state.drawIndex..., with: rest)
                    XCTAssertTrue(other.cardsAccountedFor)
                    XCTAssertEqual(other.observation(for: s), state.observation(for: s))
                    var h1 = SpiritsHeuristicBot(rng: botRNG(gameSeed: seed, seat: s))
                    var h2 = h1
                    XCTAssertEqual(h1.chooseMove(in: state, seat: s), h2.chooseMove(in: other, seat: s))
                    if other.canonicalBytes != state.canonicalBytes { checked += 1 }
                }
                try state.apply(bots[s].chooseMove(in: state, seat: s))
            }
        }
        XCTAssertGreaterThan(checked, 500)
    }

    /// The heuristic picks legal moves in every position it meets.
    func testHeuristicAlwaysLegal() throws {
        let entry = try XCTUnwrap(GameCatalog.standard["spirits"])
        for players in 2...6 {
            _ = try entry.playout(
                PlayoutRequest(
                    players: players, games: 100, seed: 11, bots: Array(repeating: "heuristic", count: players)))
        }
    }
}
