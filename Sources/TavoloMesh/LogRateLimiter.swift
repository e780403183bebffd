import NIOCore
import TavoloProtocol

/// The mesh reads its clock as `NIODeadline`s (the event loop's time).
extension LogRateLimiter {
    init(interval: TimeAmount, burst: Int = 1, maxKeys: Int = 1_024) {
        self.init(intervalNanoseconds: UInt64(max(interval.nanoseconds, 0)), burst: burst, maxKeys: maxKeys)
    }

    mutating func admit(_ key: String, now: NIODeadline) -> (write: Bool, leftOut: Int) {
        admit(key, nowNanoseconds: now.uptimeNanoseconds)
    }
}
