import Foundation
import TavoloCore
import TavoloGames
import XCTest

final class GameRulesTests: XCTestCase {
    /// The embedded texts are exactly `docs/rules/*.md` (run `scripts/gen-rules` after editing them).
    func testEmbeddedRulesMatchTheDocs() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/rules")
        let files = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
        XCTAssertEqual(files.map { String($0.dropLast(3)) }.sorted(), GameRules.games)
        for f in files {
            let text = try String(contentsOf: docs.appendingPathComponent(f), encoding: .utf8)
            XCTAssertEqual(
                GameRules.text(for: String(f.dropLast(3))).map { $0 + "\n" }, text, "\(f): run scripts/gen-rules")
        }
    }

    func testEveryGameOfTheCatalogHasRules() {
        for name in GameCatalog.standard.names { XCTAssertNotNil(GameRules.text(for: name), name) }
        XCTAssertNil(GameRules.text(for: "chess"))
        XCTAssertTrue(GameRules.text(for: "spirits")?.contains("fewer is better") == true)
    }
}
