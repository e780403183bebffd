import Foundation
import XCTest

@testable import TavoloCore

/// `CanonicalJSONWriter` must write exactly the bytes Foundation's `JSONEncoder` (sorted keys, slashes unescaped)
/// writes: the wire's vectors, record ids and game logs depend on them. Each value here is encoded both ways.
final class CanonicalJSONWriterTests: XCTestCase {
    private func assertSameBytes<T: Encodable>(_ value: T, file: StaticString = #filePath, line: UInt = #line) throws {
        let foundation = try CanonicalJSON.encodeWithFoundation(value)
        let ours = try CanonicalJSONWriter.encode(value)
        XCTAssertEqual(
            String(decoding: ours, as: UTF8.self), String(decoding: foundation, as: UTF8.self), file: file, line: line)
        // The indented form of game logs, too.
        let foundationPretty = try CanonicalJSON.encodePrettyWithFoundation(value)
        let oursPretty = try CanonicalJSONWriter.encode(value, pretty: true)
        XCTAssertEqual(
            String(decoding: oursPretty, as: UTF8.self), String(decoding: foundationPretty, as: UTF8.self),
            "pretty", file: file, line: line)
    }

    struct Empty: Codable, Equatable {}
    enum Suit: String, Codable { case cups, coins }
    enum Action: Codable, Equatable {
        case play(card: Int, face: Bool)
        case pass
        case say(String)
    }
    struct Message: Codable {
        var type = "table.move"
        var number: Int = 5
        var seat: UInt8 = 2
        var hash: String? = "e0e1"
        var missing: String? = nil
        var big: UInt64 = .max
        var small: Int64 = .min
        var tiny: Int8 = -3
        var flags: [Bool] = [true, false]
        var nested: [String: [Int]] = ["b": [1, 2], "a": [], "B": [3]]
        var byNumber: [Int: String] = [10: "ten", 9: "nine", -1: "minus"]
        var optionals: [Int?] = [nil, 1]
        var empty = Empty()
        var suit = Suit.coins
        var actions: [Action] = [.play(card: 17, face: true), .pass, .say("hi")]
        var json: JSONValue = .object(["move": .object(["card": .integer(17)]), "list": .array([.null, .bool(false)])])
    }

    func testMessagesOfEveryShapeGiveFoundationsBytes() throws {
        try assertSameBytes(Message())
        try assertSameBytes([Message(), Message()])
        try assertSameBytes(["k": ["n": [1, 2]]])
        try assertSameBytes([String: Int]())
        try assertSameBytes([Int]())
        try assertSameBytes(Empty())
        try assertSameBytes(["only": Empty()])
        try assertSameBytes(Int.min)
        try assertSameBytes(UInt64.max)
        try assertSameBytes(0)
        try assertSameBytes("")
        try assertSameBytes(true)
        try assertSameBytes(Int?.none)
        try assertSameBytes(JSONValue.null)
    }

    /// Arrays of bytes, integers and strings take the writer's fast path: the same bytes still.
    func testArraysOfNumbersAndStringsGiveFoundationsBytes() throws {
        struct Deal: Codable {
            var cards: [UInt8] = [0, 17, 255, 3]
            var none: [UInt8] = []
            var scores: [Int] = [-5, 0, Int.max, Int.min]
            var names: [String] = ["a\"b", "é/€", "", "line\nbreak", "\u{1}"]
            var nested: [[UInt8]] = [[1, 2], []]
        }
        try assertSameBytes(Deal())
        try assertSameBytes([Deal(), Deal()])
        try assertSameBytes([UInt8](repeating: 9, count: 40))
        try assertSameBytes([Int]([1, -1]))
        try assertSameBytes(["x", "y"])
    }

    func testStringsAndKeysGiveFoundationsBytes() throws {
        let tricky =
            "ctl: \u{0}\u{1}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1b}\u{1f}\u{7f} \" \\ / é € 𝄞 \u{2028}\u{2029} e\u{301}"
        try assertSameBytes(tricky)
        try assertSameBytes([tricky: tricky])
        // Keys ordered by UTF-8 bytes: digits before upper case before `_` before lower case, then non-ASCII.
        try assertSameBytes(
            [
                "B": 1, "a": 2, "_": 3, "é": 4, "aa": 5, "a b": 6, "": 7, "Z": 8, "z": 9, "10": 10, "9": 11, "a1": 12,
                "a10": 13, "a2": 14, "\u{e9}x": 16, "\u{1}": 17,
            ])
    }

    func testWhatItLeavesToFoundationIsLeft() {
        struct WithDouble: Codable { var rtt = 0.25 }
        struct WithDate: Codable { var at = Date(timeIntervalSince1970: 0) }
        struct WithData: Codable { var bytes = Data([1, 2]) }
        XCTAssertThrowsError(try CanonicalJSONWriter.encode(WithDouble()))
        XCTAssertThrowsError(try CanonicalJSONWriter.encode(WithDate()))
        XCTAssertThrowsError(try CanonicalJSONWriter.encode(WithData()))
        XCTAssertThrowsError(try CanonicalJSONWriter.encode(JSONValue.array([.number(1.5)])))
        // ...and CanonicalJSON still writes them, through Foundation.
        XCTAssertEqual(String(decoding: try CanonicalJSON.encode(WithDouble()), as: UTF8.self), #"{"rtt":0.25}"#)
    }

    /// Random JSON trees (random keys, strings with any character, integers at the edges), 2,000 of them.
    func testRandomValuesGiveFoundationsBytes() throws {
        var rng = TavoloRNG(seed: 19)
        let alphabet: [Character] = [
            "a", "b", "B", "_", "0", "9", " ", "\"", "\\", "/", "é", "€", "𝄞", "\u{1}",
            "\u{1f}", "\n", "\t", "\u{7f}", "\u{2028}",
        ]
        func string() -> String { String((0..<Int(rng.next() % 6)).map { _ in alphabet[Int(rng.next() % 19)] }) }
        func value(_ depth: Int) -> JSONValue {
            switch rng.next() % (depth > 3 ? 5 : 7) {
            case 0: return .null
            case 1: return .bool(rng.next() % 2 == 0)
            case 2: return .integer(Int64(bitPattern: rng.next()) >> (rng.next() % 64))
            case 3: return .unsigned(rng.next())
            case 4: return .string(string())
            case 5: return .array((0..<Int(rng.next() % 4)).map { _ in value(depth + 1) })
            default:
                var o: [String: JSONValue] = [:]
                for _ in 0..<Int(rng.next() % 5) { o[string()] = value(depth + 1) }
                return .object(o)
            }
        }
        for _ in 0..<2_000 { try assertSameBytes(value(0)) }
    }
}

extension CanonicalJSONWriterTests {
    /// A key encoded twice keeps its last value, as in Foundation's dictionary of members.
    func testAKeyEncodedTwiceKeepsItsLastValue() throws {
        struct Twice: Encodable {
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: AnyKey.self)
                try c.encode(1, forKey: AnyKey("b"))
                try c.encode("x", forKey: AnyKey("a"))
                try c.encode(2, forKey: AnyKey("b"))
                try c.encode(true, forKey: AnyKey("c"))
                try c.encode(3, forKey: AnyKey("b"))
            }
        }
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ s: String) { stringValue = s }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        XCTAssertEqual(
            String(decoding: try CanonicalJSONWriter.encode(Twice()), as: UTF8.self), #"{"a":"x","b":3,"c":true}"#)
        XCTAssertEqual(try CanonicalJSONWriter.encode(Twice()), try CanonicalJSON.encodeWithFoundation(Twice()))
        // The first key in order encoded twice: the object still opens without a comma.
        struct FirstTwice: Encodable {
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: AnyKey.self)
                try c.encode(1, forKey: AnyKey("a"))
                try c.encode(2, forKey: AnyKey("b"))
                try c.encode(3, forKey: AnyKey("a"))
            }
        }
        XCTAssertEqual(String(decoding: try CanonicalJSONWriter.encode(FirstTwice()), as: UTF8.self), #"{"a":3,"b":2}"#)
        XCTAssertEqual(
            try CanonicalJSONWriter.encode(FirstTwice(), pretty: true),
            Array(try CanonicalJSON.encodePrettyWithFoundation(FirstTwice())))
    }
}
