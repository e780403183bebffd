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

    /// How many more records from `id` this node keeps: its share, its address's and all peers' share of the disk.
    func storeRoom(for id: NodeID) -> Int {
        let limits = quotas.limits
        let mine = limits.storedPerPeer - (peers[id]?.stored ?? 0)
        let address = limits.storedPerAddress - storedAt(peers[id]?.address ?? "")
        return max(0, min(mine, address, limits.storedFromPeers - storedFromPeers))
    }

    /// Records kept that peers at `address` sent: read from the store the first time (the address is stored with
    /// each record, so a restart forgets nothing), then counted here as records are kept.
    func storedAt(_ address: String) -> Int {
        if let n = storedByAddress[address] { return n }
        let n = store.receivedCount(fromAddress: address)
        storedByAddress[address] = n
        return n
    }

    /// `added` records from `id` were kept: they count for it, its address and all peers.
    func kept(_ added: Int, from id: NodeID) {
        guard added > 0 else { return }
        storedFromPeers += added
        guard let address = peers[id]?.address else { return }
        peers[id]?.stored += added
        storedByAddress[address] = storedAt(address) + added
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
