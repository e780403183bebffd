import NIOCore
import TavoloProtocol

/// Who dials whom, and when to dial again (PROTOCOL.md §4.7, "Who dials" and "Reconnecting"). Pure: the node
/// feeds it what happened and the time, and asks it whether to dial; nothing here touches a socket or a clock.
struct DialPolicy: Sendable {
    let localID: NodeID
    /// How long to wait after losing an established connection: a peer that went silent may still be hung (its
    /// kernel even accepts connections), so give it one heartbeat timeout. One that restarted reappears in DNS-SD
    /// and is dialed at once (`DialState.rediscovered`).
    let redialAfterLoss: TimeAmount

    /// The pause after the n-th failed dial in a row: 0.5 s, 1 s, 2 s, 4 s, then every 5 s.
    static func backoff(afterFailures failures: Int) -> TimeAmount {
        guard failures > 0 else { return .zero }
        return .milliseconds(Int64(min(5_000, 250 << min(failures, 5))))
    }

    /// Exactly one connection joins a pair, and the node with the smaller id makes it.
    func dials(_ peer: NodeID) -> Bool { localID < peer }

    /// Whether to dial `peer` now. `advertised` = its service is in DNS-SD (the address to dial);
    /// `compatible` = its TXT version matches; `connected` = an established connection exists.
    func shouldDial(
        _ peer: NodeID, state: DialState, connected: Bool, advertised: Bool, compatible: Bool, now: NIODeadline
    ) -> Bool {
        dials(peer) && !connected && advertised && compatible && !state.dialing && now >= state.nextDialAt
    }
}

/// One peer's dialing history, as `DialPolicy` needs it.
struct DialState: Equatable, Sendable {
    /// A dial (connect, then handshake) is under way.
    private(set) var dialing = false
    /// Dials that failed in a row since the last success or rediscovery.
    private(set) var failures = 0
    /// No dial before this.
    private(set) var nextDialAt = NIODeadline.uptimeNanoseconds(0)

    /// The peer's service was found (again) in DNS-SD: a restarted peer is dialed at once.
    mutating func rediscovered(now: NIODeadline) {
        failures = 0
        nextDialAt = now
    }

    mutating func dialStarted() { dialing = true }

    /// The connect failed, or the dialed connection closed before its handshake was accepted.
    mutating func dialFailed(now: NIODeadline) {
        dialing = false
        failures += 1
        nextDialAt = now + DialPolicy.backoff(afterFailures: failures)
    }

    /// A connection to the peer was established (whoever dialed).
    mutating func connected() {
        dialing = false
        failures = 0
    }

    /// The established connection ended.
    mutating func connectionLost(now: NIODeadline, policy: DialPolicy) {
        dialing = false
        nextDialAt = now + policy.redialAfterLoss
    }
}
