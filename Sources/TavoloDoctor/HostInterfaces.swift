import Foundation

/// One network interface of this machine with an IPv4 address.
public struct HostInterface: Codable, Sendable, Equatable {
    public var name: String
    public var addresses: [String]
    /// Up and with a link (IFF_UP and IFF_RUNNING): a pulled cable or Wi-Fi turned off leaves it without one.
    public var hasLink: Bool
    public var isLoopback: Bool

    public init(name: String, addresses: [String], hasLink: Bool, isLoopback: Bool) {
        self.name = name
        self.addresses = addresses
        self.hasLink = hasLink
        self.isLoopback = isLoopback
    }

    /// The interfaces of this machine that have an IPv4 address, in the kernel's order.
    public static func current() -> [HostInterface] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var found: [HostInterface] = []
        var cursor = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else {
                continue
            }
            let name = String(cString: entry.pointee.ifa_name)
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            let text = dottedQuad(address)
            if let index = found.firstIndex(where: { $0.name == name }) {
                found[index].addresses.append(text)
            } else {
                found.append(
                    HostInterface(
                        name: name, addresses: [text],
                        hasLink: flags & Int32(IFF_UP) != 0 && flags & Int32(IFF_RUNNING) != 0,
                        isLoopback: flags & Int32(IFF_LOOPBACK) != 0))
            }
        }
        return found
    }

    private static func dottedQuad(_ address: UnsafeMutablePointer<sockaddr>) -> String {
        address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
            var addr = sin.pointee.sin_addr
            var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            inet_ntop(AF_INET, &addr, &buffer, socklen_t(INET_ADDRSTRLEN))
            return String(cString: buffer)
        }
    }
}
