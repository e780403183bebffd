/// DNS-SD TXT record encoding (RFC 6763 §6): a sequence of strings, each a length byte followed by
/// `key=value` (at most 255 bytes). Pure Swift so it can be unit-tested without a daemon.
///
/// Mapping to `[String: String]`:
/// - `key=` (empty value) and a bare `key` (no `=`, a boolean attribute) both decode to `""`; an empty value
///   encodes as `key=`.
/// - Keys are kept as written (RFC 6763 compares them case-insensitively; Tavolo's keys are lower case).
///   If a key occurs twice, the first occurrence wins (RFC 6763 §6.4).
/// - Entries with an empty key (`=value`) and zero-length strings are ignored; a length byte that runs past
///   the end of the data stops decoding (the truncated entry is dropped).
/// - Encoding sorts keys, so equal dictionaries give equal bytes. An empty dictionary encodes as a single
///   zero byte, as RFC 6763 §6.1 requires.
public enum TXTRecord {
    /// Longest `key=value` string: its length must fit the one-byte length prefix.
    public static let maxEntryLength = 255
    /// Longest whole record the dns_sd API accepts (`uint16_t` length).
    public static let maxRecordLength = 65535

    public static func encode(_ txt: [String: String]) throws(DiscoveryError) -> [UInt8] {
        if txt.isEmpty { return [0] }
        var bytes: [UInt8] = []
        for key in txt.keys.sorted() {
            let value = txt[key] ?? ""
            try validate(key: key)
            let entry = Array(key.utf8) + [UInt8(ascii: "=")] + Array(value.utf8)
            guard entry.count <= maxEntryLength else {
                throw .invalidTXT("\"\(key)=…\" is \(entry.count) bytes; an entry holds at most \(maxEntryLength)")
            }
            bytes.append(UInt8(entry.count))
            bytes.append(contentsOf: entry)
        }
        guard bytes.count <= maxRecordLength else {
            throw .invalidTXT("the record is \(bytes.count) bytes; at most \(maxRecordLength)")
        }
        return bytes
    }

    public static func decode<Bytes: Collection>(_ bytes: Bytes) -> [String: String] where Bytes.Element == UInt8 {
        let data = Array(bytes)
        var result: [String: String] = [:]
        var index = 0
        while index < data.count {
            let length = Int(data[index])
            index += 1
            guard length > 0 else { continue }
            guard index + length <= data.count else { break }
            let entry = data[index..<(index + length)]
            index += length
            let key: String
            let value: String
            if let equals = entry.firstIndex(of: UInt8(ascii: "=")) {
                key = String(decoding: entry[entry.startIndex..<equals], as: UTF8.self)
                value = String(decoding: entry[(equals + 1)...], as: UTF8.self)
            } else {
                key = String(decoding: entry, as: UTF8.self)
                value = ""
            }
            if key.isEmpty || result[key] != nil { continue }
            result[key] = value
        }
        return result
    }

    static func validate(key: String) throws(DiscoveryError) {
        guard !key.isEmpty else { throw .invalidTXT("a key is empty") }
        for byte in key.utf8 where byte < 0x20 || byte > 0x7E || byte == UInt8(ascii: "=") {
            throw .invalidTXT("key \"\(key)\" must be printable ASCII without '='")
        }
    }
}
