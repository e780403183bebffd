import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes that survive a `kill -9` or a power cut at any moment: the bytes go to a temporary file in the same
/// directory, which is flushed to disk (`fsync`), renamed over the target (atomic on POSIX) and the directory
/// flushed too, so after a crash the file holds either the old content or the new one, never a torn mix.
/// Foundation's `.atomic` option renames but never flushes, so a crash soon after could leave an empty file.
enum DurableFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `sync: false` keeps the atomic rename (a killed process leaves the old file or the new one: the kernel
    /// writes both out) but skips the flushes, which only a power cut or a kernel crash needs.
    static func replace(_ path: String, with bytes: [UInt8], sync: Bool = true) throws(Failure) {
        let dir = (path as NSString).deletingLastPathComponent
        let temporary = "\(path).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(description: "cannot create \(temporary): \(errnoText())") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                let why = errnoText()
                close(fd)
                // A full disk must not leave the half-written file behind.
                unlink(temporary)
                throw Failure(description: "cannot write \(temporary): \(why)")
            }
            written += n
        }
        guard !sync || fsync(fd) == 0 else {
            let why = errnoText()
            close(fd)
            unlink(temporary)
            throw Failure(description: "cannot flush \(temporary): \(why)")
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let why = errnoText()
            unlink(temporary)
            throw Failure(description: "cannot rename to \(path): \(why)")
        }
        if sync { syncDirectory(dir) }
    }

    /// Flushes a directory's entries (a rename is durable only once its directory is).
    static func syncDirectory(_ dir: String) {
        let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// The part of table ids that makes them unique across restarts of one node (PROTOCOL.md §9): a counter in the
/// state directory, one higher at every start and flushed to disk before any table is hosted, so a node that is
/// killed and restarted never hosts a table id it used before (its friends' joins would fail and its earlier
/// game's log would be overwritten).
public enum TableEpoch {
    /// Reads `<dir>/table-epoch`, writes it back one higher, and returns the new value as base 36.
    public static func next(stateDirectory dir: String) throws -> String {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = (dir as NSString).appendingPathComponent("table-epoch")
        let text = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        let current = text.flatMap { UInt64($0) } ?? 0
        let next = current + 1
        try DurableFile.replace(path, with: Array("\(next)\n".utf8))
        return String(next, radix: 36)
    }

    /// Without a state directory (tests, `--state-dir` unset): 32 random bits, unique enough for a node that
    /// keeps nothing.
    public static func random() -> String { String(UInt32.random(in: 0...UInt32.max), radix: 36) }
}
