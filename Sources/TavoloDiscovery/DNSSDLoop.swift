import Foundation

/// A dedicated thread that drives dns_sd refs: it blocks in `poll()` on every ref's socket plus a wake-up pipe,
/// and calls `DNSServiceProcessResult` for each readable ref, so callbacks run on this thread. No busy loop:
/// the thread sleeps in `poll()` until the daemon sends something or another thread posts a job.
///
/// Other threads never touch refs directly: they post jobs with `perform(_:)`, which run on the loop thread between
/// `poll()` calls. `stop()` may be called from any thread, including from a callback; the thread then deallocates
/// every ref it still owns (releasing their contexts) and exits.
///
/// `@unchecked Sendable`: the job queue, the stop flag and the wake-up pipe are guarded by `lock`; `refs` and
/// `processing` are only touched on the loop thread.
final class DNSSDLoop: @unchecked Sendable {
    private let lock = NSLock()
    private var jobs: [() -> Void] = []
    private var stopRequested = false
    private var pipeOpen = true
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private var refs: [ServiceRef] = []
    /// Loop thread only: jobs due at a monotonic time, run between `poll()` calls (retries, time limits).
    private var timers: [(due: UInt64, job: () -> Void)] = []
    private var processing: ServiceRef?
    private var retiredWhileProcessing: [ServiceRef] = []

    /// Called on the loop thread as it exits: nil after `stop()`, an error if `poll()` failed.
    private var onExit: (@Sendable (DiscoveryError?) -> Void)?
    private var exitError: DiscoveryError?

    init(name: String, onExit: (@Sendable (DiscoveryError?) -> Void)? = nil) throws(DiscoveryError) {
        self.onExit = onExit
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw .serviceError(operation: "pipe", code: Int32(errno))
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        Self.liveThreads.increment()
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Runs `job` on the loop thread. Returns false (and drops the job) if the loop is stopping.
    @discardableResult
    func perform(_ job: @escaping @Sendable () -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !stopRequested else { return false }
        jobs.append(job)
        wakeLocked()
        return true
    }

    /// Asks the loop to deallocate its refs and exit. Non-blocking, idempotent, callable from any thread.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopRequested else { return }
        stopRequested = true
        wakeLocked()
    }

    private func wakeLocked() {
        guard pipeOpen else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // EAGAIN (pipe full) is fine: the loop is awake anyway
    }

    // MARK: loop thread only

    /// Starts polling `ref`. Loop thread only.
    func add(_ ref: ServiceRef) {
        refs.append(ref)
    }

    /// Runs `job` on the loop thread after `delay`, unless the loop stops first. Loop thread only.
    func schedule(after delay: Duration, _ job: @escaping () -> Void) {
        let nanos = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        timers.append((due: Self.now() &+ UInt64(max(0, nanos)), job: job))
    }

    private static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// Runs the timers that are due; returns the `poll()` timeout in milliseconds until the next one (-1: none).
    private func runDueTimers() -> Int32 {
        let now = Self.now()
        let due = timers.filter { $0.due <= now }
        timers.removeAll { $0.due <= now }
        for timer in due { timer.job() }
        guard let next = timers.map(\.due).min() else { return -1 }
        let wait = next > now ? (next - now + 999_999) / 1_000_000 : 0
        return Int32(min(wait, 60_000))
    }

    /// Stops polling `ref` and deallocates it; deferred until `DNSServiceProcessResult` returns if called from a
    /// callback. Loop thread only.
    func retire(_ ref: ServiceRef) {
        refs.removeAll { $0 === ref }
        if processing != nil {
            retiredWhileProcessing.append(ref)
        } else {
            ref.deallocate()
        }
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            lock.lock()
            let pending = jobs
            jobs.removeAll()
            let stopping = stopRequested
            lock.unlock()
            for job in pending { job() }
            if stopping { break }

            let timeout = runDueTimers()
            lock.lock()
            let jobsArrived = !jobs.isEmpty || stopRequested
            lock.unlock()
            if jobsArrived { continue }

            let polled = refs
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            fds += polled.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
            let count = poll(&fds, nfds_t(fds.count), timeout)
            if count < 0 {
                if errno == EINTR { continue }
                // poll itself failing (ENOMEM, or a bug such as a bad fd): leave rather than spin.
                exitError = .serviceError(operation: "poll", code: errno)
                break
            }
            if fds[0].revents != 0 {
                while read(wakeRead, &buffer, buffer.count) > 0 {}
            }
            for (ref, fd) in zip(polled, fds.dropFirst()) where fd.revents != 0 && !ref.isDeallocated {
                process(ref)
            }
        }
        finish()
    }

    /// Lets `ref` run its callbacks for what its socket has ready; a ref that fails is reported, then retired.
    private func process(_ ref: ServiceRef) {
        processing = ref
        let error = ref.processResult()
        processing = nil
        for retired in retiredWhileProcessing { retired.deallocate() }
        retiredWhileProcessing.removeAll()
        if error != 0, !ref.isDeallocated {
            // Report first (the handler's owner may live only as long as the ref's context), then retire:
            // a failing ref would stay readable and make the loop spin.
            ref.onProcessError?(error)
            retire(ref)
        }
    }

    /// The loop's end: late jobs run, every ref is deallocated, the wake pipe closed and the owner told.
    private func finish() {
        // After stop() no job is pending here; after a poll() failure, run the jobs already accepted (each resumes
        // its caller) before the refs go.
        lock.lock()
        stopRequested = true
        let late = jobs
        jobs.removeAll()
        lock.unlock()
        for job in late { job() }

        timers.removeAll()
        for ref in refs { ref.deallocate() }
        refs.removeAll()
        lock.lock()
        pipeOpen = false
        close(wakeRead)
        close(wakeWrite)
        lock.unlock()
        onExit?(exitError)
        onExit = nil
        Self.liveThreads.decrement()
    }

    /// Number of loop threads currently running; tests use it to check that cancelling ends the thread.
    static let liveThreads = Counter()
}

/// A thread-safe counter (`@unchecked Sendable`: `value` is guarded by `lock`).
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
    func decrement() { lock.withLock { count -= 1 } }
}
