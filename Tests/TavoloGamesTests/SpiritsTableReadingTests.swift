import TavoloCore
import XCTest

@testable import TavoloGames

/// What the table tells the searching bot of the other hands: a flee (`SpiritsFleeClues`), which the sampled worlds
/// keep to, and the seats' last plays (`SpiritsLastPlays`), by which it weighs them.
final class SpiritsTableReadingTests: XCTestCase {
    /// Seat 1 must flee onto a yellow 3 at Fear 6: it holds no yellow card and no 1. It opens with B2 and draws, so
    /// two of its three cards are still of those kinds; a card it then plays outside them was the one it drew.
    func testAFleeTellsWhatTheHandHeld() throws {
        var state = try SpiritsState(
            testPlayers: 3, hands: [spirits("R1 R2"), spirits("B2 G3 O2"), spirits("P1 P2")],
            pile: spirits("R3 Y3"), drawPile: spirits("Y1 B1 B3 G1"), turn: 1)
        XCTAssertTrue(state.fleeClues.allowed(1).isEmpty)
        try state.apply(.flee(open: SpiritsCard(.blue, 2)))
        let clues = state.observation(for: 0).fleeClues
        let allowed = clues.allowed(1)
        XCTAssertEqual(allowed.count, 10, "five colours other than yellow, values 2 and 3")
        XCTAssertTrue(allowed.allSatisfy { $0.colour != .yellow && $0.value >= 2 })
        XCTAssertEqual(clues.heldAtLeast(1, handSize: 3), 2)
        XCTAssertEqual(clues.heldAtLeast(0, handSize: 2), 0, "seat 0 has not fled")

        // Seats 2 and 0 play on, then seat 1 plays the Y1 it drew (outside the allowed kinds) and draws again: two
        // of its three cards are still old.
        try state.apply(.play(SpiritsCard(.purple, 1)))
        try state.apply(.play(SpiritsCard(.red, 1)))
        XCTAssertEqual(state.turnSeat, 1)
        XCTAssertEqual(state.hands[1], SpiritsCardCounts(spirits("G3 O2 Y1")))
        try state.apply(.play(SpiritsCard(.yellow, 1)))
        XCTAssertEqual(state.fleeClues.heldAtLeast(1, handSize: state.hands[1].total), 2)
    }

    /// A seat's clue lasts the round only.
    func testANewRoundForgetsTheFlees() throws {
        var state = try SpiritsState(players: 4, seed: 12)
        var rng = TavoloRNG(seed: 12, stream: 0x5C)
        var sawClue = false
        while state.round == 1, case .seat = state.turn {
            let legal = state.legalMoves()
            try state.apply(legal[rng.below(legal.count)])
            sawClue = sawClue || (0..<4).contains { !state.fleeClues.allowed($0).isEmpty }
        }
        XCTAssertTrue(sawClue)
        XCTAssertEqual(state.round, 2)
        XCTAssertEqual(state.fleeClues, SpiritsFleeClues())
    }

    /// Over random games, every sampled world gives each seat that fled at least `heldAtLeast` cards of its allowed
    /// kinds, and so does the real deal (the clue is true); sampling that ignores the clues breaks it, so the check
    /// can fail.
    func testSampledHandsKeepToTheClues() throws {
        var kept = 0
        var brokenWithoutClues = 0
        for seed in UInt64(1)...20 {
            var state = try SpiritsState(players: 6, seed: seed)
            var rng = TavoloRNG(seed: seed, stream: 0x5C)
            while case .seat(let seat) = state.turn {
                let obs = state.observation(for: seat)
                var blind = obs
                blind.fleeClues = SpiritsFleeClues()
                let world = SpiritsState(sampling: obs, rng: &rng)
                let ignorant = SpiritsState(sampling: blind, rng: &rng)
                XCTAssertEqual(world.observation(for: seat), obs)
                for s in 0..<6 where s != seat {
                    let need = obs.fleeClues.heldAtLeast(s, handSize: obs.handSizes[s])
                    guard need > 0 else { continue }
                    let allowed = obs.fleeClues.allowed(s)
                    XCTAssertGreaterThanOrEqual(state.hands[s].count(in: allowed), need, "the real hand, seed \(seed)")
                    XCTAssertGreaterThanOrEqual(world.hands[s].count(in: allowed), need, "seed \(seed)")
                    if ignorant.hands[s].count(in: allowed) < need { brokenWithoutClues += 1 }
                    kept += 1
                }
                let legal = state.legalMoves()
                try state.apply(legal[rng.below(legal.count)])
            }
        }
        XCTAssertGreaterThan(kept, 100)
        XCTAssertGreaterThan(brokenWithoutClues, 10)
    }

    /// Each seat's last play is kept with the pile it went onto; a flee's card counts as an opening.
    func testLastPlaysKeepWhatEachSeatPlayedOnto() throws {
        var state = try SpiritsState(
            testPlayers: 3, hands: [spirits("R1 R2"), spirits("B2 G3 O2"), spirits("P1 P2")],
            pile: spirits("R3 Y3"), drawPile: spirits("Y1 B1"), turn: 1, clockwise: false)
        XCTAssertNil(state.lastPlays.last(1))
        try state.apply(.flee(open: SpiritsCard(.blue, 2)))
        XCTAssertEqual(
            state.lastPlays.last(1),
            .init(card: SpiritsCard(.blue, 2), top: nil, fear: 0, clockwise: false, drew: true))
        try state.apply(.play(SpiritsCard(.red, 2)))  // seat 0 (counter-clockwise) draws the last card
        XCTAssertEqual(
            state.lastPlays.last(0),
            .init(card: SpiritsCard(.red, 2), top: SpiritsCard(.blue, 2), fear: 2, clockwise: false, drew: true))
        try state.apply(.play(SpiritsCard(.purple, 1)))  // seat 2: nothing left to draw
        XCTAssertEqual(
            state.lastPlays.last(2),
            .init(card: SpiritsCard(.purple, 1), top: SpiritsCard(.red, 2), fear: 4, clockwise: false, drew: false))
        XCTAssertEqual(state.observation(for: 0).lastPlays, state.lastPlays)
    }

    /// In games of six heuristic seats, the real deal explains the seats' last plays far better than a world dealt
    /// from the observation with nothing read: the likelihood measures what it should. (Seeds 1–3, 414 positions:
    /// a mean of 0.70 for the real deal, never 0; 0.18 for a sampled world.)
    func testTheRealDealExplainsTheHeuristicsPlays() throws {
        var real = 0.0
        var sampled = 0.0
        var realZero = 0
        var positions = 0
        for seed in UInt64(1)...3 {
            var state = try SpiritsState(players: 6, seed: seed)
            var rng = TavoloRNG(seed: seed, stream: 0x5C)
            let heuristic = SpiritsHeuristicBot(rng: TavoloRNG(seed: 0))
            while case .seat(let seat) = state.turn {
                let world = SpiritsState(sampling: state.observation(for: seat), rng: &rng)
                let r = state.lastPlaysLikelihood(observer: seat, floor: 0)
                real += r
                sampled += world.lastPlaysLikelihood(observer: seat, floor: 0)
                if r == 0 { realZero += 1 }
                positions += 1
                try state.apply(heuristic.choose(state.observation(for: seat)))
            }
        }
        XCTAssertGreaterThan(positions, 100)
        XCTAssertGreaterThan(real, 2 * sampled, "real \(real), sampled \(sampled) over \(positions) positions")
        XCTAssertLessThan(Double(realZero), 0.1 * Double(positions), "the real deal rarely looks impossible")
        XCTAssertGreaterThan(real, 0.5 * Double(positions), "the real deal mostly explains every last play")
    }
}
