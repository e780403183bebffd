import Foundation

/// The project's one JSON dialect: UTF-8, keys sorted, slashes unescaped, so the same value always gives the
/// same bytes (wire payloads, moves, observations, game logs).
public enum CanonicalJSON {
    // One shared instance each: they are Sendable, and making one per message showed in the round-trip profile.
    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()
    private static let prettyEncoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return e
    }()

    /// Our own writer (`CanonicalJSONWriter`, the same bytes, several times faster); Foundation's for what it
    /// leaves to Foundation (floating point, `Date`, `Data`, …) and to report a value's own encoding error.
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        if let bytes = try? CanonicalJSONWriter.encode(value) { return bytes }
        return Array(try encoder.encode(value))
    }

    /// Appends `s` as a canonical JSON string (quoted, Foundation's escapes): for a line written by hand where a
    /// `Codable` encoding showed in a profile (the journal's move line, `GameJournal`).
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        CanonicalJSONWriter.writeString(s, into: &out)
    }

    /// Appends `n`'s digits.
    public static func appendInteger(_ n: Int, to out: inout [UInt8]) {
        CanonicalJSONWriter.write(.int(Int64(n)), into: &out)
    }

    /// Appends `json` as canonical JSON; throws for a number with a fraction (Foundation's to write).
    public static func append(_ json: JSONValue, to out: inout [UInt8]) throws {
        CanonicalJSONWriter.write(try CanonicalJSONWriter.node(json), into: &out)
    }

    /// Foundation's `JSONEncoder` alone, for comparing with the writer (tests, benchmarks).
    public static func encodeWithFoundation<T: Encodable>(_ value: T) throws -> [UInt8] {
        Array(try encoder.encode(value))
    }

    /// Indented, for files people read (game logs).
    public static func encodePretty<T: Encodable>(_ value: T) throws -> Data {
        if let bytes = try? CanonicalJSONWriter.encode(value, pretty: true) { return Data(bytes) }
        return try prettyEncoder.encode(value)
    }

    /// Foundation's indented form alone, for comparing with the writer's (tests).
    public static func encodePrettyWithFoundation<T: Encodable>(_ value: T) throws -> Data {
        try prettyEncoder.encode(value)
    }

    /// Parses `bytes` once (JSONParser) and decodes `T` from the parsed value (JSONValueDecoder): the wire's hot
    /// path, where Foundation's JSONDecoder cost a thrown error per guess of a JSONValue's type.
    public static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
        try JSONValueDecoder.decode(type, from: parse(bytes))
    }

    /// Bytes to a JSON value; a syntax error is a `DecodingError.dataCorrupted` at the top level, as JSONDecoder's.
    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        do { return try JSONParser.parse(bytes) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: error.description))
        }
    }
}
