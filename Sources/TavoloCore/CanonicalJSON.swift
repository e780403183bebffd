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
    private static let decoder = JSONDecoder()

    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        Array(try encoder.encode(value))
    }

    /// Indented, for files people read (game logs).
    public static func encodePretty<T: Encodable>(_ value: T) throws -> Data {
        try prettyEncoder.encode(value)
    }

    public static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
        try decoder.decode(type, from: Data(bytes))
    }
}
