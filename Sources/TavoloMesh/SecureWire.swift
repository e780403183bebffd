import NIOCore
import TavoloProtocol

/// The sealed wire (PROTOCOL.md §3.7, introduced in v2): the 10-byte header of §3.1 with the wire's version, in
/// front of Noise handshake messages (type 7) and of sealed frames (the plaintext frame's type; payload =
/// ciphertext ‖ 16-byte tag).
enum SecureWire {
    /// 3: v2's sealed wire whose application messages start with their service byte (§3.6, §3.9). A v2 peer's
    /// first header already differs, and is refused with goodbye version-mismatch in clear.
    static let version: UInt8 = ProtocolVersion.network
    static let noiseHandshakeType: UInt8 = 7
    /// Noise messages are at most 65,535 bytes; ours are a few hundred (a Tavolo handshake is at most 16 KiB).
    static let maxHandshakeMessage = FrameLimits.maxHandshakePayload + 96

    struct Header {
        var type: UInt8
        var length: Int
    }

    static func header(version: UInt8, type: UInt8, length: Int) -> [UInt8] {
        let n = UInt32(truncatingIfNeeded: length)
        return [
            FrameHeader.magic.0, FrameHeader.magic.1, version, type, 0, 0,
            UInt8(truncatingIfNeeded: n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8),
            UInt8(truncatingIfNeeded: n),
        ]
    }

    /// The same header appended in place: no array per frame on the hot paths.
    static func appendHeader(version: UInt8, type: UInt8, length: Int, into out: inout [UInt8]) {
        let n = UInt32(truncatingIfNeeded: length)
        out.append(FrameHeader.magic.0)
        out.append(FrameHeader.magic.1)
        out.append(version)
        out.append(type)
        out.append(0)
        out.append(0)
        out.append(UInt8(truncatingIfNeeded: n >> 24))
        out.append(UInt8(truncatingIfNeeded: n >> 16))
        out.append(UInt8(truncatingIfNeeded: n >> 8))
        out.append(UInt8(truncatingIfNeeded: n))
    }

    /// The same header written into a buffer: one integer store, no array.
    static func writeHeader(version: UInt8, type: UInt8, length: Int, into out: inout ByteBuffer) {
        let magic = UInt16(FrameHeader.magic.0) << 8 | UInt16(FrameHeader.magic.1)
        let first = UInt64(magic) << 48 | UInt64(version) << 40 | UInt64(type) << 32
        out.writeInteger(first | UInt64(UInt32(truncatingIfNeeded: length) >> 16))
        out.writeInteger(UInt16(truncatingIfNeeded: length))
    }

    /// The header at the reader index, or nil until 10 bytes are buffered. Checks magic, version, type and length
    /// before any payload is buffered.
    static func parseHeader(_ buffer: ByteBuffer, maxPayload: Int) throws(FrameError) -> Header? {
        // Two integer reads instead of an array of 10 bytes: this runs for every frame.
        let at = buffer.readerIndex
        guard let first = buffer.getInteger(at: at, as: UInt64.self),
            let low = buffer.getInteger(at: at + 8, as: UInt16.self)
        else { return nil }
        let (m0, m1) = (UInt8(truncatingIfNeeded: first >> 56), UInt8(truncatingIfNeeded: first >> 48))
        let (v, type) = (UInt8(truncatingIfNeeded: first >> 40), UInt8(truncatingIfNeeded: first >> 32))
        guard m0 == FrameHeader.magic.0, m1 == FrameHeader.magic.1 else { throw .badMagic(m0, m1) }
        guard v == version else { throw .unsupportedVersion(v, expected: version) }
        guard type == noiseHandshakeType || MessageType(rawValue: type) != nil else { throw .unknownType(type) }
        let length = Int(truncatingIfNeeded: first & 0xFFFF) << 16 | Int(low)
        guard length <= maxPayload else { throw .tooLarge(length: length, limit: maxPayload) }
        return Header(type: type, length: length)
    }
}
