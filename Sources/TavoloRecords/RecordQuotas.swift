/// How much of this node's work, disk and link records from peers may take (PROTOCOL.md §11.3): per peer, per
/// address (one machine makes as many keys as it likes) and for all peers together, so a thousand fresh keys get
/// no more than a bounded share. Pure: the caller gives the time.
public struct RecordQuotas: Sendable {
    public struct Limits: Sendable, Equatable {
        /// Records (and `records.signatures` messages) checked a minute: per peer, per address, all peers.
        public var checksPerPeer = 600
        public var checksPerAddress = 1_200
        public var checks = 3_000
        /// Bytes of `records.ids` answered to one summary.
        public var idsBytesPerSummary = 262_144
        /// Bytes answered a minute (`records.ids` and `records.data`): per peer, per address, all peers.
        public var answerBytesPerPeer = 1_048_576
        public var answerBytesPerAddress = 2_097_152
        public var answerBytes = 8_388_608
        /// Records kept that peers sent, per peer, per address and from all peers: the rest of the disk is the
        /// node's own. One address keeps at most half of all peers' room, however many keys it makes.
        public var storedPerPeer = 5_000
        public var storedPerAddress = 10_000
        public var storedFromPeers = 20_000

        public init() {}
    }

    public enum Kind: String, Sendable { case checks, answerBytes }

    public var limits: Limits
    private var windows: [String: (start: ContinuousClock.Instant, used: Int)] = [:]

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Takes `amount` of `kind` for a peer at an address in the minute of `now`, all or nothing: true when every
    /// share (the peer's, its address's, everyone's) had room.
    public mutating func take(
        _ amount: Int, of kind: Kind, peer: String, address: String, now: ContinuousClock.Instant
    ) -> Bool {
        let shares: [(String, Int)] =
            switch kind {
            case .checks:
                [("p" + peer, limits.checksPerPeer), ("a" + address, limits.checksPerAddress), ("*", limits.checks)]
            case .answerBytes:
                [
                    ("p" + peer, limits.answerBytesPerPeer), ("a" + address, limits.answerBytesPerAddress),
                    ("*", limits.answerBytes),
                ]
            }
        let keys = shares.map { (kind.rawValue + $0.0, $0.1) }
        if windows.count > 4_096 { windows = windows.filter { now - $0.value.start < .seconds(60) } }
        for (key, limit) in keys where used(key, now) + amount > limit { return false }
        for (key, _) in keys { windows[key] = (windows[key]?.start ?? now, used(key, now) + amount) }
        return true
    }

    private mutating func used(_ key: String, _ now: ContinuousClock.Instant) -> Int {
        guard let w = windows[key] else { return 0 }
        guard now - w.start < .seconds(60) else {
            windows[key] = (now, 0)
            return 0
        }
        return w.used
    }
}
