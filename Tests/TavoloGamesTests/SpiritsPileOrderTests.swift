import TavoloCore
import XCTest

@testable import TavoloGames

/// The pile in the order played (issue 34): the observation lists it by card, the clients order it from the moves.
final class SpiritsPileOrderTests: XCTestCase {
    /// Whole seeded games: after every move, the order rebuilt from the moves is the pile as it was played (kept
    /// here by hand: a play adds its card, a flee starts over with its card, a new round starts empty).
    func testThePileRebuiltFromTheMovesIsThePileAsPlayed() throws {
        for seed in UInt64(1)...40 {
            var state = try SpiritsState(players: 2 + Int(seed % 5), seed: seed)
            var rng = TavoloRNG(seed: seed)
            var played: [SpiritsCard] = []
            var expected: [SpiritsCard] = []
            while let seat = state.turn.seat {
                let moves = state.legalMoves()
                let move = moves[Int(rng.next() % UInt64(moves.count))]
                let round = state.round
                try state.apply(move)
                played.append(move.card)
                expected = move.isFlee ? [move.card] : expected + [move.card]
                if state.round != round || state.phase == .over { expected = [] }
                let obs = state.observation(for: seat)
                XCTAssertEqual(obs.pileInPlayOrder(newestMoves: played), expected, "seed \(seed), move \(played.count)")
            }
        }
    }

    /// Too few moves known (a node that sends none): the pile by card, but the top card last all the same.
    func testWithoutTheMovesTheTopIsStillLast() throws {
        let state = try SpiritsState(
            testPlayers: 2, hands: [spirits("B1 B2"), spirits("Y1")], pile: spirits("P3 R2 O2"), turn: 0)
        let obs = state.observation(for: 0)
        XCTAssertEqual(obs.pile.cards, spirits("R2 O2 P3"), "the observation lists the pile by card")
        XCTAssertEqual(obs.pileInPlayOrder(newestMoves: []), spirits("R2 P3 O2"))
        XCTAssertEqual(obs.pileInPlayOrder(newestMoves: spirits("G1 P3 R2 O2")), spirits("P3 R2 O2"))
    }
}
