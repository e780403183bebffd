import Crypto
import TavoloProtocol

/// Who inherits a voted-out member's seats, and who takes the host's jobs (PROTOCOL.md §9.12, §9.13): the member
/// whose *rank* is lowest, where a rank is SHA-256 of the joint seed and the node id. Node ids come from keys, and a
/// key with a low id is found in under a second: ordered by id, a member could make itself the heir of every seat.
/// The joint seed is fixed by commit–reveal after the members are (§9.3), so no member can choose its rank.
public enum HeirOrder {
    /// SHA-256("tavolo/heir-rank/v1" ‖ u64 big-endian joint seed ‖ the 16 bytes of the node id).
    public static func rank(of node: NodeID, jointSeed: UInt64) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: Array("tavolo/heir-rank/v1".utf8))
        hasher.update(data: (0..<8).map { UInt8(truncatingIfNeeded: jointSeed >> (56 - 8 * $0)) })
        hasher.update(data: node.bytes)
        return Array(hasher.finalize())
    }

    /// The candidate of lowest rank (ranks compared as bytes); with no joint seed yet, the lowest node id.
    public static func first(of candidates: some Sequence<NodeID>, jointSeed: UInt64?) -> NodeID? {
        guard let seed = jointSeed else { return candidates.min() }
        return candidates.map { (node: $0, rank: rank(of: $0, jointSeed: seed)) }
            .min { $0.rank.lexicographicallyPrecedes($1.rank) }?.node
    }
}
