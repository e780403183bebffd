/// At most `burst` log lines per key per interval; the lines left out are counted and summed up in the next line
/// that is written (PROTOCOL.md §3.4). A peer that sends bad frames or bad table messages in a loop, reconnecting
/// each time, costs one line per interval, not one per message. Pure: the caller says what time it is, in
/// nanoseconds on any monotonic clock.
public struct LogRateLimiter: Sendable {
    public let intervalNanoseconds: UInt64
    public let burst: Int
    /// Keys remembered at most; past that, windows that have ended are dropped.
    public let maxKeys: Int
    private var windows: [String: (start: UInt64, written: Int, suppressed: Int)] = [:]

    public init(intervalNanoseconds: UInt64 = 10_000_000_000, burst: Int = 1, maxKeys: Int = 1_024) {
        self.intervalNanoseconds = intervalNanoseconds
        self.burst = burst
        self.maxKeys = maxKeys
    }

    /// Whether to write a line about `key` now, and if so how many lines about it were left out before it.
    public mutating func admit(_ key: String, nowNanoseconds now: UInt64) -> (write: Bool, leftOut: Int) {
        if let w = windows[key], now &- w.start < intervalNanoseconds {
            guard w.written < burst else {
                windows[key] = (w.start, w.written, w.suppressed + 1)
                return (false, 0)
            }
            windows[key] = (w.start, w.written + 1, 0)
            return (true, w.suppressed)
        }
        let leftOut = windows[key]?.suppressed ?? 0
        if windows.count >= maxKeys { windows = windows.filter { now &- $0.value.start < intervalNanoseconds } }
        if windows.count < maxKeys { windows[key] = (now, 1, 0) }
        return (true, leftOut)
    }
}
