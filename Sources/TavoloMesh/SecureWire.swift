import NIOCore
import TavoloProtocol

/// The v2 wire (PROTOCOL.md §3.7): the 10-byte header of §3.1 with version 2, in front of Noise handshake messages
/// (type 7) and of sealed frames (the plaintext frame's type; payload = ciphertext ‖ 16-byte tag).
enum SecureWire {
    static let version: UInt8 = 2
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

    /// The header at the reader index, or nil until 10 bytes are buffered. Checks magic, version, type and length
    /// before any payload is buffered.
    static func parseHeader(_ buffer: ByteBuffer, maxPayload: Int) throws(FrameError) -> Header? {
        guard let b = buffer.getBytes(at: buffer.readerIndex, length: FrameLimits.headerSize) else { return nil }
        guard b[0] == FrameHeader.magic.0, b[1] == FrameHeader.magic.1 else { throw .badMagic(b[0], b[1]) }
        guard b[2] == version else { throw .unsupportedVersion(b[2]) }
        guard b[3] == noiseHandshakeType || MessageType(rawValue: b[3]) != nil else { throw .unknownType(b[3]) }
        let length = Int(b[6]) << 24 | Int(b[7]) << 16 | Int(b[8]) << 8 | Int(b[9])
        guard length <= maxPayload else { throw .tooLarge(length: length, limit: maxPayload) }
        return Header(type: b[3], length: length)
    }
}
