@preconcurrency import Crypto
import Foundation
import TavoloNoise
import TavoloProtocol

/// A hand-driven, possibly hostile peer of a node for tests: a plain blocking TCP socket with a receive timeout.
///
/// Two modes. `clear` speaks the v1 wire of PROTOCOL.md §3.1 (frames in clear): against a v2 node it only sees the
/// goodbye sent in clear before a handshake (§3.7). After `noiseHandshake(...)` it is an *authenticated stranger*:
/// it has run the real Noise XX handshake with its own key (§3.7), `send(_ frame:)` seals and `readFrame()` opens,
/// so what it says next reaches the node's table layer exactly as a modified node's frames would.
public final class RawPeer {
    public let fd: Int32
    private var pending: [UInt8] = []
    /// Set once `noiseHandshake` completed: frames are sealed and opened with these.
    private var transport: (send: NoiseCipherState, receive: NoiseCipherState)?
    /// The node's static key, as its handshake proved it.
    public private(set) var remoteStatic: [UInt8]?
    /// The version in the header of every frame it puts on the wire (PROTOCOL.md §3.6): the node's, 3, unless a test
    /// plays an older node.
    public var wireVersion: UInt8 = 3

    public enum RawError: Error { case connect(String), closed, timeout, handshake(String) }

    public init(port: Int, host: String = "127.0.0.1", timeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        setTimeout(timeout)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr(host)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            let detail = String(cString: strerror(errno))
            close(fd)
            throw RawError.connect(detail)
        }
    }

    deinit { close(fd) }

    /// How long a read waits for bytes before `.timeout`.
    public func setTimeout(_ seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Raw bytes onto the socket, whatever the mode.
    public func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// A frame: in clear (v1) before a Noise handshake, sealed after one (§3.7: the header is the associated data).
    public func send(_ frame: Frame) throws {
        let clear = try frame.encoded()
        guard var keys = transport else { return send(clear) }
        let body = Array(clear.dropFirst(FrameLimits.headerSize))
        let header = Self.header(version: wireVersion, type: clear[3], length: body.count + 16)
        send(header + (try keys.send.encrypt(associatedData: header, plaintext: body)))
        transport = keys
    }

    /// A sealed frame whose ciphertext has one byte flipped: what a relay tampering with the stream sends.
    public func sendTampered(_ frame: Frame, flipping index: Int = 0) throws {
        guard var keys = transport else { throw RawError.handshake("no session keys") }
        let clear = try frame.encoded()
        let body = Array(clear.dropFirst(FrameLimits.headerSize))
        let header = Self.header(version: wireVersion, type: clear[3], length: body.count + 16)
        var sealed = try keys.send.encrypt(associatedData: header, plaintext: body)
        sealed[index % sealed.count] ^= 0x01
        send(header + sealed)
        transport = keys
    }

    /// Runs Noise XX as the initiator with `key` (§3.7), `handshake` as the payload of message 3; returns the
    /// node's handshake (the payload of message 2). Throws if the node closes or says goodbye instead.
    @discardableResult
    public func noiseHandshake(key: Curve25519.KeyAgreement.PrivateKey, handshake: Handshake) throws -> Handshake {
        var hs = NoiseHandshakeState(initiator: true, prologue: TavoloKeyDerivation.prologue, staticKey: key)
        send(Self.header(version: wireVersion, type: 7, length: 32) + (try hs.writeMessage(payload: [])))
        let (type, message2) = try readWire()
        guard type == 7 else {
            throw RawError.handshake("node answered type \(type): \(String(decoding: message2, as: UTF8.self))")
        }
        let payload = try hs.readMessage(message2)
        remoteStatic = hs.remoteStatic.map { Array($0.rawRepresentation) }
        guard case .handshake(let theirs) = try Frame.decode(type: .handshake, payload: payload) else {
            throw RawError.handshake("message 2 carries no handshake")
        }
        let ours = try Frame.handshake(handshake).encoded().dropFirst(FrameLimits.headerSize)
        let message3 = try hs.writeMessage(payload: Array(ours))
        send(Self.header(version: wireVersion, type: 7, length: message3.count) + message3)
        transport = try hs.split()
        return theirs
    }

    /// The next whole frame, opened if sealed; `.closed` at end of stream, `.timeout` when nothing comes.
    /// A goodbye in clear (sent before the handshake completed, §3.7) is read as the goodbye it is.
    public func readFrame() throws -> Frame {
        let (type, body) = try readWire()
        guard let messageType = MessageType(rawValue: type) else {
            throw FrameError.unknownType(type)
        }
        if var keys = transport, !(messageType == .goodbye && (try? Frame.decode(type: .goodbye, payload: body)) != nil)
        {
            let header = Self.header(version: wireVersion, type: type, length: body.count)
            let plaintext = try keys.receive.decrypt(associatedData: header, ciphertext: body)
            transport = keys
            return try Frame.decode(type: messageType, payload: plaintext)
        }
        return try Frame.decode(type: messageType, payload: body)
    }

    /// Frames up to and including the first goodbye (skipping the node's handshake and heartbeats).
    public func readUntilGoodbye() throws -> (frames: [Frame], goodbye: Goodbye) {
        var frames: [Frame] = []
        while true {
            let f = try readFrame()
            frames.append(f)
            if case .goodbye(let g) = f { return (frames, g) }
        }
    }

    public func readGoodbye() throws -> Goodbye { try readUntilGoodbye().goodbye }

    /// True if the node closes the connection (after any frames still in flight) before the timeout.
    public func isClosedByPeer() -> Bool {
        while true {
            do { _ = try readWire() } catch RawError.closed { return true } catch { return false }
        }
    }

    /// One frame off the wire, v1 or v2 header alike: its type and its payload as sent.
    private func readWire() throws -> (type: UInt8, body: [UInt8]) {
        while true {
            if pending.count >= FrameLimits.headerSize {
                guard pending[0] == FrameHeader.magic.0, pending[1] == FrameHeader.magic.1 else {
                    throw FrameError.badMagic(pending[0], pending[1])
                }
                let length = Int(pending[6]) << 24 | Int(pending[7]) << 16 | Int(pending[8]) << 8 | Int(pending[9])
                let total = FrameLimits.headerSize + length
                if pending.count >= total {
                    let type = pending[3]
                    let body = Array(pending[FrameLimits.headerSize..<total])
                    pending.removeFirst(total)
                    return (type, body)
                }
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { throw RawError.closed }
            if n < 0 { throw errno == EAGAIN || errno == EWOULDBLOCK ? RawError.timeout : RawError.closed }
            pending += chunk[..<n]
        }
    }

    static func header(version: UInt8, type: UInt8, length: Int) -> [UInt8] {
        [FrameHeader.magic.0, FrameHeader.magic.1, version, type, 0, 0]
            + withUnsafeBytes(
                of: UInt32(length).bigEndian, Array.init)
    }

    // MARK: Keys of strangers

    /// The node id a static key gives (§3.3).
    public static func nodeID(of key: Curve25519.KeyAgreement.PrivateKey) -> NodeID {
        // swift-format-ignore: NeverForceUnwrap
        // (a derived id is 16 bytes: always a node id)
        NodeID(bytes: TavoloKeyDerivation.nodeIDBytes(staticPublicKey: Array(key.publicKey.rawRepresentation)))!
    }

    /// A fresh key whose node id is smaller than every id in `ids`, so the nodes accept its connection (§4.7: the
    /// smaller id dials). Ids are hashes: a few hundred tries at most in practice.
    public static func strangerKey(below ids: [NodeID]) -> Curve25519.KeyAgreement.PrivateKey {
        while true {
            let key = Curve25519.KeyAgreement.PrivateKey()
            let id = nodeID(of: key)
            if ids.allSatisfy({ id < $0 }) { return key }
        }
    }
}

/// Sends one UDP datagram to host:port.
public func sendUDP(_ bytes: [UInt8], port: Int, host: String = "127.0.0.1") {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = in_port_t(UInt16(port).bigEndian)
    addr.sin_addr.s_addr = inet_addr(host)
    _ = bytes.withUnsafeBytes { raw in
        withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on (bound, read, and released).
public func freeTCPPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = 0
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0
        }
    }
    guard ok else { throw RawPeer.RawError.connect(String(cString: strerror(errno))) }
    return Int(UInt16(bigEndian: addr.sin_port))
}
