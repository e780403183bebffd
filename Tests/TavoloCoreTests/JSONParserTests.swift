import Foundation
import XCTest

@testable import TavoloCore

/// The one-pass parser and the decoder over parsed values (CanonicalJSON.decode) against Foundation's parser, and
/// the strictness the protocol asks for.
final class JSONParserTests: XCTestCase {
    func parse(_ text: String) throws -> JSONValue { try JSONValue(json: Array(text.utf8)) }

    func testValuesParseAsFoundationReadsThem() throws {
        let texts = [
            #"{"a":[1,-2,3.5,1e3,-0,true,false,null,"x"],"b":{"c":"\u00e9\ud83d\ude00\n\"\\\/"},"d":[]}"#,
            #"  [ {} , [ [ ] ] , "" , 0 , 9223372036854775807 , -9223372036854775808 ]  "#,
            #""plain""#, "12", "-0.5", "true", "null",
        ]
        for text in texts {
            let mine = try parse(text)
            let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            let again = try JSONSerialization.jsonObject(with: Data(mine.jsonBytes), options: [.fragmentsAllowed])
            XCTAssertEqual(again as? NSObject, theirs as? NSObject, text)
        }
    }

    func testIntegersStayExactAndOnlyIntegerLiteralsAreIntegers() throws {
        XCTAssertEqual(try parse("9223372036854775807"), .integer(Int64.max))
        XCTAssertEqual(try parse("9223372036854775808"), .unsigned(9_223_372_036_854_775_808))
        XCTAssertEqual(try parse("18446744073709551615"), .unsigned(UInt64.max))
        XCTAssertEqual(try parse("18446744073709551616"), .number(18446744073709551616))
        XCTAssertEqual(try CanonicalJSON.decode(UInt64.self, Array("18446744073709551615".utf8)), UInt64.max)
        XCTAssertThrowsError(try CanonicalJSON.decode(Int64.self, Array("9223372036854775808".utf8)))
        XCTAssertEqual(try parse("18446744073709551615").jsonText, "18446744073709551615")
        XCTAssertEqual(try parse("1.0"), .number(1))
        XCTAssertEqual(try parse("1e2"), .number(100))
        struct S: Decodable { var n: Int; var d: Double; var u: UInt8 }
        let s = try CanonicalJSON.decode(S.self, Array(#"{"n":-3,"d":2,"u":255}"#.utf8))
        XCTAssertEqual([s.n, Int(s.d), Int(s.u)], [-3, 2, 255])
        XCTAssertThrowsError(try CanonicalJSON.decode(S.self, Array(#"{"n":1.0,"d":2,"u":1}"#.utf8)))
        XCTAssertThrowsError(try CanonicalJSON.decode(S.self, Array(#"{"n":1,"d":2,"u":256}"#.utf8)))
        XCTAssertThrowsError(try CanonicalJSON.decode(S.self, Array(#"{"n":"1","d":2,"u":1}"#.utf8)))
        XCTAssertThrowsError(try CanonicalJSON.decode(S.self, Array(#"{"n":1,"u":1}"#.utf8))) { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "d")
        }
    }

    func testMalformedInputIsRefused() {
        let bad = [
            "", "{", "[1,]", "{\"a\":1,}", "01", "-", "1.", ".5", "1e", "tru", "nul", "[1 2]", "{\"a\" 1}",
            "\"\u{01}\"", "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "\"unterminated", "{\"a\":1,\"a\":2}", "1 2",
            "NaN", "[1e999]",
        ]
        for text in bad {
            XCTAssertThrowsError(try parse(text), text)
        }
        XCTAssertThrowsError(try JSONValue(json: [0x22, 0xFF, 0x22]), "invalid UTF-8")
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        XCTAssertThrowsError(try parse(deep), "deeper than the parser's own bound")
    }

    func testASyntaxErrorIsTopLevelDataCorrupted() {
        XCTAssertThrowsError(try CanonicalJSON.decode([Int].self, Array("[1,".utf8))) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(context.codingPath.isEmpty)
        }
    }

    func testCodableRoundTripsThroughTheParsedValue() throws {
        struct Inner: Codable, Equatable { var tag: String?; var list: [Int] }
        enum Kind: String, Codable { case one, two }
        struct Outer: Codable, Equatable {
            var kind: Kind
            var inner: [Inner]
            var map: [String: Double]
            var value: JSONValue
            var flag: Bool
        }
        let v = Outer(
            kind: .two, inner: [Inner(tag: nil, list: [1, 2]), Inner(tag: "x", list: [])], map: ["k": 1.5],
            value: .object(["z": .array([.null, .integer(3)])]), flag: true)
        XCTAssertEqual(try CanonicalJSON.decode(Outer.self, CanonicalJSON.encode(v)), v)
        XCTAssertEqual(try JSONValue(encoding: v).decode(Outer.self), v)
    }
}
