import TavoloCore
import XCTest

@testable import TavoloGames

/// The expert's exact ending (`BriscolaEndgame`) against the strong bot's solver, where both must agree: once the
/// pile is empty nothing is hidden with two players, so both are plain minimax over the same tricks.
final class BriscolaEndgameTests: XCTestCase {
    func testEndgameAgreesWithTheStrongBotsSolverOnceThePileIsEmpty() throws {
        var compared = 0
        for seed in UInt64(1)...40 {
            var state = try BriscolaState(players: 2, seed: seed)
            var rng = TavoloRNG(seed: seed, stream: 0xE6)
            while state.pileCount > 0 || !state.table.isEmpty {
                let legal = state.legalMoves()
                try state.apply(legal[rng.below(legal.count)])
            }
            let seat = state.current
            let p = state.capturedPoints
            let position = BriscolaEndgame(
                hands: (state.hands[seat], state.hands[1 - seat]), pool: CardSet(), trumpInPile: false,
                trumpCard: try XCTUnwrap(state.trumpCard), points: (p[seat], p[1 - seat]), leader: 0, led: nil,
                winBonus: 40)
            let exact = position.search(alpha: -Double.infinity, beta: Double.infinity)
            let solved = BriscolaStrongBot.solve(state, seat: seat, alpha: Int.min, beta: Int.max)
            XCTAssertEqual(exact, Double(solved), "seed \(seed)")
            compared += 1
        }
        XCTAssertEqual(compared, 40)
    }

    /// With two draws left the expert enumerates the opponent's hands: its card is legal and the same for the same
    /// observation, whatever the real deal (`BotHiddenCardsTests` asks it at some moves only).
    func testExpertEndingIsLegalAndDecidedFromTheObservation() throws {
        for seed in UInt64(1)...6 {
            var state = try BriscolaState(players: 2, seed: seed)
            var rng = TavoloRNG(seed: seed, stream: 0xE7)
            while state.pileCount > BriscolaExpertBot.defaultEndgamePile {
                let legal = state.legalMoves()
                try state.apply(legal[rng.below(legal.count)])
            }
            while state.pileCount > 0 {
                let seat = state.current
                let twin = BriscolaState(sampling: state.observation(for: seat), rng: &rng)
                var a = BriscolaExpertBot(rng: botRNG(gameSeed: seed, seat: seat))
                var b = BriscolaExpertBot(rng: botRNG(gameSeed: seed, seat: seat))
                let move = a.chooseMove(in: state, seat: seat)
                XCTAssertEqual(move, b.chooseMove(in: twin, seat: seat), "seed \(seed)")
                XCTAssertTrue(state.legalMoves().contains(move), "seed \(seed)")
                try state.apply(move)
            }
        }
    }
}
