import TavoloCore
import TavoloTable

/// Look-alike names in table lists (issue 30: `tavolo list`, `state` and `play` showed a seat's owner by name alone,
/// while the page and `tavolo chat` put the node id beside a name that looks like another node's).
extension PeerNameDisplay {
    /// The names a table list knows: this node's, its peers', and every host and seat owner of `tables` — the
    /// page's `knownNames` (app.js).
    public static func known(
        me: NodeStatus?, peers: [PeerSummary], tables: [TableInfo]
    ) -> [(name: String?, node: String?)] {
        var known: [(name: String?, node: String?)] = [(me?.name, me?.id)]
        known += peers.map { ($0.name, $0.id.hex) }
        for t in tables {
            known.append((t.hostName, t.host.hex))
            known += t.seats.map { ($0.ownerName, $0.owner?.hex) }
        }
        return known
    }

    /// Who plays each seat with its owner's name as `shown` gives it: the node's words (`TableNotices.seatNames`)
    /// when given, else the same built here — the page's `seatText` (lobby.js), without its "(you)".
    public static func seatNames(_ info: TableInfo, named: [String]?, shown: Marker) -> [String] {
        info.seats.map { s in
            let owner = s.ownerName.map { shown($0, s.owner?.hex) }
            if let named, s.seat < named.count {
                guard let owner, let plain = s.ownerName, owner != plain,
                    let at = named[s.seat].range(of: plain)
                else { return named[s.seat] }
                return named[s.seat].replacingCharacters(in: at, with: owner)
            }
            guard let owner else { return s.invited.map { "reserved for \($0)" } ?? "free" }
            return s.bot.map { TableNotices.bot($0, for: owner) } ?? owner
        }
    }
}
