import Foundation

/// Whether a peer's TCP port answers from here: what a firewall decides, tried with one plain `connect`.
public enum PortProbe {
    public enum Outcome: String, Codable, Sendable {
        /// The connection was accepted (and is closed at once).
        case answers
        /// Something at that address said no: nothing listens on the port, or a firewall rejects it.
        case refused
        /// No answer at all: a firewall drops it, or the host is unreachable.
        case noAnswer = "no-answer"
        /// The address could not be tried (unreachable network, bad address).
        case unreachable
    }

    /// Tries `address:port` (IPv4), waiting at most `timeout` seconds.
    public static func run(address: String, port: Int, timeout: Double = 3) -> Outcome {
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
        guard inet_pton(AF_INET, address, &target.sin_addr) == 1 else { return .unreachable }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .unreachable }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let rc = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if rc == 0 { return .answers }
        guard errno == EINPROGRESS else { return outcome(errno) }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return .noAnswer }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        return error == 0 ? .answers : outcome(error)
    }

    private static func outcome(_ error: Int32) -> Outcome {
        switch error {
        case ECONNREFUSED: .refused
        case ETIMEDOUT: .noAnswer
        default: .unreachable
        }
    }
}
