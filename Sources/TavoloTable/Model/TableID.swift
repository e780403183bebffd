import Foundation

/// A table's id, chosen by its host: `<first 8 hex digits of the host id>-<n>` (PROTOCOL.md §9).
/// Receivers accept 1–64 characters of ASCII letters, digits and `-`; anything else makes the message malformed.
public struct TableID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public static let maxLength = 64

    public init?(_ rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= Self.maxLength,
            rawValue.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") })
        else { return nil }
        self.rawValue = rawValue
    }

    /// For literals in tests and code; a literal that is not a valid id traps at once where it is written.
    public init(stringLiteral value: String) {
        guard let id = TableID(value) else { preconditionFailure("not a table id: \(value)") }
        self = id
    }

    public var description: String { rawValue }

    public static func < (a: TableID, b: TableID) -> Bool {
        // Numeric suffixes sort as numbers, so `…-10` comes after `…-9`.
        a.rawValue.compare(b.rawValue, options: .numeric) == .orderedAscending
    }

    public init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let id = TableID(s) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a table id (1-64 of A-Z a-z 0-9 -)"))
        }
        self = id
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
