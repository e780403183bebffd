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
                Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth)))
        XCTAssertFalse(JSONSyntax.isWellFormed(Array(repeating: UInt8(ascii: "["), count: depth)))
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
}
