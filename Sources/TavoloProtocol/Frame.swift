import Foundation
import TavoloCore

/// One decoded frame of the wire protocol (PROTOCOL.md §3–4).
public enum Frame: Equatable, Sendable {
    case handshake(Handshake)
    case heartbeat(Heartbeat)
    case heartbeatAck(Heartbeat)
    case goodbye(Goodbye)
    /// A reliable application message: the application's Codable value as JSON.
    case application([UInt8])
    case datagram(Datagram)
    /// A reliable application message in compact binary form (PROTOCOL.md §13): the body as sent, first byte a
    /// compact kind. Only its first byte is checked here; the application decodes (and drops) the rest.
    case compact([UInt8])

    public var type: MessageType {
        switch self {
        case .handshake: .handshake
        case .heartbeat: .heartbeat
        case .heartbeatAck: .heartbeatAck
        case .goodbye: .goodbye
        case .application: .application
        case .datagram: .datagram
        case .compact: .compact
        }
    }

    /// The payload bytes (without the header).
    public func payload() throws -> [UInt8] {
        switch self {
        case .handshake(let h): return try WireJSON.encode(h)
        case .heartbeat(let h), .heartbeatAck(let h): return try WireJSON.encode(h)
        case .goodbye(let g): return try WireJSON.encode(g)
        case .application(let body), .compact(let body): return body
        case .datagram(let d):
            var out = d.sender.bytes
            out.reserveCapacity(24 + d.body.count)
            for shift in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: d.seq >> UInt64(shift)))
            }
            out.append(contentsOf: d.body)
            return out
        }
    }

    /// Header plus payload, ready to send.
    public func encoded() throws -> [UInt8] {
        let body = try payload()
        var out: [UInt8] = []
        out.reserveCapacity(FrameLimits.headerSize + body.count)
        FrameHeader(type: type, length: UInt32(body.count)).encode(into: &out)
        out.append(contentsOf: body)
        return out
    }

    /// Decodes the payload of a frame whose header has already been checked.
    public static func decode(type: MessageType, payload: [UInt8]) throws(FrameError) -> Frame {
        // Before any decoder: `JSONDecoder` costs time cubic in the nesting depth (§3.4).
        if type != .datagram, type != .compact, !JSONSyntax.isWellFormed(payload) {
            throw .badPayload(type: type, detail: "not valid JSON, or nested deeper than \(JSONSyntax.maxDepth)")
        }
        do {
            switch type {
            case .handshake:
                let handshake = try WireJSON.decode(Handshake.self, payload)
                try requireIntegers(Handshake.integerMembers, in: payload, type: type)
                if let violation = handshake.violation { throw FrameError.badPayload(type: type, detail: violation) }
                return .handshake(handshake)
            case .heartbeat, .heartbeatAck:
                let heartbeat = try WireJSON.decode(Heartbeat.self, payload)
                try requireIntegers(Heartbeat.integerMembers, in: payload, type: type)
                return type == .heartbeat ? .heartbeat(heartbeat) : .heartbeatAck(heartbeat)
            case .goodbye: return .goodbye(try WireJSON.decode(Goodbye.self, payload))
            case .application:
                // Passed up as bytes, so nothing else would notice (§3.5); checked above.
                return .application(payload)
            case .datagram:
                guard payload.count >= 24, let sender = NodeID(bytes: Array(payload[0..<16])) else {
                    throw FrameError.badPayload(type: type, detail: "datagram shorter than its 24-byte prefix")
                }
                var seq: UInt64 = 0
                for b in payload[16..<24] { seq = seq << 8 | UInt64(b) }
                let body = Array(payload[24...])
                // JSON, or a compact body (§13), told apart by the first byte; the application decodes the latter.
                guard CompactMessage.isCompact(body) || JSONSyntax.isWellFormed(body) else {
                    throw FrameError.badPayload(
                        type: type, detail: "body is not valid JSON, or nested deeper than \(JSONSyntax.maxDepth)")
                }
                return .datagram(Datagram(sender: sender, seq: seq, body: body))
            case .compact:
                // Its first byte names a compact kind, so the application can tell it from JSON (§13.1).
                guard CompactMessage.isCompact(payload) else {
                    throw FrameError.badPayload(type: type, detail: "does not start with a compact kind (1-8)")
                }
                return .compact(payload)
            }
        } catch let e as FrameError {
            throw e
        } catch {
            throw .badPayload(type: type, detail: WireJSON.describe(error))
        }
    }

    /// `JSONDecoder` reads `1.0` and `1e2` into an `Int`; §4 wants integer members written as integers.
    private static func requireIntegers(_ names: [String], in payload: [UInt8], type: MessageType) throws(FrameError) {
        guard let kinds = JSONSyntax.memberKinds(payload) else {
            throw .badPayload(type: type, detail: "not a JSON object with distinct member names")
        }
        for name in names where kinds[name] != .integer {
            throw .badPayload(type: type, detail: "'\(name)' is not an integer")
        }
    }

    /// Parses one whole frame (a UDP datagram, or a test vector); extra bytes are an error.
    public static func parse(_ bytes: [UInt8], maxPayload: Int) throws(FrameError) -> Frame {
        let header = try FrameHeader.parse(bytes.prefix(FrameLimits.headerSize), maxPayload: maxPayload)
        let total = FrameLimits.headerSize + Int(header.length)
        guard bytes.count >= total else { throw .truncated(needed: total, got: bytes.count) }
        guard bytes.count == total else {
            throw .badPayload(type: header.type, detail: "\(bytes.count - total) bytes after the frame")
        }
        return try decode(type: header.type, payload: Array(bytes[FrameLimits.headerSize...]))
    }
}

/// The JSON dialect of payloads: the project's canonical JSON (UTF-8, keys sorted).
public enum WireJSON {
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] { try CanonicalJSON.encode(value) }

    public static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
        try CanonicalJSON.decode(type, bytes)
    }

    /// One line for a decoding error, without Foundation's nested dump.
    public static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing field '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            return "wrong type at '\(c.codingPath.map(\.stringValue).joined(separator: "."))'"
        case DecodingError.dataCorrupted(let c):
            let path = c.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not valid JSON" : "bad value at '\(path)': \(c.debugDescription)"
        default: return "\(error)"
        }
    }
}
