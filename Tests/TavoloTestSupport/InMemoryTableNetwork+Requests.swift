import TavoloCore
import TavoloProtocol
import TavoloTable

/// A user's requests on one node and reads of what it saw, the way `TableManager`'s control API words them, for
/// tests that drive a few nodes by hand rather than by a planned scenario.
extension InMemoryTableNetwork {
    /// Node `i` hosts a table.
    public mutating func host(_ i: Int, game: String, players: Int?) -> Result<TableInfo, TableError> {
        request(i) { $0.host(game: game, players: players) } ?? .failure(TableError(.unknown, "n\(i) is down"))
    }

    /// Node `i` asks for a seat at `table`, or at the oldest open table of `game` (automatch).
    @discardableResult
    public mutating func join(_ i: Int, table: TableID?, game: String? = nil, seat: Int?, bot: String?) -> Result<
        TableInfo, TableError
    > {
        let result = request(i) { d in
            switch d.tableToJoin(table: table, game: game) {
            case .success(let id): d.request(id, .join(seat: seat, bot: bot))
            case .failure(let e): (.failure(e), [])
            }
        }
        return result ?? .failure(TableError(.unknown, "n\(i) is down"))
    }

    /// Node `i`'s user's request on table `id`.
    @discardableResult
    public mutating func request(_ i: Int, _ id: TableID, _ r: TableRequest) -> Result<TableInfo, TableError> {
        request(i) { $0.request(id, r) } ?? .failure(TableError(.unknown, "n\(i) is down"))
    }

    /// Node `i` sends a raw table message as a misbehaving peer would.
    public mutating func inject(_ i: Int, _ message: TableMessage) {
        request(i, message.table, .inject(message))
    }

    /// What node `i` can see of table `id`.
    public func state(_ i: Int, _ id: TableID) -> TableState? { table(i, id)?.view }

    /// The tables node `i` knows.
    public func list(_ i: Int) -> [TableInfo] { nodes[i].directory?.list() ?? [] }

    /// The first event of `kind` node `i` emitted.
    public func first(_ i: Int, _ kind: TableEvent.Kind) -> TableEvent? { nodes[i].events.first { $0.kind == kind } }

    /// Every event of `kind` node `i` emitted.
    public func all(_ i: Int, _ kind: TableEvent.Kind) -> [TableEvent] { nodes[i].events.filter { $0.kind == kind } }

    /// Handles events until `condition` holds; false when the network went quiet (or `limit` steps passed) first.
    @discardableResult
    public mutating func run(limit: Int = 1_000_000, until condition: (Self) -> Bool) -> Bool {
        var n = 0
        while !condition(self) {
            guard n < limit, step() else { return false }
            n += 1
        }
        return true
    }
}
