import TavoloCore

/// What an offer from another node may hold (PROTOCOL.md §9.1): a node keeps up to 64 offers per host, so each
/// must stay small whatever the host sends.
extension TableInfo {
    /// Longest node name, bot kind or reservation in an offer: the handshake's limit on names (§3.4).
    public static let maxNameBytes = 63

    /// True if the offer is one a node keeps: a game it knows, played by a number of players that game allows,
    /// one seat per player numbered from 0, and names no longer than a handshake allows.
    public func isWithinLimits(_ catalog: GameCatalog) -> Bool {
        guard let entry = catalog[game], entry.playerCounts.contains(players), seats.count == players,
            seats.enumerated().allSatisfy({ $0.offset == $0.element.seat }), revision >= 0,
            grace.map(Self.graceRange.contains) ?? true,
            takeoverBot.map { kind in entry.bots.contains { $0.kind == kind } } ?? true
        else { return false }
        let names = [hostName] + seats.flatMap { [$0.ownerName, $0.invited, $0.bot].compactMap { $0 } }
        return names.allSatisfy { $0.utf8.count <= Self.maxNameBytes }
    }
}
