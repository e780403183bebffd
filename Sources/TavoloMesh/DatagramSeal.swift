import Crypto
import Foundation
import TavoloNoise
import TavoloProtocol

/// Protected datagrams of the v2 wire (PROTOCOL.md §4.6): the header (version 2, type 6), then the sender's id and
/// `seq` in clear, then the JSON body sealed with ChaCha20-Poly1305 under the session's datagram key for that
/// direction, nonce = `seq`, associated data = header ‖ id ‖ seq. A pure value type: no I/O.
///
/// The hot path works on the received bytes in place (`UnsafeRawBufferPointer`, the datagram's NIO buffer): the
/// only allocations per datagram are swift-crypto's (its sealed box and the plaintext) and the body handed up.
enum DatagramSeal {
    /// Bytes before the ciphertext: header, id, seq. They are the associated data.
    static let clearPrefix = FrameLimits.headerSize + 24
    /// Bytes a sealed datagram adds to the body: header, id, seq, tag.
    static let overhead = clearPrefix + 16

    static func seal(body: [UInt8], sender: NodeID, seq: UInt64, key: SymmetricKey) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + overhead)
        SecureWire.appendHeader(
            version: SecureWire.version, type: MessageType.datagram.rawValue, length: 24 + body.count + 16,
            into: &out)
        out += sender.bytes
        for i in (0..<8).reversed() { out.append(UInt8(truncatingIfNeeded: seq >> (8 * UInt64(i)))) }
        let box = try ChaChaPoly.seal(
            body, using: key, nonce: try NoiseCipherState.chachaNonce(seq), authenticating: out)
        out += box.ciphertext
        out += box.tag
        return out
    }

    /// The claimed sender and seq, read before authentication only to find the key: nil unless the bytes have the
    /// shape of a sealed datagram (size, magic, version 2, type 6, length matching).
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

    /// The body if the bytes authenticate under `key` as a datagram of `seq` (from `peek`) and the body is a compact
    /// body (§13) or one JSON value (§3.5): the check `Frame.decode` makes of a clear datagram's body; nil otherwise.
    static func openBody(_ bytes: UnsafeRawBufferPointer, seq: UInt64, key: SymmetricKey) -> [UInt8]? {
        guard bytes.count >= overhead, let nonce = try? NoiseCipherState.chachaNonce(seq) else { return nil }
        let sealed = bytes.count - 16
        guard
            let box = try? ChaChaPoly.SealedBox(
                nonce: nonce, ciphertext: UnsafeRawBufferPointer(rebasing: bytes[clearPrefix..<sealed]),
                tag: UnsafeRawBufferPointer(rebasing: bytes[sealed...])),
            let plaintext = try? ChaChaPoly.open(
                box, using: key, authenticating: UnsafeRawBufferPointer(rebasing: bytes[0..<clearPrefix]))
        else { return nil }
        let body = [UInt8](plaintext)
        return CompactMessage.isCompact(body) || JSONSyntax.isWellFormed(body) ? body : nil
    }

    /// The datagram if it authenticates under `key` and its body is one JSON value (§3.5); nil otherwise.
    static func open(_ bytes: [UInt8], key: SymmetricKey) -> Datagram? {
        bytes.withUnsafeBytes { raw in
            guard let (sender, seq) = peek(raw), let body = openBody(raw, seq: seq, key: key) else { return nil }
            return Datagram(sender: sender, seq: seq, body: body)
        }
    }
}
