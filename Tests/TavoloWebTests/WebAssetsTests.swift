import Foundation
import TavoloTable
import XCTest

@testable import TavoloWeb

/// Every file of the page is served: a new module (a game's screen) that is in the folder but missing from
/// WebAssets.files would load in no browser, and the page would fail only at run time.
final class WebAssetsTests: XCTestCase {
    func testEveryAssetFileIsServed() throws {
        let assets = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/TavoloWeb/Assets")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: assets.path))
            .compactMap { $0 as? String }
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix("/") }
            .filter { path in
                var isDir: ObjCBool = false
                FileManager.default.fileExists(atPath: assets.appendingPathComponent(path).path, isDirectory: &isDir)
                return !isDir.boolValue
            }
        XCTAssertTrue(files.contains("js/games/fifteen.js"), "the Fifteen screen is among the page's files: \(files)")
        for file in files {
            XCTAssertNotNil(WebAssets.files["/" + file], "\(file) is in Assets/ but not served (WebAssets.swift)")
        }
    }

    /// The page says its node's loss in the words of `tavolo play` and `tavolo watch`: its copy of the text is the
    /// Swift one, or the three would drift apart again (issue 34).
    func testThePageSaysTheNodesLossInTheCLIsWords() throws {
        let app = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/TavoloWeb/Assets/js/app.js")
        let text = try String(contentsOf: app, encoding: .utf8).replacingOccurrences(of: "\n  ", with: " ")
        XCTAssertTrue(
            text.contains("export const OWN_NODE_STOPPED = \"\(TableNotices.ownNodeStopped)\";"),
            "app.js's OWN_NODE_STOPPED is not TableNotices.ownNodeStopped")
    }
}
