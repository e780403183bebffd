// swift-format-ignore-file: NeverForceUnwrap

// (a benchmark's buffers are allocated with a size, never empty: their base address is never nil)
import Foundation

/// The baseline: blocking POSIX TCP sockets on 127.0.0.1, TCP_NODELAY on both ends, one thread echoing
/// fixed-size frames, the caller timing each write-then-read.
enum PlainSocketPingPong {
    /// Round-trip times in microseconds (after a 10% warm-up).
    static func run(frameBytes: Int, count: Int) throws -> [Double] {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        defer { close(listener) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &addr) { p in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                guard bind(listener, sa, len) == 0, listen(listener, 1) == 0, getsockname(listener, sa, &len) == 0
                else {
                    throw BenchError("bind/listen: \(String(cString: strerror(errno)))")
                }
            }
        }
        let port = UInt16(bigEndian: addr.sin_port)
        let total = count + count / 10
        let server = Thread {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            noDelay(fd)
            var buf = [UInt8](repeating: 0, count: frameBytes)
            for _ in 0..<total {
                guard readFully(fd, &buf), writeFully(fd, buf) else { break }
            }
            close(fd)
        }
        server.start()

        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var to = sockaddr_in()
        to.sin_family = sa_family_t(AF_INET)
        to.sin_port = port.bigEndian
        to.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &to) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else { throw BenchError("connect: \(String(cString: strerror(errno)))") }
        noDelay(fd)
        var out = [UInt8](repeating: 0x61, count: frameBytes)
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for i in 0..<total {
            let start = DispatchTime.now().uptimeNanoseconds
            guard writeFully(fd, out), readFully(fd, &out) else { throw BenchError("baseline connection broke") }
            if i >= total - count { samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000) }
        }
        return samples
    }

    /// The UDP baseline, written here rather than in C so that both plain-socket figures come from the same process
    /// and thread model as the TCP one (blocking sockets, one echo thread, the caller timing send-then-receive).
    /// Round-trip times in microseconds (after a 10% warm-up); a datagram lost on loopback would stall it, so each
    /// socket has a receive timeout and a lost ping is sent again.
    static func runUDP(frameBytes: Int, count: Int) throws -> [Double] {
        let server = try boundUDPSocket()
        let client = try boundUDPSocket()
        defer {
            close(server.fd)
            close(client.fd)
        }
        let total = count + count / 10
        let done = Counter()  // > 0: the echo thread stops
        let echo = Thread {
            var buf = [UInt8](repeating: 0, count: frameBytes)
            var from = sockaddr_storage()
            while done.value == 0 {
                var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let r = buf.withUnsafeMutableBytes { raw in
                    withUnsafeMutablePointer(to: &from) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            recvfrom(server.fd, raw.baseAddress!, raw.count, 0, $0, &len)
                        }
                    }
                }
                guard r > 0 else { continue }
                _ = buf.withUnsafeBytes { raw in
                    withUnsafePointer(to: &from) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            sendto(server.fd, raw.baseAddress!, r, 0, $0, len)
                        }
                    }
                }
            }
        }
        echo.start()
        defer { _ = done.add(1) }
        var to = server.address
        var out = [UInt8](repeating: 0x61, count: frameBytes)
        var samples: [Double] = []
        samples.reserveCapacity(count)
        var i = 0
        while i < total {
            let start = DispatchTime.now().uptimeNanoseconds
            let sent = out.withUnsafeBytes { raw in
                withUnsafePointer(to: &to) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(client.fd, raw.baseAddress!, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
            guard sent == frameBytes else {
                throw BenchError("udp baseline: sendto: \(String(cString: strerror(errno)))")
            }
            let got = out.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress!, $0.count, 0) }
            guard got == frameBytes else { continue }  // timed out: lost on loopback, ping again
            if i >= total - count { samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000) }
            i += 1
        }
        return samples
    }

    /// A UDP socket on 127.0.0.1 (any port) with a 1 s receive timeout, and its address.
    private static func boundUDPSocket() throws -> (fd: Int32, address: sockaddr_in) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, len) == 0 && getsockname(fd, sa, &len) == 0
            }
        }
        guard ok else {
            close(fd)
            throw BenchError("udp bind: \(String(cString: strerror(errno)))")
        }
        return (fd, addr)
    }

    private static func noDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func readFully(_ fd: Int32, _ buf: inout [UInt8]) -> Bool {
        var got = 0
        let n = buf.count
        return buf.withUnsafeMutableBytes { raw in
            while got < n {
                let r = read(fd, raw.baseAddress! + got, n - got)
                if r <= 0 { return false }
                got += r
            }
            return true
        }
    }

    private static func writeFully(_ fd: Int32, _ buf: [UInt8]) -> Bool {
        var sent = 0
        return buf.withUnsafeBytes { raw in
            while sent < raw.count {
                let w = write(fd, raw.baseAddress! + sent, raw.count - sent)
                if w <= 0 { return false }
                sent += w
            }
            return true
        }
    }
}
