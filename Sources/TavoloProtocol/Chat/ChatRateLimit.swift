/// How often one peer may chat (PROTOCOL.md §12): a bucket of `burst` messages, refilled at `perSecond`.
/// Messages beyond it are dropped, not queued. Pure: the caller gives the time.
public struct ChatRateLimit: Sendable {
    public static let burst = 5.0
    public static let perSecond = 1.0

    private var tokens: [String: (level: Double, at: Double)] = [:]

    public init() {}

    /// Whether a message from `sender` at `now` (seconds, any monotonic origin) is allowed; counts it if so.
    public mutating func allow(_ sender: String, now: Double) -> Bool {
        let old = tokens[sender] ?? (Self.burst, now)
        let level = min(Self.burst, old.level + max(0, now - old.at) * Self.perSecond)
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
