import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Sends a DNS UPDATE to one server over UDP and reads its answer (RFC 2136 §3.8: retried when no answer comes,
/// the same id each time, so a retry of an update already applied is harmless: the registration replaces, and the
/// withdrawal of nothing deletes nothing). Blocking: callers run it off any event loop.
public enum DNSUpdateClient {
    /// Sends `message` to `server` (dotted IPv4) and returns the server's answer; throws when none comes after
    /// `attempts` tries of `timeout` seconds each, or when the socket fails.
    public static func send(
        _ message: DNSUpdateMessage, to server: String, port: UInt16 = 53, timeout: Double = 1, attempts: Int = 3
    ) throws(DiscoveryError) -> DNSUpdateResponse {
        let fd = try connectedSocket(to: server, port: port)
        defer { close(fd) }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        let bytes = message.encoded()
        var buffer = [UInt8](repeating: 0, count: 1500)
        for _ in 0..<max(1, attempts) {
            guard Glibc.send(fd, bytes, bytes.count, 0) == bytes.count else {
                throw .wideArea("sending to \(server): \(String(cString: strerror(errno)))")
            }
            // Answers to an earlier try (another id) or stray datagrams are read past until the timeout.
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n < 0 { break }
                if let response = DNSUpdateResponse(Array(buffer[0..<n])), response.id == message.id { return response }
            }
        }
        throw .wideArea("no answer from the DNS server \(server) after \(attempts) tries")
    }

    /// The IPv4 address this machine sends from toward `server`: the one to publish, since it is the address the
    /// rest of the routed network reaches this host at (no packet is sent to find it).
    public static func localAddress(toward server: String, port: UInt16 = 53) throws(DiscoveryError) -> [UInt8] {
        let fd = try connectedSocket(to: server, port: port)
        defer { close(fd) }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { throw .wideArea("no local address toward \(server): \(String(cString: strerror(errno)))") }
        return withUnsafeBytes(of: local.sin_addr.s_addr) { Array($0) }
    }

    private static func connectedSocket(to server: String, port: UInt16) throws(DiscoveryError) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, server, &address.sin_addr) == 1 else {
            throw .wideArea("\(server) is not an IPv4 address")
        }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw .wideArea("no UDP socket: \(String(cString: strerror(errno)))") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw .wideArea("cannot reach \(server): \(why)")
        }
        return fd
    }

    /// The first `nameserver` of a resolv.conf that is an IPv4 address: the server a node registers with when it
    /// is not given one (the one its resolver, and Avahi's wide-area browsing, ask).
    public static func nameserver(resolvConf path: String = "/etc/resolv.conf") -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 2, words[0] == "nameserver" else { continue }
            var probe = in_addr()
            if inet_pton(AF_INET, String(words[1]), &probe) == 1 { return String(words[1]) }
        }
        return nil
    }
}
