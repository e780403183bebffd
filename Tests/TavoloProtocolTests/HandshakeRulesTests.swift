import TavoloProtocol
import XCTest

/// §4.1: what a receiver refuses in a handshake that is valid JSON (the goodbye is `bad-frame`).
final class HandshakeRulesTests: XCTestCase {
    let valid =
        #"{"capabilities":["datagrams","tables"],"name":"alpha","nodeId":"00112233445566778899aabbccddeeff","udpPort":40000,"version":1}"#

    func decode(_ json: String) throws -> Frame {
        try Frame.decode(type: .handshake, payload: Array(json.utf8))
    }

    func assertRefused(_ json: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try decode(json), json, file: file, line: line) { error in
            guard case .badPayload(.handshake, _)? = error as? FrameError else {
                return XCTFail("\(error)", file: file, line: line)
            }
            XCTAssertEqual((error as? FrameError)?.goodbyeCode, .badFrame, file: file, line: line)
        }
    }

    func replacing(_ old: String, with new: String) -> String { valid.replacingOccurrences(of: old, with: new) }

    func testValidHandshakeDecodes() throws {
        guard case .handshake(let h) = try decode(valid) else { return XCTFail("not a handshake") }
        XCTAssertEqual(h.udpPort, 40000)
        // Any member order and whitespace, unknown members ignored.
        XCTAssertNoThrow(
            try decode(
                #"{ "version" : 1, "udpPort":65535, "nodeId":"00112233445566778899aabbccddeeff", "name":"b", "capabilities":[], "extra":{"x":1.5} }"#
            ))
    }

    func testUdpPortMustBeAnIntegerInRange() {
        for port in ["70000", "0", "-5", "99999999999", "1.0", "1e2", "\"40000\"", "null", "65536"] {
            assertRefused(replacing("40000", with: port))
        }
    }

    func testVersionMustBeAnInteger() {
        assertRefused(replacing(#""version":1"#, with: #""version":1.0"#))
        assertRefused(replacing(#""version":1"#, with: #""version":"1""#))
        // Another integer version is not a bad frame: admission answers version-mismatch (§4.7).
        XCTAssertNoThrow(try decode(replacing(#""version":1"#, with: #""version":2"#)))
    }

    func testNodeIdMustBeCanonical() {
        assertRefused(replacing("aabbccddeeff", with: "AABBCCDDEEFF"))
        assertRefused(replacing("00112233445566778899aabbccddeeff", with: "00112233445566778899aabbccddeef"))
        assertRefused(replacing("00112233445566778899aabbccddeeff", with: "0x112233445566778899aabbccddeeff"))
    }

    func testNameLimits() throws {
        assertRefused(replacing(#""alpha""#, with: #""""#))
        assertRefused(replacing(#""alpha""#, with: "\"\(String(repeating: "é", count: 32))\""))
        XCTAssertNoThrow(try decode(replacing(#""alpha""#, with: "\"\(String(repeating: "é", count: 31))x\"")))
        for control in [#"\n"#, #"\u0000"#, #"\u007f"#, #"\u0085"#, "/"] {
            assertRefused(replacing(#""alpha""#, with: "\"al\(control)pha\""))
        }
        XCTAssertNoThrow(try decode(replacing(#""alpha""#, with: #""tavolo di Ré 🂡""#)))
    }

    func testCapabilityLimits() {
        assertRefused(replacing(#"["datagrams","tables"]"#, with: #"["datagrams",7]"#))
        assertRefused(replacing(#"["datagrams","tables"]"#, with: #"["Datagrams"]"#))
        assertRefused(replacing(#"["datagrams","tables"]"#, with: #"[""]"#))
        let many = (0..<17).map { "\"c\($0)\"" }.joined(separator: ",")
        assertRefused(replacing(#"["datagrams","tables"]"#, with: "[\(many)]"))
        XCTAssertNoThrow(try decode(replacing(#"["datagrams","tables"]"#, with: #"["from-the-future-2"]"#)))
    }

    func testDuplicateMembersAreRefused() {
        assertRefused(replacing(#""version":1"#, with: #""version":1,"udpPort":1"#))
    }

    func testHeartbeatIntegersAreStrict() {
        XCTAssertNoThrow(
            try Frame.decode(type: .heartbeat, payload: Array(#"{"sentAt":18446744073709551615,"seq":1}"#.utf8)))
        for bad in [#"{"sentAt":5,"seq":1.0}"#, #"{"sentAt":5e0,"seq":1}"#] {
            XCTAssertThrowsError(try Frame.decode(type: .heartbeatAck, payload: Array(bad.utf8)), bad)
        }
    }
}
