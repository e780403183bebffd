import TavoloCore
import TavoloGames
import TavoloTerminal
import XCTest

final class ResultTextTests: XCTestCase {
    func finished(game: String, seats: [TableSnapshot.Seat], mySeat: Int?, winners: [Int], scores: [Int])
        -> TableSnapshot
    {
        TableSnapshot(
            tableID: "t", game: game, phase: .finished, seats: seats, turn: nil, moveNumber: 60, mySeat: mySeat,
            observation: nil, winners: winners, scores: scores)
    }

    /// The node's bot won and the person lost: the winner is named as the bot, never "you".
    func testYourNodesBotWinningIsNotYouWinning() {
        let s = finished(
            game: "othello", seats: Fixtures.seats(2, mine: [0, 1], bots: [1: "greedy"]), mySeat: 0, winners: [1],
            scores: [20, 44])
        XCTAssertEqual(
            ResultText.oneLine(s),
            "Winner: seat 1 — bot (greedy) for alice You lost. Discs: seat 0 you 20 · seat 1 bot (greedy) for alice 44")
    }

    func testSpiritsSaysLowerIsBetterAndSharedWinsNameEveryone() {
        let s = finished(game: "spirits", seats: Fixtures.seats(3), mySeat: 0, winners: [0, 2], scores: [1, 4, 1])
        XCTAssertEqual(
            ResultText.oneLine(s),
            "Winners: seat 0 — you (alice), seat 2 — bob You won. Ghosts (lower is better): seat 0 you 1 · seat 1 bob 4 · seat 2 bob 1"
        )
    }

    func testADrawAndAWatcher() {
        let s = finished(
            game: "briscola", seats: Fixtures.seats(2, mine: []), mySeat: nil, winners: [], scores: [60, 60])
        XCTAssertEqual(ResultText.oneLine(s), "Draw: nobody wins. Points: seat 0 bob 60 · seat 1 bob 60")
    }

    /// A sealed table's audit is the last thing said: "Deck verified.", or whom it names.
    func testASealedGameSaysWhatItsAuditFound() {
        var s = finished(game: "briscola", seats: Fixtures.seats(2), mySeat: 0, winners: [0], scores: [70, 50])
        s.deck = "deck verified"
        XCTAssertTrue(ResultText.oneLine(s).hasSuffix(" Deck verified."), ResultText.oneLine(s))
        XCTAssertEqual(ResultText.lines(s).last?.text, "Deck verified.")
        s.deck = "the audit names bob: the game does not count for them"
        XCTAssertEqual(ResultText.lines(s).last?.text, "The audit names bob: the game does not count for them.")
    }
}
