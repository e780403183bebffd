import TavoloProtocol
import XCTest

final class JSONSyntaxTests: XCTestCase {
    func wellFormed(_ s: String) -> Bool { JSONSyntax.isWellFormed(Array(s.utf8)) }

    func testAcceptsEveryKindOfValue() {
        for s in [
            "{}", "[]", " {\"a\":[1,-2.5e+3,true,false,null,\"x\\u00e9\\n\"],\"b\":{}} ", "\"é\"", "0", "-0.0", "1E9",
            "[[[[]]]]", "{\"a\":{\"b\":{\"c\":[{}]}}}", "null",
        ] {
            XCTAssertTrue(wellFormed(s), s)
        }
    }

    func testRefusesWhatIsNotJSON() {
        for s in [
            "", " ", "{nope", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "01", "1.", ".5", "-", "1e",
            "tru", "nulll", "[1] [2]", "\"unterminated", "\"tab\there\"", "\"bad \\x escape\"", "\"\\u12\"",
            "{\"a\":1}}", "[}", "'single'", "NaN",
        ] {
            XCTAssertFalse(wellFormed(s), s)
        }
    }

    func testRefusesInvalidUTF8() {
        XCTAssertFalse(JSONSyntax.isWellFormed([0x22, 0xC3, 0x22]))  // truncated sequence
        XCTAssertFalse(JSONSyntax.isWellFormed([0x22, 0xC0, 0xAF, 0x22]))  // overlong '/'
        XCTAssertFalse(JSONSyntax.isWellFormed([0x22, 0xED, 0xA0, 0x80, 0x22]))  // UTF-16 surrogate
        XCTAssertTrue(JSONSyntax.isWellFormed([0x22, 0xF0, 0x9F, 0x82, 0xA1, 0x22]))  // a playing card
    }

    /// Nesting far deeper than any recursive parser's stack allows is scanned without crashing.
    func testDeepNestingDoesNotOverflowTheStack() {
        let depth = 200_000
        XCTAssertTrue(
            JSONSyntax.isWellFormed(
                Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth),
                maxDepth: .max))
        XCTAssertFalse(JSONSyntax.isWellFormed(Array(repeating: UInt8(ascii: "["), count: depth), maxDepth: .max))
    }

    func nested(_ depth: Int, open: String = "[", close: String = "]", inner: String = "1") -> [UInt8] {
        Array((String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)).utf8)
    }

    /// §3.4: at most 16 arrays and objects open at once, empty ones included; one more is not JSON for us.
    func testDepthLimitCountsEveryOpenContainer() {
        XCTAssertEqual(JSONSyntax.maxDepth, 16)
        XCTAssertTrue(JSONSyntax.isWellFormed(nested(16)))
        XCTAssertFalse(JSONSyntax.isWellFormed(nested(17)))
        XCTAssertTrue(JSONSyntax.isWellFormed(nested(15, inner: "[]")))
        XCTAssertFalse(JSONSyntax.isWellFormed(nested(16, inner: "{}")))
        XCTAssertTrue(JSONSyntax.isWellFormed(nested(15, open: #"{"a":"#, close: "}", inner: #"{"b":1}"#)))
        XCTAssertFalse(JSONSyntax.isWellFormed(nested(16, open: #"{"a":"#, close: "}", inner: #"{"b":1}"#)))
        // Depth, not count: many containers side by side are fine.
        let wide = "[" + Array(repeating: "[[1]]", count: 5_000).joined(separator: ",") + "]"
        XCTAssertTrue(JSONSyntax.isWellFormed(Array(wide.utf8)))
        XCTAssertNil(
            JSONSyntax.memberKinds(Array((#"{"a":"# + String(decoding: nested(16), as: UTF8.self) + "}").utf8)))
    }

    /// The 511-deep `table.move` that cost the node a second in `JSONDecoder` is refused after reading the
    /// first 16 brackets: the work is bounded by the limit, not by the payload.
    func testDeepPayloadIsRefusedAfterReadingOnlyUpToTheLimit() {
        let prefix = #"{"move":"#
        let move = String(repeating: "[", count: 511) + "0" + String(repeating: "]", count: 511)
        let body = Array(
            (prefix + move + #","number":0,"seat":0,"stateHash":"00","table":"t-1","type":"table.move"}"#).utf8)
        let (ok, read) = JSONSyntax.scan(body)
        XCTAssertFalse(ok)
        XCTAssertEqual(read, prefix.utf8.count + 15)
        XCTAssertLessThan(read * 40, body.count)
    }

    func testMemberKindsTellIntegersFromOtherNumbers() throws {
        let kinds = try XCTUnwrap(
            JSONSyntax.memberKinds(
                Array(#"{"a":1,"b":1.0,"c":1e2,"d":-5,"e":"1","f":[1],"g":{"a":1.5},"h\u0069":null}"#.utf8)))
        XCTAssertEqual(kinds["a"], .integer)
        XCTAssertEqual(kinds["b"], .number)
        XCTAssertEqual(kinds["c"], .number)
        XCTAssertEqual(kinds["d"], .integer)
        XCTAssertEqual(kinds["e"], .string)
        XCTAssertEqual(kinds["f"], .array)
        XCTAssertEqual(kinds["g"], .object)
        XCTAssertEqual(kinds["hi"], .null)
        XCTAssertEqual(kinds.count, 8)
    }

    func testMemberKindsRefuseDuplicatesAndNonObjects() {
        XCTAssertNil(JSONSyntax.memberKinds(Array(#"{"a":1,"a":2}"#.utf8)))
        XCTAssertNil(JSONSyntax.memberKinds(Array(#"{"a":1,"\u0061":2}"#.utf8)))
        XCTAssertNil(JSONSyntax.memberKinds(Array("[1]".utf8)))
        XCTAssertNil(JSONSyntax.memberKinds(Array("{nope".utf8)))
        XCTAssertEqual(JSONSyntax.memberKinds(Array("{}".utf8)), [:])
    }

    /// Every JSON payload of a frame is held to the limit, before it is decoded: a deep application message or
    /// heartbeat is a `bad-frame` (§3.4, §3.5), a shallow one still decodes.
    func testFramesWithPayloadsNestedTooDeepAreBadFrames() {
        // An application message and a datagram body are checked after their service byte (§3.9).
        let tables = [Service.tables.rawValue]
        for (type, prefix) in [(MessageType.handshake, []), (.heartbeat, []), (.goodbye, []), (.application, tables)] {
            XCTAssertThrowsError(try Frame.decode(type: type, payload: prefix + nested(17))) { error in
                guard case .badPayload(let t, _) = error as? FrameError else { return XCTFail("\(error)") }
                XCTAssertEqual(t, type)
            }
        }
        XCTAssertEqual(
            try Frame.decode(type: .application, payload: tables + nested(16)), .application(.tables, nested(16)))
        let datagram = [UInt8](repeating: 1, count: 24) + tables
        XCTAssertThrowsError(try Frame.decode(type: .datagram, payload: datagram + nested(17)))
        XCTAssertNoThrow(try Frame.decode(type: .datagram, payload: datagram + nested(16)))
    }
}
