import Foundation
import Logging
import TavoloCore
import TavoloProtocol

/// The table shell carries out what the machines decide: messages to the transport, events to clients, logs to
/// disk, timers, log lines.
extension TableManager {
    // MARK: Effects

    /// Carries `effects` out, in order, after those still held behind a write; `peer` is the node whose message
    /// caused them, whose log lines are rate-limited.
    func perform(_ effects: [TableEffect], about peer: NodeID? = nil) {
        outbox.append(effects, about: peer)
        while let (effect, about) = outbox.next() { carry(effect, about: about) }
        while let first = readers.first, first.target <= outbox.done {
            readers.removeFirst()
            first.resume.resume()
        }
    }

    /// Returns once every effect asked for so far is carried out, its writes done: a control request waits here
    /// before it reads, so no answer shows a table whose game log or record is not yet on disk (a `state` that says
    /// finished, then the log read).
    public func settled() async {
        let target = outbox.appended
        guard outbox.done < target else { return }
        await withCheckedContinuation { readers.append((target, $0)) }
    }

    /// A table's state read at a moment when every write asked for is done, so its move count is the journal's: a
    /// control request's `settled()` and its read are two hops, and a move applied between them (its append still on
    /// the disk's thread) would show in the answer but not on disk. Under a steady stream of moves it settles again,
    /// at most `attempts` times, then answers as it stands.
    public func settledState(table: TableID, attempts: Int = 20) async throws(TableError) -> TableState {
        for _ in 0..<attempts where outbox.done < outbox.appended { await settled() }
        return try state(table: table)
    }

    private func carry(_ effect: TableEffect, about peer: NodeID?) {
        switch effect {
        case .send(let message, let nodes): send(message, to: nodes)
        case .emit(let event): publish(event)
        case .persist(let log): persist(log)
        case .startTimer(let timer, let delay): startTimer(timer, after: delay)
        case .cancelTimer(let timer): timers.removeValue(forKey: timer)?.cancel()
        case .refused(let what, let from):
            refusedMessages += 1
            if let line = limited("ignored \(what) from \(directory.context.name(from)): it has no say in it", from) {
                logger.notice("\(line)")
            }
        case .log(let level, let line): log(level, line, about: peer)
        case .moveSent(let table, let number): timings[table, default: .init()].sent[number] = .now
        case .moveConfirmed(let table, let number):
            guard let sent = timings[table]?.sent.removeValue(forKey: number) else { return }
            timings[table]?.confirmLatencies.append((ContinuousClock.now - sent).milliseconds)
        }
    }

    /// An event to this node's clients.
    private func publish(_ event: TableEvent) {
        var event = event
        // The machine reads no clock: the shell stamps when a pause began.
        if case .paused(let members, nil, let message) = event.detail {
            // A member is gone; the power may be going too: the journals go to disk now.
            logSync.flushSoon()
            let since = timings[event.table]?.pausedSince ?? Date().formatted(.iso8601)
            timings[event.table, default: .init()].pausedSince = since
            event.detail = .paused(members: members, since: since, message: message)
        }
        if case .resumed = event.detail { timings[event.table]?.pausedSince = nil }
        note(event)
        for s in subscribers.values where s.kinds?.contains(event.kind) ?? true { s.continuation.yield(event) }
    }

    /// The machine persists a table once its joint seed is known, after every move it applies and when it ends
    /// (§9.9): one append to the journal, or the complete log at the end; the record is made once the game is over.
    /// Written on the disk's thread; the effects after it wait in `outbox` until `written` (a move's send or
    /// confirmation, a finished game's event).
    private func persist(_ log: GameLog) {
        var log = log
        let over = log.table.phase == .finished || log.table.phase == .stopped
        log.startedAt = timings[log.table.id]?.startedWall ?? log.startedAt
        if over || log.isComplete { log.endedAt = Self.wallMilliseconds() }
        guard logs != nil || (over && options.gameEnded != nil) else { return outbox.written() }
        let (logs, logger, gameEnded, ended, transport) = (logs, logger, options.gameEnded, log, transport)
        disk.submit { [weak self] in
            var appendMs: Double?
            if let logs {
                let started = ContinuousClock.now
                do {
                    // Only appends are timed: they are what each move waits for (the header is written once per
                    // game, the complete log after its end).
                    if try logs.save(ended) == .appended { appendMs = (ContinuousClock.now - started).milliseconds }
                } catch { logger.error("\(error)") }
            }
            if over { gameEnded?(ended) }
            let (manager, ms) = (self, appendMs)
            let back: @Sendable () -> Void = { manager?.assumeIsolated { $0.written(ended.table.id, appendMs: ms) } }
            if !transport.hop(back) { Task { await manager?.written(ended.table.id, appendMs: ms) } }
        }
    }

    /// A log write is done: its time noted, the effects held behind it carried out.
    private func written(_ table: TableID, appendMs: Double?) {
        if let appendMs { timings[table, default: .init()].logWriteMs.append(appendMs) }
        outbox.written()
        perform([])
    }

    private func startTimer(_ timer: TableTimer, after delay: Duration) {
        timers[timer]?.cancel()
        // The transport calls back on this actor's executor (its promise), hence `assumeIsolated`.
        let onExecutor = transport.schedule(after: delay) { [weak self] in
            self?.assumeIsolated { $0.fire(timer) }
        }
        timers[timer] =
            onExecutor
            ?? TaskTimer(
                task: Task { [weak self] in
                    try? await Task.sleep(for: delay)
                    guard !Task.isCancelled else { return }
                    await self?.fire(timer)
                })
    }

    /// A machine's log line; warnings and errors a peer's message caused are rate-limited per peer.
    private func log(_ level: TableLogLevel, _ line: String, about peer: NodeID?) {
        var line = line
        if let peer, level == .warning || level == .error {
            guard let admitted = limited(line, peer) else { return }
            line = admitted
        }
        switch level {
        case .debug: logger.debug("\(line)")
        case .notice: logger.notice("\(line)")
        case .warning: logger.warning("\(line)")
        case .error: logger.error("\(line)")
        }
    }
}
