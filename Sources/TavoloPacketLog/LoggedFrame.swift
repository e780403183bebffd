import Foundation
import TavoloProtocol

/// One Tavolo frame found in a capture, decoded as far as it goes.
public struct LoggedFrame: Sendable {
    /// 1-based position among the Tavolo frames of the file.
    public var number: Int
    /// Number of the packet that completes the frame (Wireshark's frame number).
    public var packet: Int
    /// Capture time, nanoseconds since 1970 UTC.
    public var timeNanos: UInt64
    /// Sent or received by the recording node; nil in captures that do not say (a live capture of `lo`).
    public var direction: PacketRecord.Direction?
    public var transport: PacketRecord.Transport
    public var source: PacketEndpoint
    public var destination: PacketEndpoint
    /// Header and payload as captured.
    public var bytes: [UInt8]
    /// The decoded frame; nil when it does not decode (see `error`).
    public var frame: Frame?
    /// Why the frame does not decode.
    public var error: String?

    /// "reliable" (TCP) or "unreliable" (UDP).
    public var channel: String { transport == .tcp ? "reliable" : "unreliable" }

    /// The header's type byte, or nil when the frame is too short to have one.
    public var typeCode: UInt8? { bytes.count > 3 ? bytes[3] : nil }
    public var version: UInt8? { bytes.count > 2 ? bytes[2] : nil }
    public var flags: UInt8? { bytes.count > 4 ? bytes[4] : nil }

    /// The message type's name ("handshake", …), or "type-N" for an unknown type byte.
    public var typeName: String {
        guard let code = typeCode else { return "invalid" }
        return MessageType(rawValue: code)?.description ?? "type-\(code)"
    }

    /// The service an application message, compact message or datagram names (PROTOCOL.md §3.9); nil for the
    /// other frames.
    public var service: Service? {
        switch frame {
        case .application(let s, _)?, .compact(let s, _)?: s
        case .datagram(let d)?: d.service
        default: nil
        }
    }

    /// The message after the service byte of an application message or datagram, as JSON. A compact message
    /// (PROTOCOL.md §13) is given as the JSON message it stands for, so every reader of the log (stats, show,
    /// replay) reads it as such; one that does not decode has no body (it is shown as `compactError`).
    public var applicationBody: [UInt8]? {
        switch frame {
        case .application(_, let body)?: body
        case .compact(_, let body)?: try? CompactMessage.decode(body).jsonEquivalent()
        case .datagram(let d)?: d.form == .compact ? try? CompactMessage.decode(d.body).jsonEquivalent() : d.body
        default: nil
        }
    }

    /// Why a compact body (a compact frame's, or a datagram's) does not decode; nil when it does or is JSON.
    public var compactError: String? {
        let body: [UInt8]
        switch frame {
        case .compact(_, let b)?: body = b
        case .datagram(let d)? where d.form == .compact: body = d.body
        default: return nil
        }
        do {
            _ = try CompactMessage.decode(body)
            return nil
        } catch { return error.description }
    }

    /// The `type` (else `kind`) string of an application payload: table messages are told apart by it.
    public var kind: String? {
        guard let object = applicationObject else { return nil }
        return (object["type"] as? String) ?? (object["kind"] as? String)
    }

    /// The table a table message is about (its `table` member, compact ones included), else nil.
    public var tableID: String? {
        guard service == .tables else { return nil }
        return applicationObject?["table"] as? String
    }

    private var applicationObject: [String: Any]? {
        guard let body = applicationBody else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) as? [String: Any]
    }
}
