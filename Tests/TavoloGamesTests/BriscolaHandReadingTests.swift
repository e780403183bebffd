import TavoloCore
import XCTest

@testable import TavoloGames

/// The expert's read of the table (`BriscolaRecentTricks`, `BriscolaHandReading`): what is remembered, that it is
/// public, and that it points at the real hand more than at a hand dealt at random.
final class BriscolaHandReadingTests: XCTestCase {
    func testRecentTricksKeepTheLastFourNewestFirst() {
        var recent = BriscolaRecentTricks()
        let cards = (0..<10).map { Card(uncheckedID: UInt8($0 * 4)) }
        for i in 0..<5 {
            recent.push(leader: i % 2, lead: cards[2 * i], reply: cards[2 * i + 1], drew: i < 3)
        }
        XCTAssertEqual(recent.count, BriscolaRecentTricks.capacity)
        for back in 0..<4 {
            let i = 4 - back
            let trick = recent[back]
            XCTAssertEqual(trick.leader, i % 2)
            XCTAssertEqual(trick.lead, cards[2 * i])
            XCTAssertEqual(trick.reply, cards[2 * i + 1])
            XCTAssertEqual(trick.drew, i < 3)
            XCTAssertEqual(trick.card(of: i % 2), cards[2 * i])
            XCTAssertEqual(trick.card(of: 1 - i % 2), cards[2 * i + 1])
        }
    }

    /// The tricks a state remembers are the ones played, every seat sees them, and a world sampled from a seat's
    /// observation remembers the same (so a bot cannot tell the real deal from a sampled one by them).
    func testTricksAreRememberedSeenByBothSeatsAndKeptBySampling() throws {
        var state = try BriscolaState(players: 2, seed: 7)
        var rng = TavoloRNG(seed: 7, stream: 0xA1)
        var played: [(leader: Int, cards: [Card], drew: Bool)] = []
        while !state.isOver {
            let legal = state.legalMoves()
            let leader = state.leader
            let pileBefore = state.pileCount
            try state.apply(legal[rng.below(legal.count)])
            if state.table.isEmpty, let last = state.recentTricks.count > 0 ? state.recentTricks[0] : nil {
                played.append((leader, [last.lead, last.reply], pileBefore > 0))
                XCTAssertEqual(last.leader, leader)
                XCTAssertEqual(last.drew, pileBefore > 0)
            }
            for seat in 0..<2 {
                let obs = state.observation(for: seat)
                XCTAssertEqual(obs.recentTricks, state.recentTricks)
                var sampler = TavoloRNG(seed: 3, stream: UInt64(seat))
                XCTAssertEqual(BriscolaState(sampling: obs, rng: &sampler).recentTricks, state.recentTricks)
            }
        }
        XCTAssertEqual(played.count, 20)
        XCTAssertEqual(state.recentTricks.count, 4)
        // Not in the JSON: a state's and an observation's encodings are what they were.
        let json = String(decoding: try CanonicalJSON.encode(state.observation(for: 0)), as: UTF8.self)
        XCTAssertFalse(json.contains("recent"))
    }

    /// Against the strong bot (fewer worlds, so the test is quick), the read ranks its real hand above most hands
    /// dealt at random from the same observation: over 60 positions, the share of sampled hands it gives a lower
    /// likelihood than the real one (ties half) is well over a half.
    func testTheRealHandExplainsThePlaysBetterThanSampledOnes() throws {
        var rank = 0.0
        let positions = 60
        for seed in UInt64(1)...UInt64(positions) {
            var state = try BriscolaState(players: 2, seed: seed)
            var rng = TavoloRNG(seed: seed, stream: 0xA2)
            var strong = BriscolaStrongBot(rng: TavoloRNG(seed: seed, stream: 0xA3), worlds: 16)
            // Seat 1 is the strong bot, seat 0 plays at random, until seat 0 has a choice mid-game.
            while state.moveNumber < 14 || state.current != 0 {
                let legal = state.legalMoves()
                let move = state.current == 1 ? strong.chooseMove(in: state, seat: 1) : legal[rng.below(legal.count)]
                try state.apply(move)
            }
            let obs = state.observation(for: 0)
            let reading = try XCTUnwrap(BriscolaHandReading(obs, depth: 3))
            var theirs = state.hands[1]
            if let led = obs.table.first { theirs.insert(led) }
            let real = reading.likelihood(handNow: theirs)
            for k in 0..<20 {
                var sampler = TavoloRNG(seed: seed, stream: 0x100 + UInt64(k))
                var hand = BriscolaState(sampling: obs, rng: &sampler).hands[1]
                if let led = obs.table.first { hand.insert(led) }
                let other = reading.likelihood(handNow: hand)
                rank += (other < real ? 1 : other == real ? 0.5 : 0) / Double(20 * positions)
            }
        }
        XCTAssertGreaterThan(rank, 0.6)
    }

    /// The play model's probabilities over a hand add up to one, and on an Asso led it takes the trick with a small
    /// trump rather than throw a plain card, and throws a plain card rather than give its Tre away.
    func testThePlayModelIsADistribution() throws {
        let hand = CardSet([try card("3C"), try card("5C"), try card("4S")])
        let led = try card("1C")  // the Asso di Coppe, 11 points
        var total = 0.0
        for c in hand {
            total += BriscolaPlayModel.probability(of: c, hand: hand, led: led, trump: .spade, pile: 20)
        }
        XCTAssertEqual(total, 1, accuracy: 1e-9)
        let takeWithTrump = BriscolaPlayModel.probability(
            of: try card("4S"), hand: hand, led: led, trump: .spade, pile: 20)
        let throwPlain = BriscolaPlayModel.probability(
            of: try card("5C"), hand: hand, led: led, trump: .spade, pile: 20)
        let giveTre = BriscolaPlayModel.probability(of: try card("3C"), hand: hand, led: led, trump: .spade, pile: 20)
        XCTAssertGreaterThan(takeWithTrump, throwPlain)
        XCTAssertGreaterThan(throwPlain, giveTre)
    }

    /// The score the search computes, written out, is the features the fit uses times the weights.
    func testTheWrittenOutScoreIsTheFeaturesTimesTheWeights() {
        func dot(_ f: [Double], _ w: [Double]) -> Double { zip(f, w).reduce(0) { $0 + $1.0 * $1.1 } }
        for trump in [Suit.coppe, .bastoni] {
            for card in Card.all {
                for pile in [2, 10, 11, 30] {
                    let lead = dot(
                        BriscolaPlayModel.leadFeatures(card, trump: trump, pile: pile), BriscolaPlayModel.leadWeights)
                    XCTAssertEqual(
                        BriscolaPlayModel.score(card, led: nil, trump: trump, pile: pile), lead, accuracy: 1e-9)
                }
                for led in Card.all where led != card {
                    let reply = dot(
                        BriscolaPlayModel.replyFeatures(card, led: led, trump: trump), BriscolaPlayModel.replyWeights)
                    XCTAssertEqual(
                        BriscolaPlayModel.score(card, led: led, trump: trump, pile: 20), reply, accuracy: 1e-9)
                }
            }
        }
    }

    private func card(_ code: String) throws -> Card { try XCTUnwrap(Card(code: code)) }
}
