import NIOCore
import TavoloProtocol

/// How many lost peers a node remembers, and for how long (PROTOCOL.md §3.4). Anyone can connect with a made-up
/// id and leave, so a node cannot keep every peer it ever saw. Only lost peers that are no longer advertised in
/// DNS-SD are forgotten: one still advertised is redialed, and DNS-SD bounds those. Pure.
struct LostPeerRetention: Sendable {
    var maxRemembered = 256
    var keepFor = TimeAmount.hours(1)

    /// Which of these lost, unadvertised peers to forget now: every one lost longer than `keepFor` ago, then the
    /// longest lost until at most `maxRemembered` are left.
    func toForget(_ lost: [(id: NodeID, since: NIODeadline)], now: NIODeadline) -> [NodeID] {
        let oldestFirst = lost.sorted { ($0.since, $0.id) < ($1.since, $1.id) }
        let expired = oldestFirst.filter { now - $0.since > keepFor }
        let kept = oldestFirst.count - expired.count
        let overflow = oldestFirst.dropFirst(expired.count).prefix(max(0, kept - maxRemembered))
        return (expired + overflow).map(\.id)
    }
}
