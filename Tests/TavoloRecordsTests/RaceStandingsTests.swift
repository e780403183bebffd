import Foundation
import TavoloCore
import TavoloRecordFormat
import XCTest

@testable import TavoloRecords

/// A race's leaderboard (issue 28): a racer that gave up has played a game and lost it, and has no score, least of
/// all a best one ("fewest is best" would otherwise rank its 3 slides above the winner's 130).
final class RaceStandingsTests: XCTestCase {
    var dir: String!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("race-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// The generator's genuine race in which seat 1 gave up after 3 slides (Protocol/vectors/records.json).
    func gaveUpRace() throws -> RecordedGame {
        let file = try JSONDecoder().decode(
            RecordVectorTests.Vectors.self, from: Data(contentsOf: RecordVectorTests.file))
        let vector = try XCTUnwrap(file.records.first { $0.name.hasPrefix("fifteen race") && $0.expect == "accept" })
        let game = RecordedGame(body: Array(vector.body.utf8), startedAt: nil, endedAt: 1)
        XCTAssertEqual(game.id, vector.id)
        return game
    }

    func testARacerThatGaveUpHasNoScoreAndTheWinnerHasTheBest() throws {
        let race = try gaveUpRace()
        let body = try race.decodedBody()
        XCTAssertEqual(body.ranking, [0], "seat 1 gave up: it is not ranked")
        XCTAssertLessThan(body.scores[1], body.scores[0], "its few slides would be the best score if they counted")
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: String(format: "%032x", 99))
        try store.insert([try TestSigners.signed(race)], source: .peer)

        let board = try store.scores(game: "fifteen", catalog: .standard)
        let fifteen = try XCTUnwrap(board.games.first { $0.game == "fifteen" })
        XCTAssertTrue(fifteen.lowerScoreIsBetter)
        XCTAssertEqual(fifteen.finished, 1)
        let winner = try XCTUnwrap(fifteen.humans.first, "seat 0, a person, is on the people's board")
        XCTAssertEqual(winner.wins, 1)
        XCTAssertEqual(winner.bestScore, body.scores[0])
        let quitter = try XCTUnwrap(fifteen.bots.first, "seat 1's bot played a game")
        XCTAssertEqual(quitter.games, 1)
        XCTAssertEqual(quitter.wins, 0)
        XCTAssertNil(quitter.bestScore, "a racer that gave up has no best score")
        XCTAssertEqual(quitter.totalScore, 0, "nor slides counted in its total")
    }
}
