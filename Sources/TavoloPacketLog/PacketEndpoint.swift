/// One end of a conversation as the packet log records it: an IPv4 or IPv6 address and a port.
public struct PacketEndpoint: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 bytes (IPv6), network order.
    public let address: [UInt8]
    public let port: UInt16

    /// Nil unless `address` has 4 or 16 bytes.
    public init?(address: [UInt8], port: UInt16) {
        guard address.count == 4 || address.count == 16 else { return nil }
        self.address = address
        self.port = port
    }

    /// Parses dotted IPv4 ("127.0.0.1") or IPv6 ("::1", "fe80::1%lo" without the zone).
    public init?(ip: String, port: Int) {
        guard (0...65535).contains(port), let bytes = Self.parseIP(ip) else { return nil }
        self.address = bytes
        self.port = UInt16(port)
    }

    /// 0.0.0.0:0, for an end the recorder did not know.
    public static let unknown = PacketEndpoint(unchecked: [0, 0, 0, 0], port: 0)

    init(unchecked address: [UInt8], port: UInt16) {
        self.address = address
        self.port = port
    }

    public var isIPv6: Bool { address.count == 16 }
    /// 0.0.0.0 or ::, as a socket bound to any address reports itself.
    public var isUnspecified: Bool { address.allSatisfy { $0 == 0 } }

    /// The same address as IPv6 (IPv4-mapped `::ffff:a.b.c.d` for IPv4).
    public var asIPv6: PacketEndpoint {
        isIPv6 ? self : PacketEndpoint(unchecked: Array(repeating: 0, count: 10) + [0xFF, 0xFF] + address, port: port)
    }

    public var ipString: String {
        if !isIPv6 { return address.map { String($0) }.joined(separator: ".") }
        var groups: [UInt16] = []
        for i in stride(from: 0, to: 16, by: 2) { groups.append(UInt16(address[i]) << 8 | UInt16(address[i + 1])) }
        // The longest run (≥ 2) of zero groups becomes "::" (RFC 5952).
        var best = (start: -1, length: 0)
        var i = 0
        while i < 8 {
            guard groups[i] == 0 else {
                i += 1
                continue
            }
            var j = i
            while j < 8 && groups[j] == 0 { j += 1 }
            if j - i > best.length && j - i >= 2 { best = (i, j - i) }
            i = j
        }
        func hex(_ g: ArraySlice<UInt16>) -> String { g.map { String($0, radix: 16) }.joined(separator: ":") }
        guard best.start >= 0 else { return hex(groups[...]) }
        return hex(groups[..<best.start]) + "::" + hex(groups[(best.start + best.length)...])
    }

    public var description: String { isIPv6 ? "[\(ipString)]:\(port)" : "\(ipString):\(port)" }

    public static func < (a: PacketEndpoint, b: PacketEndpoint) -> Bool {
        if a.address != b.address { return a.address.lexicographicallyPrecedes(b.address) }
        return a.port < b.port
    }

    static func parseIP(_ text: String) -> [UInt8]? {
        let ip = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
        if !ip.contains(":") {
            let parts = ip.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4 else { return nil }
            var out: [UInt8] = []
            for p in parts {
                guard let v = UInt8(p) else { return nil }
                out.append(v)
            }
            return out
        }
        var head: [UInt16] = []
        var tail: [UInt16] = []
        let halves = ip.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ s: String) -> [UInt16]? {
            if s.isEmpty { return [] }
            var out: [UInt16] = []
            let parts = s.split(separator: ":", omittingEmptySubsequences: false)
            for (k, p) in parts.enumerated() {
                if k == parts.count - 1, p.contains("."), let v4 = parseIP(String(p)) {
                    out.append(UInt16(v4[0]) << 8 | UInt16(v4[1]))
                    out.append(UInt16(v4[2]) << 8 | UInt16(v4[3]))
                } else {
                    guard p.count <= 4, let v = UInt16(p, radix: 16) else { return nil }
                    out.append(v)
                }
            }
            return out
        }
        guard let h = groups(halves[0]) else { return nil }
        head = h
        if halves.count == 2 {
            guard let t = groups(halves[1]) else { return nil }
            tail = t
            guard head.count + tail.count <= 7 else { return nil }
        } else {
            guard head.count == 8 else { return nil }
        }
        let all = head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}
