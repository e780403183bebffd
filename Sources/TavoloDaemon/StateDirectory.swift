import Foundation

/// The state directory at start (`--state-dir`): created if missing, refused in one line when this node cannot
/// write it (rather than a database error with advice that does not apply), and rid of temporary files a crash or
/// a full disk left behind.
enum StateDirectory {
    /// Creates `dir` if needed and checks this process can create and remove a file in it.
    static func prepare(_ dir: String) throws(NodeService.StartError) {
        do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
            // The system's word for it (Foundation's is vaguer): the last directory tried again.
            let why = mkdir(dir, 0o700) != 0 ? String(cString: strerror(errno)) : "\(error)"
            throw NodeService.StartError(
                "cannot create the state directory \(dir) (\(why)): create it, or pick another with --state-dir")
        }
        let probe = (dir as NSString).appendingPathComponent(".tavolod-write-check")
        let fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let readOnlyFileSystem = errno == EROFS
            let why = String(cString: strerror(errno))
            throw NodeService.StartError(
                readOnlyFileSystem
                    ? "the state directory \(dir) is on a read-only file system: remount it read-write, or pick another with --state-dir"
                    : "the state directory \(dir) is not writable (\(why)): make it writable for this user (chmod u+w \(dir)), or pick another with --state-dir"
            )
        }
        close(fd)
        unlink(probe)
        for file in ["records.sqlite", "records.sqlite-wal", "known-peers.json", "games"] {
            let path = (dir as NSString).appendingPathComponent(file)
            if FileManager.default.fileExists(atPath: path), access(path, W_OK) != 0 {
                throw NodeService.StartError(
                    "\(path) is read-only: make it writable for this user (chmod u+w \(path)), or pick another --state-dir"
                )
            }
        }
    }

    /// Removes `*.tmp` files in `dir` and `dir/games` (each written whole, then renamed: a leftover is never the
    /// only copy of anything); returns how many.
    @discardableResult
    static func cleanTemporaries(_ dir: String) -> Int {
        var removed = 0
        for sub in [dir, (dir as NSString).appendingPathComponent("games")] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: sub)) ?? [] where name.hasSuffix(".tmp") {
                if unlink((sub as NSString).appendingPathComponent(name)) == 0 { removed += 1 }
            }
        }
        return removed
    }
}
