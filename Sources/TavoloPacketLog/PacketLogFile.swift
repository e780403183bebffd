#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a packet log could not be written.
public enum PacketLogWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be created or opened.
    case open(path: String, reason: String)
    /// A write failed (a full disk, an I/O error).
    case write(path: String, reason: String)

    public var description: String {
        switch self {
        case .open(let path, let reason): "cannot open packet log \(path): \(reason)"
        case .write(let path, let reason): "cannot write packet log \(path): \(reason)"
        }
    }
}

/// A pcapng file being written: buffers encoded blocks and writes them on `flush()`. Not thread-safe:
/// one owner (the recorder's queue) calls it.
public final class PacketLogFile {
    public let path: String
    private var fd: Int32
    private var writer: PcapngWriter
    private var pending: [UInt8] = []
    /// Frames written so far.
    public private(set) var frames = 0
    /// Bytes handed to the file so far (flushed or not).
    public private(set) var bytes = 0
    /// Pending bytes beyond which `append` flushes by itself.
    public var flushThreshold = 256 << 10

    /// Creates (or truncates) `path` and writes the file header.
    public init(path: String, application: String = "tavolod") throws(PacketLogWriteError) {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .open(path: path, reason: String(cString: strerror(errno))) }
        self.fd = fd
        writer = PcapngWriter(application: application)
        pending = writer.fileHeader()
        bytes = pending.count
        do { try flush() } catch {
            posixClose(fd)
            self.fd = -1
            throw error
        }
    }

    deinit {
        if fd >= 0 { posixClose(fd) }
    }

    /// Encodes one frame; writes when enough is buffered.
    public func append(_ record: PacketRecord) throws(PacketLogWriteError) {
        let block = writer.encode(record)
        pending += block
        bytes += block.count
        frames += 1
        if pending.count >= flushThreshold { try flush() }
    }

    /// Writes everything buffered.
    public func flush() throws(PacketLogWriteError) {
        guard fd >= 0 else {
            pending.removeAll()
            return
        }
        var offset = 0
        while offset < pending.count {
            let n = pending[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                pending.removeAll()
                throw .write(path: path, reason: reason)
            }
            if n == 0 {
                pending.removeAll()
                throw .write(path: path, reason: "no progress")
            }
            offset += n
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes; later calls do nothing.
    public func close() throws(PacketLogWriteError) {
        guard fd >= 0 else { return }
        defer {
            posixClose(fd)
            fd = -1
        }
        try flush()
    }
}

private func posixClose(_ fd: Int32) {
    _ = close(fd)
}
