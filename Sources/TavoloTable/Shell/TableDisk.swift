import Dispatch

/// Where the table shell's disk work runs — journal appends, complete logs, and the records hook a finished game
/// calls: a thread of its own, never the mesh's event loop (whose every connection would wait on a slow disk), one job
/// at a time in the order submitted. The shell holds back every effect that follows a write until the write is done
/// (`EffectQueue`), so the order of PROTOCOL.md §9.9 holds: a move is on disk before this node sends it or confirms it.
public protocol TableDisk: Sendable {
    /// Runs `job` after every job submitted before it, on a thread that is not the caller's.
    func submit(_ job: @escaping @Sendable () -> Void)
}

/// The disk work of one node's tables on one serial dispatch queue.
public struct SerialTableDisk: TableDisk {
    private let queue = DispatchQueue(label: "tavolo.table-disk", qos: .userInitiated)

    public init() {}

    public func submit(_ job: @escaping @Sendable () -> Void) { queue.async(execute: job) }
}

extension TableDisk {
    /// Runs `job` on the disk and waits for it: start-up (a restored game's journal opened before any peer
    /// connects) and shutdown (every write asked for is done before the journals are flushed).
    func run<T: Sendable>(_ job: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<T>()
        submit {
            result.value = job()
            done.signal()
        }
        done.wait()
        guard let value = result.value else { preconditionFailure("a disk job signalled before it set its result") }
        return value
    }
}

/// A value handed from the disk thread to the waiting one; the semaphore orders the write before the read.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
