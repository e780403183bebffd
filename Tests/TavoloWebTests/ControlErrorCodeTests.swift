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
}
