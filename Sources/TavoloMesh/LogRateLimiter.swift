import NIOCore

/// At most one log line per key (a peer's address) per `interval`; the lines left out are counted and summed up
/// in the next line that is written (PROTOCOL.md §3.4). A peer that sends bad frames in a loop, reconnecting each
/// time, costs one line per interval, not one per frame. Pure.
struct LogRateLimiter: Sendable {
    var interval = TimeAmount.seconds(10)
    /// Keys remembered at most; past that, windows that have ended are dropped.
    var maxKeys = 1_024
    private var windows: [String: (start: NIODeadline, suppressed: Int)] = [:]

    init(interval: TimeAmount = .seconds(10), maxKeys: Int = 1_024) {
        self.interval = interval
        self.maxKeys = maxKeys
    }

    /// Whether to write a line about `key` now, and if so how many lines about it were left out before it.
    mutating func admit(_ key: String, now: NIODeadline) -> (write: Bool, leftOut: Int) {
        if let w = windows[key], now - w.start < interval {
            windows[key] = (w.start, w.suppressed + 1)
            return (false, 0)
        }
        let leftOut = windows[key]?.suppressed ?? 0
        if windows.count >= maxKeys { windows = windows.filter { now - $0.value.start < interval } }
        if windows.count < maxKeys { windows[key] = (now, 0) }
        return (true, leftOut)
    }
}
