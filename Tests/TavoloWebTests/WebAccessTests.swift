import Foundation
import TavoloWeb
import XCTest

/// Who gets into a node's page (PROTOCOL.md §12.2): every refusal, without a browser (Tests/browser has one).
final class WebAccessTests: XCTestCase {
    let access = WebAccess(token: String(repeating: "ab", count: 32), port: 8123)

    func testTokenInQueryOrCookie() {
        XCTAssertTrue(access.hasToken(query: access.token, cookie: nil))
        XCTAssertTrue(access.hasToken(query: nil, cookie: access.token))
        XCTAssertFalse(access.hasToken(query: nil, cookie: nil))
        XCTAssertFalse(access.hasToken(query: String(repeating: "ab", count: 31) + "ac", cookie: nil))
        XCTAssertFalse(access.hasToken(query: String(access.token.dropLast()), cookie: nil))
        XCTAssertFalse(access.hasToken(query: "", cookie: ""))
    }

    func testOnlyThisServersHostAndOrigin() {
        XCTAssertTrue(access.allowsHost("127.0.0.1:8123"))
        XCTAssertTrue(access.allowsHost("localhost:8123"))
        XCTAssertFalse(access.allowsHost("evil.example:8123"), "DNS rebinding")
        XCTAssertFalse(access.allowsHost("127.0.0.1:8124"))
        XCTAssertFalse(access.allowsHost(nil))
        XCTAssertTrue(access.allowsOrigin("http://127.0.0.1:8123"))
        XCTAssertTrue(access.allowsOrigin("http://localhost:8123"))
        XCTAssertFalse(access.allowsOrigin("http://evil.example"))
        XCTAssertFalse(access.allowsOrigin("http://127.0.0.1:8124"), "another node's page is another origin")
        XCTAssertFalse(access.allowsOrigin("null"))
        XCTAssertFalse(access.allowsOrigin(nil), "a browser always sends Origin on a WebSocket")
    }

    func testCookieIsPerPortStrictAndHttpOnly() {
        XCTAssertEqual(access.cookieName, "tavolo-8123")
        XCTAssertTrue(access.setCookie.contains("SameSite=Strict"))
        XCTAssertTrue(access.setCookie.contains("HttpOnly"))
    }

    func testTokenIsKeptPrivateAndReused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("webtoken-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try WebToken.loadOrCreate(stateDirectory: dir)
        XCTAssertEqual(first.count, 64)
        XCTAssertTrue(first.allSatisfy(\.isHexDigit))
        XCTAssertEqual(try WebToken.loadOrCreate(stateDirectory: dir), first)
        let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/" + WebToken.fileName)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }
}
