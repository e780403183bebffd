import Foundation
import TavoloProtocol

/// A hand-driven TCP client of a node: a plain blocking socket with a receive timeout. It speaks no Noise: against a
/// v2 node it sees only the goodbyes sent in clear before a handshake (PROTOCOL.md §3.7), read as v1 frames.
final class RawClient {
    let fd: Int32
    private var pending: [UInt8] = []

    enum RawError: Error { case connect(String), closed, timeout }

    init(port: Int, timeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
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

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next whole frame; `.closed` at end of stream, `.timeout` when nothing comes.
    func readFrame() throws -> Frame {
        while true {
            if pending.count >= FrameLimits.headerSize, pending[2] == 2 { pending[2] = ProtocolVersion.current }
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

    /// Frames up to and including the first goodbye (the node's handshake comes first).
    func readUntilGoodbye() throws -> (frames: [Frame], goodbye: Goodbye) {
        var frames: [Frame] = []
        while true {
            let f = try readFrame()
            frames.append(f)
            if case .goodbye(let g) = f { return (frames, g) }
        }
    }

    /// True if the node closes the connection (after any frames still in flight) before the timeout.
    func isClosedByPeer() -> Bool {
        while true {
            do { _ = try readFrame() } catch RawError.closed { return true } catch { return false }
        }
    }
}
