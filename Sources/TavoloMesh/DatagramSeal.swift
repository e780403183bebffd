import NIOCore
import TavoloNoise
import TavoloProtocol

/// Protected datagrams of the wire (PROTOCOL.md §4.6): the header (version 3, type 6), then the sender's id and
/// `seq` in clear, then the body (service byte and message, §3.9) sealed with ChaCha20-Poly1305 under the session's
/// datagram key for that direction, nonce = `seq`, associated data = header ‖ id ‖ seq. A pure value type: no I/O.
///
/// Both ends work in place: a datagram is sealed straight into the buffer that is sent, and opened from the
/// received NIO buffer into the body handed up (`ChaChaPolyAEAD`, libsodium): one allocation each way.
enum DatagramSeal {
    /// Bytes before the ciphertext: header, id, seq. They are the associated data.
    static let clearPrefix = FrameLimits.headerSize + 24
    /// Bytes a sealed datagram adds to the body: header, id, seq, tag.
    static let overhead = clearPrefix + 16

    /// The sealed datagram in one buffer, ready to send.
    static func seal(
        body: [UInt8], sender: NodeID, seq: UInt64, key: [UInt8], allocator: ByteBufferAllocator = .init()
    ) -> ByteBuffer {
        let total = body.count + overhead
        var out = allocator.buffer(capacity: total)
        SecureWire.writeHeader(
            version: SecureWire.version, type: MessageType.datagram.rawValue, length: total - FrameLimits.headerSize,
            into: &out)
        out.writeBytes(sender.bytes)
        out.writeInteger(seq, endianness: .big)
        body.withUnsafeBytes { plaintext in
            key.withUnsafeBytes { key in
                out.withVeryUnsafeMutableBytes { storage in
                    ChaChaPolyAEAD.seal(
                        key: key, nonce: seq, plaintext: plaintext,
                        ad: UnsafeRawBufferPointer(rebasing: storage[..<clearPrefix]),
                        into: UnsafeMutableRawBufferPointer(rebasing: storage[clearPrefix..<total]))
                }
            }
        }
        out.moveWriterIndex(forwardBy: body.count + ChaChaPolyAEAD.tagBytes)
        return out
    }

    /// The same as bytes (tests, tools).
    static func seal(body: [UInt8], sender: NodeID, seq: UInt64, key: [UInt8]) -> [UInt8] {
        Array(seal(body: body, sender: sender, seq: seq, key: key, allocator: ByteBufferAllocator()).readableBytesView)
    }

    /// The claimed sender and seq, read before authentication only to find the key: nil unless the bytes have the
    /// shape of a sealed datagram (size, magic, the wire's version, type 6, length matching).
    static func peek(_ bytes: UnsafeRawBufferPointer) -> (sender: NodeID, seq: UInt64)? {
        guard bytes.count >= overhead, bytes.count <= FrameLimits.maxDatagramSize, bytes[0] == FrameHeader.magic.0,
            bytes[1] == FrameHeader.magic.1, bytes[2] == SecureWire.version,
            bytes[3] == MessageType.datagram.rawValue
        else { return nil }
        let length = Int(bytes[6]) << 24 | Int(bytes[7]) << 16 | Int(bytes[8]) << 8 | Int(bytes[9])
        guard length == bytes.count - FrameLimits.headerSize,
            let sender = NodeID(bytes: Array(bytes[FrameLimits.headerSize..<(FrameLimits.headerSize + 16)]))
        else { return nil }
        var seq: UInt64 = 0
        for b in bytes[(FrameLimits.headerSize + 16)..<clearPrefix] { seq = seq << 8 | UInt64(b) }
        return (sender, seq)
    }

    static func peek(_ bytes: [UInt8]) -> (sender: NodeID, seq: UInt64)? {
        bytes.withUnsafeBytes { peek($0) }
    }

    /// The body if the bytes authenticate under `key` as a datagram of `seq` (from `peek`) and the body is a service
    /// byte and then a compact body (§13) or one JSON value (§3.5): the check `Frame.decode` makes of a clear
    /// datagram's body; nil otherwise.
    static func openBody(_ bytes: UnsafeRawBufferPointer, seq: UInt64, key: [UInt8]) -> Datagram.Body? {
        guard bytes.count >= overhead else { return nil }
        let sealed = UnsafeRawBufferPointer(rebasing: bytes[clearPrefix...])
        var authentic = false
        let body = [UInt8](unsafeUninitializedCapacity: sealed.count - ChaChaPolyAEAD.tagBytes) { out, count in
            authentic = key.withUnsafeBytes { key in
                ChaChaPolyAEAD.open(
                    key: key, nonce: seq, sealed: sealed, ad: UnsafeRawBufferPointer(rebasing: bytes[..<clearPrefix]),
                    into: UnsafeMutableRawBufferPointer(out))
            }
            count = out.count  // zeroed when it did not authenticate
        }
        guard authentic else { return nil }
        return Datagram.Body(body)
    }

    /// The datagram if it authenticates under `key` and its body is a service byte and a message (§3.5); nil
    /// otherwise.
    static func open(_ bytes: [UInt8], key: [UInt8]) -> Datagram? {
        bytes.withUnsafeBytes { raw in
            guard let (sender, seq) = peek(raw), let body = openBody(raw, seq: seq, key: key) else { return nil }
            return Datagram(sender: sender, seq: seq, service: body.service, body: body.message)
        }
    }
}
