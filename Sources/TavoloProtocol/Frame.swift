import Foundation
import TavoloCore

/// One decoded frame of the wire protocol (PROTOCOL.md §3–4).
public enum Frame: Equatable, Sendable {
    case handshake(Handshake)
    case heartbeat(Heartbeat)
    case heartbeatAck(Heartbeat)
    case goodbye(Goodbye)
    /// A reliable application message: the service it is for (its payload's first byte, PROTOCOL.md §3.9) and
    /// the service's JSON after that byte.
    case application(Service, [UInt8])
    case datagram(Datagram)
    /// A reliable application message in compact binary form (PROTOCOL.md §13): its service, then the body as sent,
    /// first byte a compact kind. Only that byte is checked here; the service decodes (and drops) the rest.
    case compact(Service, [UInt8])

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
        case .application(let service, let body), .compact(let service, let body): return [service.rawValue] + body
        case .datagram(let d):
            var out = d.sender.bytes
            out.reserveCapacity(25 + d.body.count)
            for shift in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: d.seq >> UInt64(shift)))
            }
            out.append(d.service.rawValue)
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
        // Before any decoder: `JSONDecoder` costs time cubic in the nesting depth (§3.4). Application messages are
        // checked after their service byte.
        if type != .datagram, type != .application, type != .compact, !JSONSyntax.isWellFormed(payload) {
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
            case .datagram:
                guard payload.count >= 24, let sender = NodeID(bytes: Array(payload[0..<16])) else {
                    throw FrameError.badPayload(type: type, detail: "datagram shorter than its 24-byte prefix")
                }
                var seq: UInt64 = 0
                for b in payload[16..<24] { seq = seq << 8 | UInt64(b) }
                guard let body = Datagram.Body(Array(payload[24...])) else {
                    throw FrameError.badPayload(
                        type: type,
                        detail: "body is not a service byte and then JSON (nested at most \(JSONSyntax.maxDepth) deep) "
                            + "or a compact body")
                }
                return .datagram(Datagram(sender: sender, seq: seq, service: body.service, body: body.message))
            case .application, .compact:
                guard let first = payload.first else {
                    throw FrameError.badPayload(type: type, detail: "no service byte")
                }
                return try decodeMessage(
                    type: type, service: Service(rawValue: first), message: Array(payload.dropFirst()))
            }
        } catch let e as FrameError {
            throw e
        } catch {
            throw .badPayload(type: type, detail: WireJSON.describe(error))
        }
    }

    /// An application or compact message after its service byte (§3.5, §3.9): the checks every receiver makes
    /// whatever the service, so the pipeline can read the service byte and the rest from its buffer separately.
    public static func decodeMessage(type: MessageType, service: Service, message: [UInt8]) throws(FrameError)
        -> Frame
    {
        switch type {
        case .application:
            // Passed up as bytes, so nothing else would notice (§3.5): checked here, before any decoder.
            guard JSONSyntax.isWellFormed(message) else {
                throw .badPayload(
                    type: type,
                    detail: "no JSON after the service byte, or nested deeper than \(JSONSyntax.maxDepth)")
            }
            return .application(service, message)
        case .compact:
            // The body's first byte names a compact kind (§13.1).
            guard CompactMessage.isCompact(message) else {
                throw .badPayload(type: type, detail: "no compact kind (1-8) after the service byte")
            }
            return .compact(service, message)
        default:
            throw .badPayload(type: type, detail: "not an application message")
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
