import Crypto
import TavoloNoise
import TavoloProtocol

/// Protected datagrams of the v2 wire (PROTOCOL.md §4.6): the header (version 2, type 6), then the sender's id and
/// `seq` in clear, then the JSON body sealed with ChaCha20-Poly1305 under the session's datagram key for that
/// direction, nonce = `seq`, associated data = header ‖ id ‖ seq. A pure value type: no I/O.
enum DatagramSeal {
    /// Bytes a sealed datagram adds to the body: header, id, seq, tag.
    static let overhead = FrameLimits.headerSize + 24 + 16

    static func seal(body: [UInt8], sender: NodeID, seq: UInt64, key: SymmetricKey) throws -> [UInt8] {
        var out = SecureWire.header(
            version: SecureWire.version, type: MessageType.datagram.rawValue, length: 24 + body.count + 16)
        out += sender.bytes
        for i in (0..<8).reversed() { out.append(UInt8(truncatingIfNeeded: seq >> (8 * UInt64(i)))) }
        let box = try ChaChaPoly.seal(
            body, using: key, nonce: try NoiseCipherState.chachaNonce(seq), authenticating: out)
        return out + Array(box.ciphertext) + Array(box.tag)
    }

    /// The claimed sender and seq, read before authentication only to find the key: nil unless the bytes have the
    /// shape of a sealed datagram (size, magic, version 2, type 6, length matching).
    static func peek(_ bytes: [UInt8]) -> (sender: NodeID, seq: UInt64)? {
        guard bytes.count >= overhead, bytes.count <= FrameLimits.maxDatagramSize, bytes[0] == FrameHeader.magic.0,
            bytes[1] == FrameHeader.magic.1, bytes[2] == SecureWire.version,
            bytes[3] == MessageType.datagram.rawValue
        else { return nil }
        let length = Int(bytes[6]) << 24 | Int(bytes[7]) << 16 | Int(bytes[8]) << 8 | Int(bytes[9])
        guard length == bytes.count - FrameLimits.headerSize, let sender = NodeID(bytes: Array(bytes[10..<26]))
        else { return nil }
        let seq = bytes[26..<34].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (sender, seq)
    }

    /// The datagram if it authenticates under `key` and its body is one JSON value (§3.5); nil otherwise.
    static func open(_ bytes: [UInt8], key: SymmetricKey) -> Datagram? {
        guard let (_, seq) = peek(bytes) else { return nil }
        let ad = Array(bytes[0..<34])
        let sealed = bytes[34...]
        guard let nonce = try? NoiseCipherState.chachaNonce(seq),
            let box = try? ChaChaPoly.SealedBox(nonce: nonce, ciphertext: sealed.dropLast(16), tag: sealed.suffix(16)),
            let body = try? ChaChaPoly.open(box, using: key, authenticating: ad)
        else { return nil }
        guard case .datagram(let d)? = try? Frame.decode(type: .datagram, payload: Array(bytes[10..<34]) + Array(body))
        else { return nil }
        return d
    }
}
