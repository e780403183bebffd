import Foundation
import TavoloControl
import TavoloCore
import XCTest

@testable import TavoloRecords

/// "A 60–60 draw" is a draw of two sides only (Protocol/games/briscola.md, Outcome): with three players a seat's 60
/// is no draw (most often a win), with five a side's 60 is decided by the bid.
final class BriscolaDrawAchievementTests: XCTestCase {
    var dir: String!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("draw-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    /// The first random-bot game of `players` from seed 1 on in which some seat scored 60.
    func gameWithSixty(players: Int) throws -> SignedRecord {
        for seed in UInt64(1)...400 {
            let r = try RecordFactory.playout(
                catalog: .standard, game: "briscola", players: players, seed: seed, bot: "random", names: nil)
            if try r.decodedBody().scores.contains(60) { return try TestSigners.signed(r) }
        }
        throw XCTSkip("no game of \(players) with a 60 in 400 seeds")
    }

    func testOnlyTwoSidesDrawSixtySixty() throws {
        let (store, _) = try RecordStore.open(stateDirectory: dir, me: TestSigners.node(1))
        let two = try gameWithSixty(players: 2)
        let three = try gameWithSixty(players: 3)
        XCTAssertTrue(Achievements.all.first { $0.code == "briscola/draw" }!.earnedBy(two.body, 0))
        XCTAssertFalse(
            three.body.scores.indices.contains {
                Achievements.all.first { $0.code == "briscola/draw" }!.earnedBy(three.body, $0)
            },
            "a three-player 60 is no draw")
        XCTAssertEqual(try store.insert([two, three], source: .peer), 2)
        let draws = try store.scores(game: "briscola", catalog: .standard).achievements.filter {
            $0.code == "briscola/draw"
        }
        XCTAssertEqual(draws.map(\.times).reduce(0, +), 2, "the two seats of the two-player draw, and no one else")
        let (stored, recomputed) = try store.standingsCheck()
        XCTAssertEqual(stored, recomputed)
    }
}
