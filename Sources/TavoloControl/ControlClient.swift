import Foundation
import TavoloProtocol
import TavoloTable

/// A blocking client of a node's control socket, for the `tavolo` command and tests.
/// Use it from one thread at a time; `close()` may come from another thread to end a blocked read.
public final class ControlClient: @unchecked Sendable {
    public enum ClientError: Error, CustomStringConvertible {
        case cannotConnect(path: String, detail: String)
        case closed(path: String)
        case timedOut(path: String)
        case badResponse(String)

        public var description: String {
            switch self {
            case .cannotConnect(let p, let d):
                "cannot reach the node at \(p): \(d) — is tavolod running? (start it with: systemctl --user start tavolod, or tavolod --name NAME)"
            case .closed(let p): "the node at \(p) closed the connection"
            case .timedOut(let p): "the node at \(p) did not answer in time (is it stopped or overloaded?)"
            case .badResponse(let d): "unexpected answer from the node: \(d)"
            }
        }
    }

    public let path: String
    private let fd: Int32
    private var pending: [UInt8] = []
    private var nextID = 1

    /// Connects to a node. A read waits at most `timeout` seconds (nil: forever, for event streams), so a node
    /// that hangs (stopped, deadlocked) gives an error instead of a hung command.
    public init(path: String, timeout: Double? = 10) throws {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError.cannotConnect(path: path, detail: String(cString: strerror(errno))) }
        if let timeout {
            var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            Glibc.close(fd)
            throw ClientError.cannotConnect(path: path, detail: "path too long")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else {
            let detail = String(cString: strerror(errno))
            Glibc.close(fd)
            throw ClientError.cannotConnect(path: path, detail: detail)
        }
        self.fd = fd
    }

    private var closed = false

    deinit { close() }

    /// Closes the connection (also unblocks a thread reading from it).
    public func close() {
        guard !closed else { return }
        closed = true
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
    }

    /// Sends one request (its `id` is set here) and returns the raw response line.
    public func requestLine(_ request: ControlRequest) throws -> [UInt8] {
        let line = try WireJSON.encode(ControlRequestLine(id: nextID, request: request))
        nextID += 1
        return try exchange(line: line)
    }

    /// Sends `line` as it is (a newline is added) and returns the next line the node sends.
    public func exchange(line bytes: [UInt8]) throws -> [UInt8] {
        var line = bytes
        line.append(10)
        try line.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var off = 0
            while off < raw.count {
                // MSG_NOSIGNAL: a node that died must be an error to report, not a SIGPIPE that ends the client
                // silently (`tavolo play` left its screen up and said nothing).
                let n = send(fd, base + off, raw.count - off, Int32(MSG_NOSIGNAL))
                guard n > 0 else { throw ClientError.closed(path: path) }
                off += n
            }
        }
        return try readLine()
    }

    /// Reads the next line the node sends.
    public func readLine() throws -> [UInt8] {
        while true {
            if let nl = pending.firstIndex(of: 10) {
                let line = Array(pending[..<nl])
                pending.removeFirst(nl + 1)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw ClientError.timedOut(path: path) }
            guard n > 0 else { throw ClientError.closed(path: path) }
            pending.append(contentsOf: chunk[..<n])
        }
    }

    /// Sends a request and decodes its `result` as the type the request names, turning a failure into a thrown
    /// `ControlFailure`.
    public func call<R>(_ call: ControlCall<R>) throws -> R {
        let line = try requestLine(call.request)
        let response: ControlResponse<R>
        do { response = try WireJSON.decode(ControlResponse<R>.self, line) } catch {
            throw ClientError.badResponse(WireJSON.describe(error))
        }
        if let e = response.error { throw e }
        guard let r = response.result else { throw ClientError.badResponse("no result") }
        return r
    }

    /// Starts the event stream (`events`): read each event with `nextEvent()` until `close()`.
    public func subscribe(kinds: [TableEvent.Kind]? = nil) throws {
        _ = try call(.events(kinds: kinds))
    }

    /// The next streamed event; lines that are not events are skipped.
    public func nextEvent() throws -> TableEvent {
        while true {
            let line = try readLine()
            if let e = try? WireJSON.decode(EventLine.self, line) { return e.event }
        }
    }
}
