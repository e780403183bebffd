import Foundation
import TavoloProtocol

/// A misbehaving or hand-driven peer for tests: a plain blocking socket with a receive timeout.
final class RawPeer {
    let fd: Int32
    private var pending: [UInt8] = []

    enum RawError: Error { case connect(String), closed, timeout }

    init(tcpPort: Int, timeout: TimeInterval = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(tcpPort).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else { throw RawError.connect(String(cString: strerror(errno))) }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func send(_ frame: Frame) throws { send(try frame.encoded()) }

    /// Reads the next whole frame; throws `.closed` at end of stream, `.timeout` when nothing comes.
    func readFrame() throws -> Frame {
        while true {
            if pending.count >= FrameLimits.headerSize {
                let header = try FrameHeader.parse(pending.prefix(FrameLimits.headerSize), maxPayload: 1 << 24)
                let total = FrameLimits.headerSize + Int(header.length)
                if pending.count >= total {
                    let frame = try Frame.parse(Array(pending[..<total]), maxPayload: 1 << 24)
                    pending.removeFirst(total)
                    return frame
                }
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { throw RawError.closed }
            if n < 0 { throw errno == EAGAIN || errno == EWOULDBLOCK ? RawError.timeout : RawError.closed }
            pending += chunk[..<n]
        }
    }

    /// Reads frames until a goodbye arrives (skipping the node's handshake and heartbeats).
    func readGoodbye() throws -> Goodbye {
        while true {
            if case .goodbye(let g) = try readFrame() { return g }
        }
    }

    /// True if the node closed the connection (after any frames still in flight).
    func isClosedByPeer() -> Bool {
        while true {
            do { _ = try readFrame() } catch RawError.closed { return true } catch { return false }
        }
    }
}

/// Sends one UDP datagram to 127.0.0.1:port.
func sendUDP(_ bytes: [UInt8], port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = in_port_t(UInt16(port).bigEndian)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = bytes.withUnsafeBytes { raw in
        withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on (bound, read, and released).
func freeTCPPort() throws -> Int {
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
