import Dispatch
import Foundation
import Logging
import NIOCore
import TavoloMesh
import TavoloPacketLog

/// Records every frame a node sends and receives to a pcapng file (`tavolod --packet-log`).
///
/// `record` runs on the node's event loop, so it only converts the frame and queues it; a serial queue
/// encodes and writes, flushing every `flushInterval` and on `close()`. If the file cannot be opened or
/// written (a bad path, a full disk), one error is logged and recording stops; the node never notices.
/// When the writer falls behind by more than `maxBacklog` frames, new frames are dropped (and counted)
/// rather than held in memory.
public final class PacketLogRecorder: FrameRecorder, @unchecked Sendable {
    public let path: String
    private let logger: Logger
    private let queue = DispatchQueue(label: "tavolo.packet-log")
    /// Touched only on `queue`.
    private var file: PacketLogFile?
    private var timer: DispatchSourceTimer?
    private let lock = NSLock()
    private var _state = State()
    private let maxBacklog: Int

    private struct State {
        var stopped = false
        var backlog = 0
        var dropped = 0
        var written = 0
        var closed = false
    }

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&_state)
    }

    /// Opens `path` (truncating it). On failure logs one error and records nothing.
    public init(path: String, logger: Logger, flushInterval: Duration = .seconds(1), maxBacklog: Int = 100_000) {
        self.path = path
        self.logger = logger
        self.maxBacklog = maxBacklog
        do {
            file = try PacketLogFile(path: path)
            logger.info("recording packets to \(path)")
        } catch {
            logger.error("packet log disabled: \(error)")
            withState { $0.stopped = true }
            return
        }
        let t = DispatchSource.makeTimerSource(queue: queue)
        let ms = Int(
            flushInterval.components.seconds * 1000 + flushInterval.components.attoseconds / 1_000_000_000_000_000)
        t.schedule(deadline: .now() + .milliseconds(ms), repeating: .milliseconds(max(ms, 10)))
        t.setEventHandler { [weak self] in self?.flushOnQueue() }
        t.resume()
        timer = t
    }

    deinit {
        timer?.cancel()
        try? file?.close()
    }

    /// True while frames are being written.
    public var isRecording: Bool { withState { !$0.stopped } }

    /// Frames written, and frames dropped because the writer fell behind.
    public var counts: (written: Int, dropped: Int) { withState { ($0.written, $0.dropped) } }

    public func record(_ frame: CapturedFrame) {
        let accepted = withState { s -> Bool in
            guard !s.stopped else { return false }
            guard s.backlog < maxBacklog else {
                s.dropped += 1
                return false
            }
            s.backlog += 1
            return true
        }
        guard accepted else { return }
        let record = PacketRecord(
            // A Date holds about a microsecond of precision at today's epoch: keep what is real.
            timeNanos: UInt64(max(0, (frame.time.timeIntervalSince1970 * 1e6).rounded())) * 1_000,
            direction: frame.direction == .sent ? .sent : .received,
            transport: frame.transport == .tcp ? .tcp : .udp,
            local: Self.endpoint(frame.local), remote: Self.endpoint(frame.remote), bytes: frame.bytes)
        queue.async { self.write(record) }
    }

    /// Writes what is queued and closes the file; later frames are ignored. Blocks until done.
    public func close() {
        let first = withState { s -> Bool in
            defer {
                s.stopped = true
                s.closed = true
            }
            return !s.closed
        }
        guard first else { return }
        queue.sync {
            timer?.cancel()
            timer = nil
            guard let f = file else { return }
            file = nil
            do { try f.close() } catch { logger.error("packet log: \(error)") }
        }
        let c = counts
        logger.info("packet log \(path): \(c.written) frames\(c.dropped > 0 ? ", \(c.dropped) dropped" : "")")
    }

    private func write(_ record: PacketRecord) {
        withState { $0.backlog -= 1 }
        guard let f = file else { return }
        do {
            try f.append(record)
            withState { $0.written += 1 }
        } catch {
            fail(error)
        }
    }

    private func flushOnQueue() {
        guard let f = file else { return }
        do { try f.flush() } catch { fail(error) }
    }

    /// One error, then silence: the node goes on without a packet log.
    private func fail(_ error: Error) {
        file = nil
        timer?.cancel()
        timer = nil
        withState { $0.stopped = true }
        logger.error("packet log stopped: \(error)")
    }

    static func endpoint(_ address: SocketAddress?) -> PacketEndpoint {
        guard let address, let ip = address.ipAddress, let port = address.port,
            let e = PacketEndpoint(ip: ip, port: port)
        else { return .unknown }
        return e
    }
}
