import TavoloCore
import XCTest

@testable import TavoloGames

/// Spirits! dealt from sealed decks, and the audit's replay with every hand known (PROTOCOL.md §14.10 step 5).
final class SpiritsSealedDealTests: XCTestCase {
    /// Three rounds' sealed orders, as the audit would open them (any permutations of 0…53 will do).
    func deals(_ seed: UInt64) -> [[Int]] {
        var rng = TavoloRNG(seed: seed)
        return (0..<3).map { _ in
            var order = Array(0..<54)
            rng.shuffle(&order)
            return order
        }
    }

    /// A whole game on those deals, each seat playing its first legal move; the moves and, per move, the state
    /// before it.
    func play(players: Int, seed: UInt64, deals: [[Int]]) throws -> (moves: [SpiritsMove], before: [SpiritsState]) {
        var state = try SpiritsState(players: players, seed: seed)
        try state.replaceDeal(cardNumbers: deals[0])
        var moves: [SpiritsMove] = []
        var before: [SpiritsState] = []
        while !state.isTerminal {
            let move = try XCTUnwrap(state.legalMoves().last)
            before.append(state)
            moves.append(move)
            let round = state.round
            try state.apply(move)
            if state.round != round, !state.isTerminal { try state.replaceDeal(cardNumbers: deals[state.round - 1]) }
        }
        return (moves, before)
    }

    func testTheDealIsTheSealedOrder() throws {
        let order = deals(5)[0]
        var state = try SpiritsState(players: 4, seed: 9)
        try state.replaceDeal(cardNumbers: order)
        for seat in 0..<4 {
            let expected = SpiritsCardCounts((0..<5).map { SpiritsCard(unchecked: UInt8(order[seat + 4 * $0] / 3)) })
            XCTAssertEqual(state.hands[seat], expected)
        }
        XCTAssertEqual(Array(state.drawPile), order[20...].map { SpiritsCard(unchecked: UInt8($0 / 3)) })
        XCTAssertTrue(state.cardsAccountedFor)
    }

    func testADealIsReplacedOnlyWhenFreshAndOnlyByTheWholeDeck() throws {
        var state = try SpiritsState(players: 3, seed: 1)
        XCTAssertThrowsError(try state.replaceDeal(cardNumbers: Array(0..<53) + [0]))
        try state.apply(try XCTUnwrap(state.legalMoves().first))
        XCTAssertThrowsError(try state.replaceDeal(cardNumbers: Array(0..<54)))
    }

    func testAnHonestGameReplaysWithEveryHandKnown() throws {
        let d = deals(11)
        let game = try play(players: 6, seed: 3, deals: d)
        XCTAssertNil(try SpiritsState.auditReplay(players: 6, seed: 3, deals: d, moves: game.moves))
    }

    /// A seat that flees while holding a legal card: nobody could see it during the game; the audit names it.
    func testAFalseFleeIsFoundAtTheAudit() throws {
        let d = deals(12)
        let game = try play(players: 5, seed: 4, deals: d)
        let k = try XCTUnwrap(
            game.before.indices.first { game.before[$0].phase == .follow && !game.before[$0].playableKinds.isEmpty })
        let liar = game.before[k].turnSeat
        let held = try XCTUnwrap(
            SpiritsCardCounts.fullDeck.cards.first { game.before[k].hands[liar].count(of: $0) > 0 })
        var moves = game.moves
        moves[k] = .flee(open: held)
        let finding = try XCTUnwrap(try SpiritsState.auditReplay(players: 5, seed: 4, deals: d, moves: moves))
        XCTAssertEqual(finding.moveNumber, k)
        XCTAssertEqual(finding.seat, liar)
        XCTAssertEqual(finding.error.code, .illegal)
    }

    /// A sealed node's state holds placeholders for the cards it has not seen, so a flee the table took (on trust,
    /// §14.10) can come with a hand that could follow. `tavolo state` described it as `flee, open R1 (rejected:
    /// move/illegal …)` at every sealed table: the description says what every seat saw, as the public rules take it.
    func testAFleeIsDescribedAsPlayedWhateverTheHandHolds() throws {
        let game = try play(players: 4, seed: 4, deals: deals(13))
        let k = try XCTUnwrap(
            game.before.indices.first { game.before[$0].phase == .follow && !game.before[$0].playableKinds.isEmpty })
        let state = game.before[k]
        let held = try XCTUnwrap(
            SpiritsCardCounts.fullDeck.cards.first { state.hands[state.turnSeat].count(of: $0) > 0 })
        let text = state.describe(.flee(open: held))
        XCTAssertFalse(text.contains("rejected"), text)
        XCTAssertTrue(text.contains("flees, takes a ghost"), text)
    }
}
