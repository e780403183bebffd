import NIOCore

/// At most `burst` log lines per key per `interval`; the lines left out are counted and summed up in the next line
/// that is written (PROTOCOL.md §3.4). A peer that sends bad frames in a loop, reconnecting each time, costs one
/// line per interval, not one per frame. Pure.
struct LogRateLimiter: Sendable {
    let interval: TimeAmount
    let burst: Int
    /// Keys remembered at most; past that, windows that have ended are dropped.
    let maxKeys: Int
    private var windows: [String: (start: NIODeadline, written: Int, suppressed: Int)] = [:]

    init(interval: TimeAmount = .seconds(10), burst: Int = 1, maxKeys: Int = 1_024) {
        self.interval = interval
        self.burst = burst
        self.maxKeys = maxKeys
    }

    /// Whether to write a line about `key` now, and if so how many lines about it were left out before it.
    mutating func admit(_ key: String, now: NIODeadline) -> (write: Bool, leftOut: Int) {
        if let w = windows[key], now - w.start < interval {
            guard w.written < burst else {
                windows[key] = (w.start, w.written, w.suppressed + 1)
                return (false, 0)
            }
            windows[key] = (w.start, w.written + 1, 0)
            return (true, w.suppressed)
        }
        let leftOut = windows[key]?.suppressed ?? 0
        if windows.count >= maxKeys { windows = windows.filter { now - $0.value.start < interval } }
        if windows.count < maxKeys { windows[key] = (now, 1, 0) }
        return (true, leftOut)
    }
}
