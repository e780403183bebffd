import Foundation

/// Canonical JSON (keys sorted by UTF-8 bytes, no whitespace, `/` not escaped, integers as digits) written by a
/// small `Encoder` of our own: Foundation's `JSONEncoder` took 4–12 µs to encode a two-field message (its generic
/// boxing and `JSONWriter`), most of a round trip's JSON share and a visible part of every move's CPU in a
/// six-node game (issue 19).
///
/// It writes exactly the bytes `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes, for the values
/// it knows: objects, arrays, strings, booleans, integers and null. Anything else — floating point (whose text is
/// Foundation's to choose), `Date`, `Data`, `URL`, `Decimal`, `superEncoder` — makes it give up
/// (`Unsupported`), and `CanonicalJSON` asks Foundation instead; so does an error thrown by a value's own
/// `encode(to:)`. `CanonicalJSONWriterTests` compares the two on every kind of value.
enum CanonicalJSONWriter {
    struct Unsupported: Error {}

    /// With `pretty`, the layout of `JSONEncoder`'s `.prettyPrinted` (two spaces a level, `"key" : value`, an
    /// empty array or object opened and closed on lines of their own), for files people read.
    static func encode<T: Encodable>(_ value: T, pretty: Bool = false) throws -> [UInt8] {
        let root = Root()
        let node = try Self.node(for: value, root: root, codingPath: [])
        guard !root.unsupported, let node else { throw Unsupported() }
        var out: [UInt8] = []
        out.reserveCapacity(pretty ? 1024 : 128)
        write(node, into: &out, indent: pretty ? 0 : nil)
        return out
    }

    /// What one value encoded to, or nil when it encoded nothing (an object to Foundation when nested).
    static func node<T: Encodable>(for value: T, root: Root, codingPath: [any CodingKey]) throws -> Node? {
        // The types Foundation's encoder writes its own way (and floating point, below in the containers).
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self
            || T.self == Double.self || T.self == Float.self
        {
            throw Unsupported()
        }
        // A game's move or observation inside every message and log line: its nodes made directly, not through
        // `JSONValue.encode(to:)` and a dictionary's Codable (a third of a journal line's time).
        if T.self == JSONValue.self, let json = value as? JSONValue { return try Self.node(json) }
        // Arrays of numbers (a deal's cards, scores, seats) and strings: one node each without an unkeyed
        // container and a generic encode per element (a complete log's deals showed in the profile).
        if T.self == [UInt8].self, let bytes = value as? [UInt8] { return array(bytes.map { .uint(UInt64($0)) }) }
        if T.self == [Int].self, let ints = value as? [Int] { return array(ints.map { .int(Int64($0)) }) }
        if T.self == [String].self, let strings = value as? [String] { return array(strings.map { .string($0) }) }
        let encoder = ValueEncoder(root: root, codingPath: codingPath)
        try value.encode(to: encoder)
        return encoder.result
    }

    private static func array(_ items: [Node]) -> Node {
        let array = ArrayNode()
        array.items = items
        return .array(array)
    }

    /// The node of a parsed JSON value, as `JSONValue.encode(to:)` would encode it (a number with a fraction is
    /// Foundation's to write).
    static func node(_ json: JSONValue) throws -> Node {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .integer(let i): return .int(i)
        case .unsigned(let u): return .uint(u)
        case .number: throw Unsupported()
        case .string(let s): return .string(s)
        case .array(let items):
            let array = ArrayNode()
            array.items = try items.map(node)
            return .array(array)
        case .object(let members):
            let object = ObjectNode()
            object.members = try members.map { ($0.key, try node($0.value)) }
            return .object(object)
        }
    }

    /// Set by a request this writer does not serve without throwing (`superEncoder`): the whole value goes to
    /// Foundation.
    final class Root { var unsupported = false }

    /// Members in the order encoded; sorted (and a key encoded twice kept once, its last value, as Foundation's
    /// dictionary keeps it) when written. An array, not a dictionary: most objects have a few members.
    final class ObjectNode { var members: [(key: String, value: Node)] = [] }
    final class ArrayNode { var items: [Node] = [] }

    enum Node {
        case object(ObjectNode)
        case array(ArrayNode)
        case string(String)
        case int(Int64)
        case uint(UInt64)
        case bool(Bool)
        case null
    }

    // MARK: Writing

    /// `indent` nil: compact; otherwise the pretty layout at that depth (in spaces).
    static func write(_ node: Node, into out: inout [UInt8], indent: Int? = nil) {
        switch node {
        case .object(let o):
            // Indices sorted by key, stably (insertion sort: objects are small), so that of two equal keys the
            // later stays later: it is the one written. No generic sequence adapters: their metadata lookups showed.
            let members = o.members
            var order = [Int](0..<members.count)
            for i in order.indices.dropFirst() {
                let moving = order[i]
                var j = i
                while j > 0, members[moving].key.utf8.lexicographicallyPrecedes(members[order[j - 1]].key.utf8) {
                    order[j] = order[j - 1]
                    j -= 1
                }
                order[j] = moving
            }
            open(UInt8(ascii: "{"), empty: members.isEmpty, into: &out, indent: indent)
            var first = true
            for (position, index) in order.enumerated() {
                // Of equal keys (now next to each other) only the last is written.
                if position + 1 < order.count && members[order[position + 1]].key == members[index].key { continue }
                separate(first: first, into: &out, indent: indent)
                first = false
                writeString(members[index].key, into: &out)
                out.append(contentsOf: indent == nil ? colon : prettyColon)
                write(members[index].value, into: &out, indent: indent.map { $0 + 2 })
            }
            close(UInt8(ascii: "}"), empty: members.isEmpty, into: &out, indent: indent)
        case .array(let a):
            open(UInt8(ascii: "["), empty: a.items.isEmpty, into: &out, indent: indent)
            for (i, item) in a.items.enumerated() {
                separate(first: i == 0, into: &out, indent: indent)
                write(item, into: &out, indent: indent.map { $0 + 2 })
            }
            close(UInt8(ascii: "]"), empty: a.items.isEmpty, into: &out, indent: indent)
        case .string(let s): writeString(s, into: &out)
        case .int(let n):
            if n < 0 {
                out.append(UInt8(ascii: "-"))
                writeDigits(n.magnitude, into: &out)
            } else {
                writeDigits(UInt64(n), into: &out)
            }
        case .uint(let n): writeDigits(n, into: &out)
        case .bool(let b): out.append(contentsOf: b ? trueBytes : falseBytes)
        case .null: out.append(contentsOf: nullBytes)
        }
    }

    private static let colon = [UInt8(ascii: ":")]
    private static let prettyColon = Array(" : ".utf8)

    /// `{` or `[`; pretty, an empty one gets an empty line (as Foundation writes it).
    private static func open(_ bracket: UInt8, empty: Bool, into out: inout [UInt8], indent: Int?) {
        out.append(bracket)
        if indent != nil && empty { out.append(UInt8(ascii: "\n")) }
    }

    /// Before a member or an item: a comma after the first; pretty, a new line and the deeper indent.
    private static func separate(first: Bool, into out: inout [UInt8], indent: Int?) {
        if !first { out.append(UInt8(ascii: ",")) }
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent + 2))
    }

    private static func close(_ bracket: UInt8, empty: Bool, into out: inout [UInt8], indent: Int?) {
        if let indent {
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
        }
        out.append(bracket)
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)

    private static func writeDigits(_ n: UInt64, into out: inout [UInt8]) {
        if n < 10 { return out.append(UInt8(ascii: "0") + UInt8(n)) }
        // At most 20 digits, made backwards in place at the end of `out`, then turned around.
        let start = out.count
        var rest = n
        while rest > 0 {
            out.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
        out[start...].reverse()
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// Foundation's escapes: `"` and `\`, the five short forms, other control characters as `\u00xx`; every other
    /// character as its UTF-8 bytes (DEL, U+2028 and U+2029 included).
    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        // Runs of bytes that need no escape are copied whole: a byte at a time, hashes and texts were the largest
        // part of a journal line's time.
        s.withUTF8 { bytes in
            var start = 0
            for i in 0..<bytes.count where needsEscape(bytes[i]) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                appendEscape(bytes[i], into: &out)
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func appendEscape(_ byte: UInt8, into out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        default:
            out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0F)])
        }
    }
}
