import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Group commit of game journals (PROTOCOL.md §9.9): an append marks its file dirty, and a background queue
/// flushes every dirty journal (`fsync`) at most `interval` after its first unflushed append — off the move's
/// critical path, so a move costs one `write`, and one `fsync` covers every move appended meanwhile. Also flushed at
/// once when a table pauses and, waiting, at shutdown.
///
/// Thread-safe: appends come from the table shell, flushes run on the queue. A journal's file descriptor is closed
/// on the same queue, so it is never flushed after it is closed (nor is a reused number flushed by mistake for
/// long: at worst a new journal that got the number is flushed early, which costs nothing).
final class JournalSync: @unchecked Sendable {
    private let queue = DispatchQueue(label: "tavolo.game-journal-sync", qos: .utility)
    private let lock = NSLock()
    private var dirty: Set<Int32> = []
    private var scheduled = false
    private let interval: DispatchTimeInterval
    /// False with `tavolod --no-log-fsync`: appends are never flushed (a `kill -9` still loses nothing).
    let enabled: Bool
    private let logger: Logger

    init(enabled: Bool, interval: Duration, logger: Logger) {
        self.enabled = enabled
        self.interval = .microseconds(Int(interval / .microseconds(1)))
        self.logger = logger
    }

    /// `fd` was appended to: flush it within `interval`.
    func appended(_ fd: Int32) {
        guard enabled else { return }
        let schedule = lock.withLock {
            dirty.insert(fd)
            defer { scheduled = true }
            return !scheduled
        }
        if schedule { queue.asyncAfter(deadline: .now() + interval) { self.flushDirty() } }
    }

    /// Flushes every dirty journal now, in the background (a table paused: a member is gone, maybe the power too).
    func flushSoon() {
        guard enabled else { return }
        queue.async { self.flushDirty() }
    }

    /// Flushes every dirty journal and returns once they are on disk (shutdown, tests).
    func flushAndWait() {
        guard enabled else { return }
        queue.sync { self.flushDirty() }
    }

    /// Closes `fd` once every flush asked before is done; flushes it first when `flush` (a journal replaced by
    /// another needs no flush: the new one was written durably).
    func close(_ fd: Int32, flush: Bool) {
        queue.async {
            let wasDirty = self.lock.withLock { self.dirty.remove(fd) != nil }
            if flush && wasDirty && self.enabled { _ = fsync(fd) }
            closeDescriptor(fd)
        }
    }

    private func flushDirty() {
        let fds = lock.withLock {
            let d = dirty
            dirty = []
            scheduled = false
            return d
        }
        for fd in fds where fsync(fd) != 0 {
            logger.error("cannot flush a game journal to disk: \(String(cString: strerror(errno)))")
        }
    }
}

/// `close(2)`, named apart from `JournalSync.close(_:flush:)`.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
