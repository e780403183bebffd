import Foundation

/// Any JSON value, so a game-agnostic message can carry a game's move or observation as a nested object.
/// Integers stay exact (`integer`, and `unsigned` for those above Int64's range up to UInt64's: 64-bit seeds and
/// clocks); only numbers with a fraction or an exponent, or beyond both ranges, are `number`.
public enum JSONValue: Codable, Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// Only for integers above `Int64.max` (below, an integer is always `.integer`, so one value has one case).
    case unsigned(UInt64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        // Already parsed: take it as it is.
        if let parsed = decoder as? JSONValueDecoder {
            self = parsed.value
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .integer(i)
        } else if let u = try? c.decode(UInt64.self) {
            self = .unsigned(u)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .integer(let i): try c.encode(i)
        case .unsigned(let u): try c.encode(u)
        case .number(let n): try c.encode(n)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// Parses JSON bytes.
    public init(json: [UInt8]) throws {
        self = try CanonicalJSON.parse(json)
    }

    /// The value of any Encodable, through its JSON.
    public init<T: Encodable>(encoding value: T) throws {
        self = try JSONValue(json: CanonicalJSON.encode(value))
    }

    /// Compact canonical JSON (keys sorted).
    public var jsonBytes: [UInt8] { (try? CanonicalJSON.encode(self)) ?? [] }

    /// Compact canonical JSON as text.
    public var jsonText: String { String(decoding: jsonBytes, as: UTF8.self) }

    /// Decodes a Decodable from this value.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONValueDecoder.decode(type, from: self) }
}
