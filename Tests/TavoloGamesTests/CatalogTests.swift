import TavoloCore
import TavoloGames
import XCTest

final class CatalogTests: XCTestCase {
    func testEveryGameHasRandomBotAndDefaultBot() {
        for entry in GameCatalog.standard.entries {
            XCTAssertTrue(entry.bots.contains { $0.kind == "random" }, "\(entry.name) lacks a random bot")
            XCTAssertTrue(entry.bots.contains { $0.kind == entry.defaultBot }, "\(entry.name) default bot unknown")
            XCTAssertFalse(entry.playerCounts.isEmpty)
        }
    }

    /// Every registered game plays a short seeded batch through the type-erased entry, twice, identically.
    func testEveryGamePlaysOutDeterministically() throws {
        for entry in GameCatalog.standard.entries {
            for players in entry.playerCounts {
                let request = PlayoutRequest(
                    players: players, games: 20, seed: 99, bots: Array(repeating: "random", count: players))
                let a = try entry.playout(request)
                let b = try entry.playout(request)
                XCTAssertEqual(a.transcript, b.transcript, entry.name)
                XCTAssertEqual(a.totalMoves, b.totalMoves, entry.name)
            }
        }
    }
}
