import Foundation
import TavoloControl
import TavoloTable
import XCTest

@testable import TavoloWeb

/// One list of control error codes: every refusal of the tables is one of them, and the page's module lists them all.
final class ControlErrorCodeTests: XCTestCase {
    func testEveryTableRefusalIsAControlCodeOfTheSameName() {
        for code in TableErrorCode.allCases {
            XCTAssertEqual(ControlErrorCode(code).rawValue, code.rawValue)
        }
    }

    func testThePagesCodesModuleListsEveryCode() {
        let module = String(decoding: WebAssets.codesModule, as: UTF8.self)
        for code in ControlErrorCode.allCases {
            XCTAssertTrue(module.contains("  \(code): \"\(code.rawValue)\","), "\(code) missing from js/codes.js")
        }
        XCTAssertNotNil(WebAssets.files["/js/codes.js"])
    }

    /// The spec names every code a node answers with (PROTOCOL.md §7): an implementer never meets an unnamed one.
    func testTheSpecNamesEveryCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let spec = try String(contentsOf: root.appendingPathComponent("Protocol/PROTOCOL.md"), encoding: .utf8)
        for code in ControlErrorCode.allCases {
            XCTAssertTrue(spec.contains("`\(code.rawValue)`"), "PROTOCOL.md does not name \(code.rawValue)")
        }
    }
}
