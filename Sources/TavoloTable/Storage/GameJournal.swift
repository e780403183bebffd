import TavoloCore

/// The format of `games/<table>.journal` (PROTOCOL.md §9.9): the game log of an unfinished game as one line per
/// record, appended as the game goes, so a move costs one small `write` instead of re-encoding the whole log.
///
/// Each line is one canonical JSON object with a single member, then `\n`:
/// - `{"header": <game log>}` first: every field of the log (§9.6) with `deals` and `moves` empty and no
///   `takeovers`; a later header line replaces those fields (the table changes when seats pass to a bot, §9.12)
///   and keeps the records read so far;
/// - `{"deal": {number, cards}}`, `{"move": {number, seat, move, text, before, after}}`,
///   `{"takeover": {…}}`: one entry of the log's `deals`, `moves` or `takeovers`, in the order this node applied
///   them.
public enum GameJournal {
    public enum Record: Codable, Equatable, Sendable {
        case header(GameLog)
        case deal(GameLog.LoggedDeal)
        case move(GameLog.LoggedMove)
        case takeover(GameLog.LoggedTakeover)

        private enum Key: String, CodingKey { case header, deal, move, takeover }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            guard c.allKeys.count == 1, let key = c.allKeys.first else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: [],
                        debugDescription: "a journal line has exactly one of header, deal, move, takeover"))
            }
            switch key {
            case .header: self = .header(try c.decode(GameLog.self, forKey: key))
            case .deal: self = .deal(try c.decode(GameLog.LoggedDeal.self, forKey: key))
            case .move: self = .move(try c.decode(GameLog.LoggedMove.self, forKey: key))
            case .takeover: self = .takeover(try c.decode(GameLog.LoggedTakeover.self, forKey: key))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            switch self {
            case .header(let log): try c.encode(log, forKey: .header)
            case .deal(let d): try c.encode(d, forKey: .deal)
            case .move(let m): try c.encode(m, forKey: .move)
            case .takeover(let t): try c.encode(t, forKey: .takeover)
            }
        }

        /// The record as one journal line: canonical JSON and `\n` (JSON strings escape every newline, so the
        /// only `\n` is the last byte).
        public func line() throws -> [UInt8] {
            if case .move(let m) = self, let line = try? m.journalLine() { return line }
            return try CanonicalJSON.encode(self) + [0x0A]
        }
    }

    public struct Malformed: Error, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { line == 0 ? "the journal \(reason)" : "line \(line) of the journal \(reason)" }
    }

    /// What a journal holds: the log it describes, and whether a torn last line was left out.
    public struct Contents: Sendable {
        public var log: GameLog
        /// The number of complete lines read.
        public var lines: Int
        /// A last line cut short by a crash mid-append (no `\n`, or it does not parse): left out, as if the
        /// append had not begun.
        public var tornTail: Bool
    }

    /// Every line of a whole journal: the header, then each record that follows it.
    public static func lines(for log: GameLog) throws -> [UInt8] {
        var bytes = try Record.header(log.journalHeader).line()
        for d in log.deals { bytes += try Record.deal(d).line() }
        for t in log.takeovers ?? [] { bytes += try Record.takeover(t).line() }
        for m in log.moves { bytes += try Record.move(m).line() }
        return bytes
    }

    /// Reads a journal back into the log it describes. The last line may be torn (a crash mid-append): it is left
    /// out. Any other line that does not parse as one record, or a first line that is not a header, makes the
    /// whole journal malformed: a log with a hole in it is never restored.
    public static func read(_ bytes: [UInt8]) throws(Malformed) -> Contents {
        var records: [Record] = []
        var start = 0
        var tornTail = false
        var number = 0
        while start < bytes.count {
            number += 1
            let end = bytes[start...].firstIndex(of: 0x0A)
            let line = Array(bytes[start..<(end ?? bytes.count)])
            let isLast = end.map { $0 + 1 == bytes.count } ?? true
            // A line without its `\n` was cut short: only the last can be.
            guard let end else {
                tornTail = true
                break
            }
            do {
                records.append(try CanonicalJSON.decode(Record.self, line))
            } catch {
                guard isLast else { throw Malformed(line: number, reason: "does not parse: \(error)") }
                tornTail = true
                break
            }
            start = end + 1
        }
        guard case .header(var log)? = records.first else {
            throw Malformed(line: 1, reason: records.isEmpty ? "is missing (no header)" : "is not a header")
        }
        for record in records.dropFirst() {
            switch record {
            case .header(let newer):
                let (deals, moves, takeovers) = (log.deals, log.moves, log.takeovers)
                log = newer
                (log.deals, log.moves, log.takeovers) = (deals, moves, takeovers)
            case .deal(let d): log.deals.append(d)
            case .move(let m): log.moves.append(m)
            case .takeover(let t): log.takeovers = (log.takeovers ?? []) + [t]
            }
        }
        return Contents(log: log, lines: records.count, tornTail: tornTail)
    }
}

extension GameLog {
    /// Every field but the entries a journal appends one by one.
    public var journalHeader: GameLog {
        var h = self
        h.deals = []
        h.moves = []
        h.takeovers = nil
        return h
    }

    /// Over here: finished (every member's final hash in) or stopped. Its complete log replaces its journal.
    public var isComplete: Bool { stopped != nil || !finalHashes.isEmpty }
}

extension GameLog.LoggedMove {
    /// `{"move":{…}}` and `\n`, written field by field in canonical order — the bytes `CanonicalJSON.encode` gives
    /// (`GameJournalTests` compares them) without `Codable`'s containers: every node writes one per move, and the
    /// generic encoding was the largest part of a journal append (issue 19).
    func journalLine() throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(96 + before.utf8.count + after.utf8.count + text.utf8.count)
        out.append(contentsOf: Self.openMove)
        CanonicalJSON.appendString(after, to: &out)
        out.append(contentsOf: Self.beforeKey)
        CanonicalJSON.appendString(before, to: &out)
        out.append(contentsOf: Self.moveKey)
        try CanonicalJSON.append(move, to: &out)
        out.append(contentsOf: Self.numberKey)
        CanonicalJSON.appendInteger(number, to: &out)
        out.append(contentsOf: Self.seatKey)
        CanonicalJSON.appendInteger(seat, to: &out)
        out.append(contentsOf: Self.textKey)
        CanonicalJSON.appendString(text, to: &out)
        out.append(contentsOf: Self.close)
        return out
    }

    // Keys sorted by their UTF-8 bytes, as canonical JSON writes them.
    private static let openMove = Array(#"{"move":{"after":"#.utf8)
    private static let beforeKey = Array(#","before":"#.utf8)
    private static let moveKey = Array(#","move":"#.utf8)
    private static let numberKey = Array(#","number":"#.utf8)
    private static let seatKey = Array(#","seat":"#.utf8)
    private static let textKey = Array(#","text":"#.utf8)
    private static let close = Array("}}\n".utf8)
}
