import Foundation
import TavoloControl
import XCTest

@testable import TavoloWeb

/// The page's request lines get the control socket's error codes (PROTOCOL.md §7, §12.2), with no node behind them.
final class WebSocketBridgeTests: XCTestCase {
    func code(_ line: String) async throws -> (id: Int?, code: String?) {
        let reply = await WebSocketBridge.answer(Array(line.utf8)) { _, _ in .line([]) }
        guard case .line(let bytes) = reply else {
            XCTFail("a stream for \(line)")
            return (nil, nil)
        }
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        return (object["id"] as? Int, (object["error"] as? [String: Any])?["code"] as? String)
    }

    func testMalformedLinesGetTheSocketsCodes() async throws {
        let a = try await code(#"{"id":3}"#)
        XCTAssertEqual(a.id, 3)
        XCTAssertEqual(a.code, "control/bad-params")
        let b = try await code("[1,2]")
        XCTAssertEqual(b.code, "control/bad-request", "not an object, as on the socket")
        let c = try await code(#"{"id":5,"op":"no-such-op"}"#)
        XCTAssertEqual(c.id, 5)
        XCTAssertEqual(c.code, "control/unknown-op")
    }
}
