import TavoloProtocol
import XCTest

@testable import TavoloMesh

/// PROTOCOL.md §7 `peers`: a member without a value is absent, never `null`.
final class PeerInfoEncodingTests: XCTestCase {
    let id = NodeID(hex: "00112233445566778899aabbccddeeff")!

    func json(_ p: PeerInfo) throws -> String { String(decoding: try WireJSON.encode(p), as: UTF8.self) }

    func testMissingRoundTripAndReasonAreAbsentNotNull() throws {
        let p = PeerInfo(id: id, name: "a", address: "127.0.0.1:1", state: .discovered, rttMs: nil, reason: nil)
        XCTAssertEqual(
            try json(p),
            #"{"address":"127.0.0.1:1","id":"00112233445566778899aabbccddeeff","name":"a","state":"discovered"}"#)
    }

    func testPresentValuesAreWrittenAndReadBack() throws {
        let p = PeerInfo(id: id, name: "a", address: "127.0.0.1:1", state: .lost, rttMs: 1.5, reason: "timeout: x")
        let text = try json(p)
        XCTAssertTrue(text.contains(#""rttMs":1.5"#), text)
        XCTAssertTrue(text.contains(#""reason":"timeout: x""#), text)
        XCTAssertEqual(try WireJSON.decode(PeerInfo.self, Array(text.utf8)), p)
    }
}
