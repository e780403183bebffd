import TavoloCore

extension CompactMessage {
    /// Why bytes are not a compact message (§13.4). A receiver drops such a message and counts it as a refused
    /// table message; it never closes the connection for it.
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public let description: String
        public init(_ d: String) { description = d }
    }

    /// Decodes one compact body; every rule of §13 is checked here.
    public static func decode(_ body: some Collection<UInt8>) throws(Malformed) -> CompactMessage {
        var r = Reader(bytes: Array(body))
        guard body.count <= maxBodyBytes else { throw Malformed("longer than \(maxBodyBytes) bytes") }
        guard let k = r.byte() else { throw Malformed("empty") }
        guard let kind = Kind(rawValue: k) else { throw Malformed("unknown kind \(k)") }
        var m = CompactMessage(kind: kind, table: try r.tableID(short: kind.isShort), number: 0)
        for field in kind.fields {
            switch field {
            case .number: m.number = try r.varint("number")
            case .seat: m.seat = try r.varint("seat")
            case .hash: m.hash = try r.hash(kind.hashSize)
            case .json: m.json = try r.jsonTail()
            }
        }
        // Without a JSON value at the end (a confirmation), the body ends with its hash.
        guard r.atEnd else { throw Malformed("\(r.remaining) bytes after the hash") }
        return m
    }

    /// The JSON message this one stands for, as canonical JSON text (hashes in lower-case hex): what a JSON
    /// sender would have sent. The packet log and the dissector show it; decoding it gives the same message.
    public func jsonEquivalent() -> [UInt8] {
        var members: [(String, String)] = [
            ("type", Self.quoted(kind.typeName)), ("table", Self.quoted(table)), ("number", String(number)),
        ]
        if let seat { members.append(("seat", String(seat))) }
        if let hash {
            members.append((kind.long == .raceMove ? "seatHash" : "stateHash", Self.quoted(hash.hexString)))
        }
        if let json { members.append((kind == .progress ? "progress" : "move", String(decoding: json, as: UTF8.self))) }
        // Keys sorted by their bytes (§4's dialect); the values are already JSON text.
        let text = "{" + members.sorted { $0.0 < $1.0 }.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        return Array(text.utf8)
    }

    /// Table ids and type names are ASCII letters, digits, `-` and `.`: nothing to escape.
    private static func quoted(_ s: String) -> String { "\"\(s)\"" }

    struct Reader {
        let bytes: [UInt8]
        var at = 0

        var atEnd: Bool { at == bytes.count }
        var remaining: Int { bytes.count - at }

        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func take(_ n: Int) -> ArraySlice<UInt8>? {
            guard n <= remaining else { return nil }
            defer { at += n }
            return bytes[at..<at + n]
        }

        /// Unsigned LEB128 in its shortest form, at most 5 bytes, at most `maxInteger`.
        mutating func varint(_ name: String) throws(Malformed) -> Int {
            var value: UInt64 = 0
            for i in 0..<5 {
                guard let b = byte() else { throw Malformed("\(name) cut short") }
                value |= UInt64(b & 0x7F) << (7 * UInt64(i))
                if b & 0x80 == 0 {
                    guard i == 0 || b != 0 else { throw Malformed("\(name) not in its shortest form") }
                    guard value <= UInt64(CompactMessage.maxInteger) else { throw Malformed("\(name) too large") }
                    return Int(value)
                }
            }
            throw Malformed("\(name) longer than 5 bytes")
        }

        mutating func hash(_ size: Int) throws(Malformed) -> [UInt8] {
            guard let h = take(size) else { throw Malformed("hash cut short") }
            return Array(h)
        }

        /// The table id: its text form (length 1–64, then letters, digits and `-`), or in a short kind also the
        /// host-made form (`0x00`, 4 bytes, two varints, §13.2).
        mutating func tableID(short: Bool) throws(Malformed) -> String {
            guard let length = byte() else { throw Malformed("table id missing") }
            if short && length == HostTableID.marker {
                guard let host = take(4) else { throw Malformed("short table id cut short") }
                let start = try varint("table id")
                let count = try varint("table id")
                return HostTableID(host: Array(host), start: start, count: count).text
            }
            guard (1...64).contains(length) else { throw Malformed("table id length not 1-64") }
            guard let id = take(Int(length)), id.allSatisfy(CompactMessage.isTableIDByte) else {
                throw Malformed("table id not letters, digits and -")
            }
            return String(decoding: id, as: UTF8.self)
        }

        /// The rest: exactly one JSON value, nested at most one level less than a whole message may be (§3.4).
        mutating func jsonTail() throws(Malformed) -> [UInt8] {
            let rest = Array(bytes[at...])
            at = bytes.count
            guard !rest.isEmpty, JSONSyntax.isWellFormed(rest, maxDepth: JSONSyntax.maxDepth - 1) else {
                throw Malformed("the move or progress is not one JSON value")
            }
            return rest
        }
    }
}
