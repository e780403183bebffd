import Foundation
import TavoloProtocol

extension RecordSync {
    /// Counts one pushed record (or `records.signatures`) to check against the shares of `id`, its address and
    /// everyone (§11.3 step 5); false when one is used up for this minute.
    func admitPush(from id: NodeID) -> Bool {
        guard let peer = peers[id] else { return false }
        return quotas.take(1, of: .checks, peer: id.hex, address: peer.address, now: .now)
    }

    /// Counts `bytes` of an answer to `id` against the shares of §11.3; false when one is used up for this minute.
    func admitAnswer(_ bytes: Int, to id: NodeID) -> Bool {
        guard let peer = peers[id] else { return false }
        return quotas.take(bytes, of: .answerBytes, peer: id.hex, address: peer.address, now: .now)
    }

    /// How many more records from `id` this node keeps: its share and all peers' share of the disk.
    func storeRoom(for id: NodeID) -> Int {
        let mine = quotas.limits.storedPerPeer - (peers[id]?.stored ?? 0)
        return max(0, min(mine, quotas.limits.storedFromPeers - storedFromPeers))
    }

    /// Logs that `id` went over a share, at most once a minute per peer.
    func sayOver(_ id: NodeID, _ what: String) {
        let now = ContinuousClock.now
        if let said = peers[id]?.overSaid, now - said < .seconds(60) { return }
        peers[id]?.overSaid = now
        logger.warning("records: \(id.short) is over its share of \(what); the rest waits")
    }

    /// The bytes of a `records.ids` with `count` ids: 67 per id (64 digits, quotes, comma) and the rest.
    static func idsMessageBytes(_ count: Int) -> Int { 40 + count * 67 }

    /// The host of "host:port" ("[v6]:port" too); the whole text when it has no port.
    static func host(of address: String) -> String {
        guard let colon = address.lastIndex(of: ":") else { return address }
        let host = address[..<colon]
        return String(host.hasPrefix("[") && host.hasSuffix("]") ? host.dropFirst().dropLast() : host)
    }
}
