/// How often one peer may chat (PROTOCOL.md §12): a bucket of `burst` messages, refilled at `perSecond`.
/// Messages beyond it are dropped, not queued. Pure: the caller gives the time.
public struct ChatRateLimit: Sendable {
    public static let burst = 5.0
    public static let perSecond = 1.0

    /// Per peer, each address, and all peers together: keys are free, so a bound per key alone is no bound.
    public static let addressBurst = 10.0
    public static let addressPerSecond = 2.0
    public static let allBurst = 20.0
    public static let allPerSecond = 5.0

    private let burst: Double
    private let perSecond: Double
    private var tokens: [String: (level: Double, at: Double)] = [:]

    public init(burst: Double = Self.burst, perSecond: Double = Self.perSecond) {
        self.burst = burst
        self.perSecond = perSecond
    }

    /// Whether a message from `sender` at `now` (seconds, any monotonic origin) is allowed; counts it if so.
    public mutating func allow(_ sender: String, now: Double) -> Bool {
        let old = tokens[sender] ?? (burst, now)
        let level = min(burst, old.level + max(0, now - old.at) * perSecond)
        guard level >= 1 else {
            tokens[sender] = (level, now)
            return false
        }
        tokens[sender] = (level - 1, now)
        return true
    }

    /// Forgets a peer (it left): its entry would otherwise stay for the life of the node.
    public mutating func forget(_ sender: String) { tokens[sender] = nil }
}
