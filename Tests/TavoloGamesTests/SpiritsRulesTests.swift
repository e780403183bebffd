import Foundation
import TavoloCore
import XCTest

@testable import TavoloGames

/// `"R1 B3"` → cards.
func spirits(_ text: String) -> [SpiritsCard] {
    text.split(separator: " ").map { word in
        guard let card = SpiritsCard(String(word)) else { preconditionFailure("bad card \(word)") }
        return card
    }
}

/// One scripted test per rule of RULES.md "Spirits!" (1–9), plus rejections.
final class SpiritsRulesTests: XCTestCase {
    func testCardEncodingAndNames() {
        XCTAssertEqual(SpiritsCard(.red, 1).rawValue, 0)
        XCTAssertEqual(SpiritsCard(.purple, 3).rawValue, 17)
        XCTAssertEqual(SpiritsCard(.blue, 2).description, "B2")
        XCTAssertEqual(SpiritsCard(.blue, 2).longName, "blue 2")
        XCTAssertEqual(SpiritsCard("o3"), SpiritsCard(.orange, 3))
        XCTAssertNil(SpiritsCard("X1"))
        XCTAssertNil(SpiritsCard("R4"))
        XCTAssertNil(SpiritsCard(rawValue: 18))
        XCTAssertEqual(SpiritsCard.orderedDeck.count, 54)
        XCTAssertEqual(SpiritsCardCounts(SpiritsCard.orderedDeck), .fullDeck)
        for m in 0...3 {
            let kinds = Array(SpiritsKindMask.valuesUpTo(m))
            XCTAssertEqual(kinds.count, 6 * m)
            XCTAssertTrue(kinds.allSatisfy { $0.value <= m })
        }
        for move in [SpiritsMove.play(SpiritsCard(.green, 2)), .flee(open: SpiritsCard(.red, 1))] {
            XCTAssertEqual(SpiritsMove(code: move.code), move)
            let data = try? JSONEncoder().encode(move)
            XCTAssertEqual(data.flatMap { try? JSONDecoder().decode(SpiritsMove.self, from: $0) }, move)
        }
        XCTAssertLessThan(SpiritsMove.play(SpiritsCard(.purple, 3)), .flee(open: SpiritsCard(.red, 1)))
    }

    func testRule1ThreeRoundsOfFiveCardDeals() throws {
        for players in 2...6 {
            let state = try SpiritsState(players: players, seed: 42)
            XCTAssertEqual(state.round, 1)
            XCTAssertEqual(SpiritsCardCounts(state.dealtDeck), .fullDeck, "a round deals all 54 cards")
            XCTAssertEqual(state.drawPileSize, 54 - 5 * players)
            for s in 0..<players {
                XCTAssertEqual(state.hands[s].total, 5)
                let dealt = stride(from: s, to: 5 * players, by: players).map { state.dealtDeck[$0] }
                XCTAssertEqual(state.hands[s], SpiritsCardCounts(dealt), "card i goes to seat i mod players")
            }
            XCTAssertTrue(state.cardsAccountedFor)
        }
        // A whole game: rounds 1, 2, 3 in order, a fresh shuffle each round, then the end.
        var state = try SpiritsState(players: 4, seed: 9)
        var bots = (0..<4).map { SpiritsRandomBot(rng: botRNG(gameSeed: 9, seat: $0)) }
        var decks = [state.dealtDeck]
        var rounds = [1]
        while case .seat(let s) = state.turn {
            try state.apply(bots[s].chooseMove(in: state, seat: s))
            if state.round != rounds.last {
                rounds.append(state.round)
                decks.append(state.dealtDeck)
                XCTAssertEqual(state.drawPileSize, 54 - 20)
                XCTAssertTrue((0..<4).allSatisfy { state.hands[$0].total == 5 })
            }
        }
        XCTAssertEqual(rounds, [1, 2, 3])
        XCTAssertEqual(state.round, 3)
        XCTAssertEqual(Set(decks.map { $0.map(\.rawValue) }).count, 3, "each round reshuffles")
        // The shuffle is TavoloRNG's Fisher–Yates from canonical order, after picking the starter.
        var rng = TavoloRNG(seed: 9)
        _ = rng.below(4)
        var deck = SpiritsCard.orderedDeck
        rng.shuffle(&deck)
        XCTAssertEqual(decks[0], deck)
    }

    func testRule2StartingPlayerAndDirection() throws {
        for seed in UInt64(0)..<20 {
            var rng = TavoloRNG(seed: seed)
            let state = try SpiritsState(players: 5, seed: seed)
            XCTAssertEqual(state.turn, .seat(rng.below(5)), "round 1 starter from the game's stream")
            XCTAssertEqual(state.roundStarter, state.turnSeat)
            XCTAssertTrue(state.clockwise)
            XCTAssertEqual(state.phase, .open)
        }
        // Round 1 ends counter-clockwise; seats 1 and 2 tie on most ghosts: seat 1 starts round 2, clockwise.
        var state = try SpiritsState(
            testPlayers: 3, hands: [spirits("R1"), spirits("G1"), []], turn: 0, clockwise: false,
            ghosts: [1, 4, 4], roundGhosts: [1, 1, 1])
        try state.apply(.play(SpiritsCard(.red, 1)))
        XCTAssertEqual(state.round, 2)
        XCTAssertEqual(state.turn, .seat(1))
        XCTAssertEqual(state.roundStarter, 1)
        XCTAssertTrue(state.clockwise)
        XCTAssertEqual(state.ghosts.prefix(3), [1, 4, 4])
        XCTAssertEqual(state.roundGhosts.prefix(3), [0, 0, 0])
    }

    func testRule3OpenerPlaysAnyCardAndSetsFear() throws {
        var state = try SpiritsState(
            testPlayers: 2, hands: [spirits("R1 R1 B3 P2"), spirits("G1")], drawPile: spirits("Y2"), turn: 0)
        XCTAssertEqual(state.phase, .open)
        XCTAssertEqual(state.legalMoves(), spirits("R1 B3 P2").map { .play($0) }, "one move per kind, any card")
        try state.apply(.play(SpiritsCard(.blue, 3)))
        XCTAssertEqual(state.fear, 3)
        XCTAssertEqual(state.top, SpiritsCard(.blue, 3))
        XCTAssertEqual(state.phase, .follow)
        XCTAssertEqual(state.turn, .seat(1))
    }

    func testRule4NewSpiritAddsFearMirrorReversesDirection() throws {
        let base = try SpiritsState(
            testPlayers: 4, hands: [spirits("G1"), spirits("G2 G3 B1 R1 Y3"), spirits("O1"), spirits("P1")],
            pile: spirits("R3 B2"), drawPile: spirits("Y1 Y2"), turn: 1)
        XCTAssertEqual(base.fear, 5)
        // G3 would make 8; the mirror B1 and R1 (another colour than the top B2, 5 + 1) are fine.
        XCTAssertEqual(base.legalMoves(), spirits("R1 G2 B1").map { .play($0) })
        XCTAssertFalse(base.isLegal(.play(SpiritsCard(.green, 3))))

        var spirit = base
        try spirit.apply(.play(SpiritsCard(.green, 2)))
        XCTAssertEqual(spirit.fear, 7)
        XCTAssertTrue(spirit.clockwise)
        XCTAssertEqual(spirit.turn, .seat(2))

        var mirror = base
        try mirror.apply(.play(SpiritsCard(.blue, 1)))
        XCTAssertEqual(mirror.fear, 5, "a mirror leaves the Fear total unchanged")
        XCTAssertFalse(mirror.clockwise)
        XCTAssertEqual(mirror.turn, .seat(0), "and play goes back the other way")

        // At Fear 7 only mirrors are legal, whatever their value.
        let seven = try SpiritsState(
            testPlayers: 2, hands: [spirits("R3 B1 G1"), spirits("O1")], pile: spirits("R1 B3 G3"), turn: 0)
        XCTAssertEqual(seven.fear, 7)
        XCTAssertEqual(seven.legalMoves(), [.play(SpiritsCard(.green, 1))])
    }

    func testRule5DrawAfterPlayingWhileThePileLasts() throws {
        var state = try SpiritsState(
            testPlayers: 2, hands: [spirits("R1 R2"), spirits("B1 B2")], drawPile: spirits("Y2"), turn: 0)
        try state.apply(.play(SpiritsCard(.red, 1)))
        XCTAssertEqual(state.hands[0], SpiritsCardCounts(spirits("R2 Y2")))
        XCTAssertEqual(state.drawPileSize, 0)
        try state.apply(.play(SpiritsCard(.blue, 1)))
        XCTAssertEqual(state.hands[1], SpiritsCardCounts(spirits("B2")), "empty draw pile: no draw")
        XCTAssertTrue(state.cardsAccountedFor)
    }

    func testRule6FleeTakesGhostClearsPileAndOpensAgain() throws {
        let base = try SpiritsState(
            testPlayers: 3, hands: [spirits("G1"), spirits("Y1 O2"), spirits("P1")],
            pile: spirits("B3 G1 R3"), drawPile: spirits("P3 P2"), turn: 1, clockwise: false, ghosts: [0, 2, 0],
            roundGhosts: [0, 1, 0])
        XCTAssertEqual(base.fear, 7)
        XCTAssertEqual(base.legalMoves(), [.flee(open: SpiritsCard(.orange, 2)), .flee(open: SpiritsCard(.yellow, 1))])
        var state = base
        XCTAssertThrowsError(try state.apply(.play(SpiritsCard(.yellow, 1))))
        try state.apply(.flee(open: SpiritsCard(.yellow, 1)))
        XCTAssertEqual(state.ghosts[1], 3)
        XCTAssertEqual(state.roundGhosts[1], 2)
        XCTAssertEqual(state.pile, SpiritsCardCounts(spirits("Y1")), "the old pile is cleared")
        var removed = base.removed
        removed.formUnion(base.pile)
        XCTAssertEqual(state.removed, removed, "its cards are out of the round")
        XCTAssertEqual(state.fear, 1)
        XCTAssertEqual(state.top, SpiritsCard(.yellow, 1))
        XCTAssertEqual(state.hands[1], SpiritsCardCounts(spirits("O2 P3")), "then draws")
        XCTAssertFalse(state.clockwise)
        XCTAssertEqual(state.turn, .seat(0), "play continues in the current direction")
        XCTAssertTrue(state.cardsAccountedFor)
        // Fleeing is not allowed while a legal card exists.
        var hasCard = try SpiritsState(
            testPlayers: 2, hands: [spirits("R1 B1"), spirits("G1")], pile: spirits("R3"), turn: 0)
        XCTAssertThrowsError(try hasCard.apply(.flee(open: SpiritsCard(.blue, 1))))
    }

    func testRule7RoundEndsWhenSeatToPlayHasNoCards() throws {
        var state = try SpiritsState(
            testPlayers: 3, hands: [spirits("R1"), spirits("B1 B2"), spirits("G1")], turn: 0,
            roundGhosts: [1, 1, 1])
        try state.apply(.play(SpiritsCard(.red, 1)))
        XCTAssertEqual(state.round, 1, "seat 0 is empty but it is seat 1's turn")
        try state.apply(.play(SpiritsCard(.blue, 1)))
        try state.apply(.play(SpiritsCard(.green, 1)))
        XCTAssertEqual(state.round, 2, "seat 0 to play with no cards: the round is over")
        XCTAssertEqual(state.ghosts.prefix(3), [0, 0, 0], "seat 1's leftover B2 is discarded without effect")
        XCTAssertTrue(state.cardsAccountedFor)
    }

    func testRule8GhostsTakenStayOthersReturnUpToThree() throws {
        var state = try SpiritsState(
            testPlayers: 4, round: 2, hands: [spirits("R1"), [], spirits("B1"), spirits("G1")], turn: 0,
            ghosts: [5, 2, 4, 1], roundGhosts: [1, 0, 0, 1])
        try state.apply(.play(SpiritsCard(.red, 1)))
        XCTAssertEqual(state.round, 3)
        XCTAssertEqual(state.ghosts.prefix(4), [5, 0, 1, 1], "took ghosts: keep them; none taken: return up to 3")
        XCTAssertEqual(state.turn, .seat(0), "most ghosts after the returns starts")
    }

    func testRule9FewestGhostsWinTieOnRoundThreeThenShared() throws {
        func finish(ghosts: [Int], roundGhosts: [Int]) throws -> GameOutcome? {
            var state = try SpiritsState(
                testPlayers: 3, round: 3, hands: [spirits("R1"), [], spirits("B1")], turn: 0, ghosts: ghosts,
                roundGhosts: roundGhosts)
            try state.apply(.play(SpiritsCard(.red, 1)))
            XCTAssertEqual(state.turn, .terminal)
            XCTAssertTrue(state.legalMoves().isEmpty)
            return state.outcome
        }
        XCTAssertEqual(
            try finish(ghosts: [3, 3, 5], roundGhosts: [1, 2, 1]), GameOutcome(winners: [0], scores: [3, 3, 5]))
        XCTAssertEqual(
            try finish(ghosts: [3, 3, 5], roundGhosts: [2, 2, 1]), GameOutcome(winners: [0, 1], scores: [3, 3, 5]),
            "a remaining tie is a shared win")
        // Seat 2 took no ghost in round 3 and returns 3 before the count: 5 → 2 wins.
        XCTAssertEqual(
            try finish(ghosts: [3, 3, 5], roundGhosts: [1, 1, 0]), GameOutcome(winners: [2], scores: [3, 3, 2]))
        XCTAssertEqual(SpiritsState.scoreName, "ghosts")
        XCTAssertTrue(SpiritsState.lowerScoreIsBetter)
    }

    func testIllegalMovesThrowAndLeaveStateUnchanged() throws {
        let state = try SpiritsState(
            testPlayers: 3, hands: [spirits("G3 B1"), spirits("Y1 O2"), spirits("P1")], pile: spirits("R3 B2"),
            drawPile: spirits("P3"), turn: 0)
        let before = state.stateHash
        let bad: [SpiritsMove] = [
            .play(SpiritsCard(.green, 3)),  // 5 + 3 > 7
            .play(SpiritsCard(.purple, 1)),  // not in hand
            .flee(open: SpiritsCard(.blue, 1)),  // has a legal card
        ]
        for move in bad {
            var copy = state
            XCTAssertThrowsError(try copy.apply(move)) { error in
                XCTAssertEqual((error as? MoveError)?.code, .illegal, "\(move)")
                XCTAssertEqual((error as? MoveError)?.code.rawValue, "move/illegal")
            }
            XCTAssertEqual(copy.stateHash, before)
            XCTAssertEqual(copy.moveNumber, 0)
        }
        // A move that cannot be decoded is malformed, not applied.
        XCTAssertThrowsError(try JSONDecoder().decode(SpiritsMove.self, from: Data(#"{"play":"Z9"}"#.utf8)))
        XCTAssertNil(SpiritsMove(code: 18))
        XCTAssertNil(SpiritsMove(code: 64))
        // After the end: move/game-over.
        var over = try SpiritsState(testPlayers: 2, round: 3, hands: [spirits("R1"), []], turn: 0)
        try over.apply(.play(SpiritsCard(.red, 1)))
        let end = over.stateHash
        XCTAssertThrowsError(try over.apply(.play(SpiritsCard(.red, 1)))) { error in
            XCTAssertEqual((error as? MoveError)?.code, .gameOver)
        }
        XCTAssertEqual(over.stateHash, end)
    }

    func testCanonicalEncodingLayoutAndJSONValidation() throws {
        for players in 2...6 {
            let state = try SpiritsState(players: players, seed: 3)
            let bytes = state.canonicalBytes
            XCTAssertEqual(bytes.count, 135 + 20 * players)
            XCTAssertEqual(bytes[0], UInt8(players))
            XCTAssertEqual(bytes[1], 1)
            XCTAssertEqual(bytes[7], 0xFF, "empty pile")
            XCTAssertEqual(Array(bytes[44..<98]), state.dealtDeck.map(\.rawValue))
            XCTAssertEqual(Int(bytes[98]), 5 * players)
        }
        let state = try SpiritsState(players: 3, seed: 3)
        var json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(state)) as? [String: Any])
        json["fear"] = 9
        XCTAssertThrowsError(
            try JSONDecoder().decode(SpiritsState.self, from: JSONSerialization.data(withJSONObject: json)))
        json["fear"] = 0
        json["pile"] = ["R1"]
        XCTAssertThrowsError(
            try JSONDecoder().decode(SpiritsState.self, from: JSONSerialization.data(withJSONObject: json)),
            "a card too many")
    }
}

final class SpiritsShuffleTests: XCTestCase {
    /// The engine's written-out Fisher–Yates gives exactly `TavoloRNG.shuffle` (PROTOCOL.md §1.4).
    func testDealShuffleIsTavoloShuffle() {
        for seed in UInt64(0)..<50 {
            var a = TavoloRNG(seed: seed)
            var b = a
            var deck = SpiritsCard.orderedDeck
            a.shuffle(&deck)
            var mine = [SpiritsCard](repeating: SpiritsCard(.red, 1), count: 54)
            SpiritsState.shuffledDeck(into: &mine, rng: &b)
            XCTAssertEqual(mine, deck)
            XCTAssertEqual(a, b)
        }
    }
}
