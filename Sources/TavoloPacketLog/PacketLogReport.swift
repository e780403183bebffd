import Foundation
import TavoloProtocol

/// The text and JSON that `tavolo log show` and `tavolo log stats` print.
public enum PacketLogReport {
    // MARK: show

    /// The decoded fields of a frame as a JSON value: the payload object of JSON messages, the service's JSON
    /// (after the service byte, §3.9) for application messages, `{sender, seq, body}` for datagrams; nil when it
    /// does not decode.
    public static func fields(of f: LoggedFrame) -> Any? {
        guard let frame = f.frame else { return nil }
        switch frame {
        case .application(_, let body): return json(body)
        case .compact(_, let body):
            // The JSON message it stands for (§13), which is what people read; the bytes are in the frame.
            return f.applicationBody.map(json) ?? ["compactError": f.compactError ?? "?", "hex": body.hexString]
        case .datagram(let d):
            let body: Any =
                d.form == .compact
                ? (f.applicationBody.map(json) ?? ["compactError": f.compactError ?? "?", "hex": d.body.hexString])
                : json(d.body)
            return ["sender": d.sender.hex, "seq": NSNumber(value: d.seq), "body": body]
        default: return f.bytes.count > FrameLimits.headerSize ? json(Array(f.bytes[FrameLimits.headerSize...])) : nil
        }
    }

    /// Any JSON value; bytes that are not JSON come back as `{"notJSON": "<hex>"}`.
    static func json(_ bytes: [UInt8]) -> Any {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) ?? [
            "notJSON": bytes.hexString
        ]
    }

    static func compact(_ value: Any) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }

    /// "k=v k=v" with keys sorted; strings without spaces unquoted.
    static func fieldText(_ value: Any?) -> String {
        guard let value else { return "" }
        guard let object = value as? [String: Any] else { return compact(value) }
        return object.keys.sorted().map { key -> String in
            let v = object[key] ?? NSNull()
            if let s = v as? String, !s.isEmpty, !s.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) {
                return "\(key)=\(s)"
            }
            return "\(key)=\(compact(v))"
        }.joined(separator: " ")
    }

    /// UTC time of day with nanoseconds, e.g. 17:06:09.123456789.
    public static func timeOfDay(_ nanos: UInt64) -> String {
        let secondsOfDay = (nanos / 1_000_000_000) % 86_400
        let frac = nanos % 1_000_000_000
        func two(_ v: UInt64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let f = String(frac)
        return "\(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60))."
            + String(repeating: "0", count: 9 - f.count) + f
    }

    /// ISO 8601 UTC with nanoseconds.
    public static func isoTime(_ nanos: UInt64) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(nanos / 1_000_000_000))
        let c = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC") ?? .current, from: date)
        func pad(_ v: Int?, _ n: Int) -> String {
            let s = String(v ?? 0)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(timeOfDay(nanos))Z"
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }

    /// Longest field text on one line of `showText`.
    public static let maxFieldText = 240

    /// The timeline as lines of text.
    public static func showText(_ log: PacketLog, frames: [LoggedFrame]) -> [String] {
        var lines: [String] = []
        if let local = log.directory.local {
            lines.append("capture of node \(local.name) (\(local.id.hex))")
        }
        if let first = frames.first {
            lines.append("\(frames.count) frames from \(isoTime(first.timeNanos)); times are UTC")
        } else {
            lines.append("no Tavolo frames")
        }
        let peerWidth = max(8, frames.map { log.peer(of: $0).count }.max() ?? 8) + 1
        if !frames.isEmpty {
            lines.append(
                pad("#", 6) + pad("TIME", 19) + pad("DIR", 9) + pad("PEER", peerWidth) + pad("CHANNEL", 11)
                    + pad("SERVICE", 9) + pad("TYPE", 14)
                    + "FIELDS")
        }
        for f in frames {
            var type = f.typeName
            if let kind = f.kind { type += ":" + kind }
            var fields = f.frame == nil ? "MALFORMED: \(f.error ?? "does not decode")" : fieldText(fields(of: f))
            if fields.count > maxFieldText {
                fields =
                    String(fields.prefix(maxFieldText))
                    + "… (\(fields.count - maxFieldText) more characters; --json has all)"
            }
            lines.append(
                pad(String(f.number), 6) + pad(timeOfDay(f.timeNanos), 19) + pad(f.direction?.rawValue ?? "-", 9)
                    + pad(log.peer(of: f), peerWidth) + pad(f.channel, 11) + pad(f.service?.description ?? "-", 9)
                    + pad(type, 14) + fields)
        }
        return lines
    }

    /// One JSON object per frame.
    public static func frameObject(_ log: PacketLog, _ f: LoggedFrame) -> [String: Any] {
        var o: [String: Any] = [
            "number": f.number, "packet": f.packet, "time": isoTime(f.timeNanos),
            "timeNanos": NSNumber(value: f.timeNanos),
            "direction": f.direction?.rawValue ?? NSNull(), "peer": log.peer(of: f), "channel": f.channel,
            "type": f.typeName, "source": f.source.description, "destination": f.destination.description,
            "length": f.bytes.count,
        ]
        if let id = log.peerID(of: f) { o["peerId"] = id.hex }
        if let v = f.version, let t = f.typeCode, let fl = f.flags, f.bytes.count >= FrameLimits.headerSize {
            o["header"] = [
                "version": Int(v), "type": Int(t), "flags": Int(fl), "length": f.bytes.count - FrameLimits.headerSize,
            ]
        }
        if let k = f.kind { o["kind"] = k }
        if let s = f.service { o["service"] = s.description }
        if let fields = fields(of: f) { o["fields"] = fields }
        if let e = f.error { o["error"] = e }
        return o
    }

    public static func issueObject(_ i: PacketLogIssue) -> [String: Any] {
        var o: [String: Any] = ["kind": i.kind.rawValue, "message": i.message, "stopsDecoding": i.stopsDecoding]
        if let b = i.block { o["block"] = b }
        if let p = i.packet { o["packet"] = p }
        if let off = i.offset { o["offset"] = off }
        return o
    }

    /// `{"node": …, "frames": [...], "issues": [...]}`.
    public static func showJSON(_ log: PacketLog, frames: [LoggedFrame]) -> String {
        var o: [String: Any] = [
            "format": log.format, "packets": log.packets, "frames": frames.map { frameObject(log, $0) },
            "issues": log.issues.map(issueObject), "complete": log.isComplete,
        ]
        if let local = log.directory.local { o["node"] = ["name": local.name, "id": local.id.hex] }
        return pretty(o)
    }

    static func pretty(_ o: Any) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: o, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: stats

    public static func statsJSON(_ stats: PacketLogStatistics) -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? e.encode(stats) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    public static func statsText(_ s: PacketLogStatistics) -> [String] {
        var lines = ["\(s.frames) frames, \(s.bytes) bytes (\(s.packets) packets in the file)"]
        func table(_ title: String, _ counts: [String: PacketLogStatistics.Count]) {
            guard !counts.isEmpty else { return }
            lines.append("")
            let width = max(title.count, counts.keys.map(\.count).max() ?? 0) + 2
            lines.append(pad(title.uppercased(), width) + pad("FRAMES", 10) + "BYTES")
            for key in counts.keys.sorted() {
                let c = counts[key] ?? PacketLogStatistics.Count()
                lines.append(pad(key, width) + pad(String(c.frames), 10) + String(c.bytes))
            }
        }
        table("type", s.byType)
        table("service", s.byService)
        table("kind", s.byKind)
        table("channel", s.byChannel)
        table("peer", s.byPeer)
        table("direction", s.byDirection)
        if s.malformed > 0 { lines.append("\n\(s.malformed) frames do not decode") }
        return lines
    }
}
