import TavoloCore
import TavoloProtocol

/// Every table this node knows, with the node's context: routes inputs to each table's machine, creates tables
/// (hosted here or offered by others), and drops the ones that are over or whose host is gone. Pure, like the
/// machines it holds.
public struct TableDirectory {
    public private(set) var tables: [TableID: TableMachine] = [:]
    public private(set) var context: TableContext
    var nonces: NonceSource
    var nextTableNumber = 1
    /// The middle part of this node's table ids, never the same across its restarts (`TableEpoch`).
    public var tableEpoch = TableEpoch.random()
    var restoredEffects: [TableEffect] = []

    /// Tables another node may have listed here at once; more offers from it are dropped.
    public static let maxTablesPerPeer = 64

    public init(context: TableContext, nonces: NonceSource) {
        self.context = context
        self.nonces = nonces
    }

    // MARK: Inputs

    /// A table message arrived from `from`.
    public mutating func received(_ message: TableMessage, from: NodeID) -> [TableEffect] {
        let id = message.table
        if tables[id] == nil {
            guard case .offer(let info) = message else {
                return [.log(.debug, "\(message.typeName) for unknown table \(id) from \(context.name(from))")]
            }
            guard info.host == from, from != context.me, info.isWithinLimits(context.catalog) else {
                return [.refused("table.offer for table \(id) (not its host, or malformed)", from: from)]
            }
            guard tables.values.count(where: { $0.info.host == from }) < Self.maxTablesPerPeer else {
                return [.refused("table.offer for table \(id) (more than \(Self.maxTablesPerPeer) tables)", from: from)]
            }
            tables[id] = TableMachine(offered: info, role: .node, context)
        }
        // §9.1: a result from a node with no say is counted like any such message. (The machine ignores, uncounted,
        // a member's repeated or late result: members send theirs again after a sync, §9.11.)
        if case .result = message, let t = tables[id],
            !t.info.isMember(from) || t.replaced.contains(from) || !t.checks
        {
            return [.refused("table.result for table \(id)", from: from)]
        }
        return route(id, .message(message, from: from))
    }

    public mutating func peerConnected(_ peer: NodeID, name: String) -> [TableEffect] {
        context.names[peer] = name
        context.connected.insert(peer)
        return tables.keys.sorted().flatMap { route($0, .peerConnected(peer)) }
    }

    public mutating func peerLost(_ peer: NodeID) -> [TableEffect] {
        context.connected.remove(peer)
        let effects = tables.keys.sorted().flatMap { route($0, .peerLost(peer)) }
        // An open table, or one this node takes no part in (not even as a spectator, §9.12), goes with its host; not
        // the stopped copy of a game this node left, which sends its forfeit again to members that come back.
        for (id, t) in tables
        where t.info.host == peer && t.forfeitedAt == nil && (t.info.phase == .open || !(t.isMember || t.isSpectator)) {
            tables[id] = nil
        }
        return effects
    }

    public mutating func timerFired(_ timer: TableTimer) -> [TableEffect] {
        switch timer {
        case .expire(let id):
            if tables[id]?.info.phase.isOver == true { tables[id] = nil }
            return []
        case .seeding, .seatRequest, .confirmations, .results, .deal, .botMove, .raceBot, .grace:
            return route(timer.table, .timer(timer))
        }
    }

    mutating func route(_ id: TableID, _ input: TableInput) -> [TableEffect] {
        changing(id) { machine, ctx, nonces in machine.handle(input, ctx, nonces: &nonces) } ?? []
    }

    /// Runs `change` on table `id`'s machine in place in the dictionary (its `_modify`): no copy of the machine made
    /// and put back, and its log stays uniquely referenced, so appending a move copies nothing. The context and
    /// nonces are taken out for the call, as they cannot be borrowed from `self` while `tables` is being changed.
    /// Nil when no such table is known.
    private mutating func changing<R>(
        _ id: TableID, _ change: (inout TableMachine, TableContext, inout NonceSource) -> R
    ) -> R? {
        guard tables[id] != nil else { return nil }
        let ctx = context
        var n = nonces
        defer { nonces = n }
        // swift-format-ignore: NeverForceUnwrap
        // (checked above; changed in place through the dictionary, never copied)
        return change(&tables[id]!, ctx, &n)
    }

    /// Picks up a game this node's log shows unfinished (a restart, §9.11): the table is paused until the other
    /// members are back.
    public mutating func restore(_ log: GameLog) -> Result<TableID, TableError> {
        guard tables[log.table.id] == nil else { return .failure(TableError(.badRequest, "already known")) }
        // The members' names, as the log knows them, until their sessions say them again: a pause names people,
        // not node ids, even before anyone reconnects.
        for p in log.participants where context.names[p.node] == nil { context.names[p.node] = p.name }
        for s in log.table.seats {
            if let owner = s.owner, let name = s.ownerName, context.names[owner] == nil { context.names[owner] = name }
        }
        if context.names[log.table.host] == nil { context.names[log.table.host] = log.table.hostName }
        var machine: TableMachine
        do { machine = try TableMachine(restoring: log, context) } catch { return .failure(error) }
        restoredEffects += machine.restored(context)
        tables[log.table.id] = machine
        return .success(log.table.id)
    }

    /// Effects of restored tables, for the shell to perform once it is ready.
    public mutating func takeRestoredEffects() -> [TableEffect] {
        defer { restoredEffects = [] }
        return restoredEffects
    }

    // MARK: Local requests

    /// Hosts a new open table; `sealed`, dealt from a sealed deck (§14: a card game only).
    public mutating func host(
        game: String, players: Int?, grace: Int? = nil, takeoverBot: String? = nil, sealed: Bool = false
    ) -> (Result<TableInfo, TableError>, [TableEffect]) {
        guard let entry = context.catalog[game] else {
            let games = context.catalog.names.joined(separator: ", ")
            return (.failure(TableError(.unknownGame, "unknown game '\(game)'; games: \(games)")), [])
        }
        guard let players = players ?? (entry.playerCounts.count == 1 ? entry.playerCounts.first : nil) else {
            let counts = entry.playerCounts.map(String.init).joined(separator: ", ")
            return (.failure(TableError(.badPlayers, "say how many play \(game): \(counts)")), [])
        }
        guard entry.playerCounts.contains(players) else {
            let counts = entry.playerCounts.map(String.init).joined(separator: ", ")
            return (.failure(TableError(.badPlayers, "\(game) is played by \(counts) players, not \(players)")), [])
        }
        if let grace, !TableInfo.graceRange.contains(grace) {
            let range = TableInfo.graceRange
            return (
                .failure(
                    TableError(
                        .badRequest, "a grace period is \(range.lowerBound)-\(range.upperBound) seconds, not \(grace)")),
                []
            )
        }
        if let takeoverBot, !entry.bots.contains(where: { $0.kind == takeoverBot }) {
            let kinds = entry.bots.map(\.kind).joined(separator: ", ")
            return (.failure(TableError(.badRequest, "unknown bot '\(takeoverBot)' for \(game); bots: \(kinds)")), [])
        }
        if sealed && !entry.isSealable {
            let card = context.catalog.entries.filter(\.isSealable).map(\.name).joined(separator: ", ")
            return (.failure(TableError(.badRequest, "\(game) has no hidden cards to seal; sealed games: \(card)")), [])
        }
        guard let id = TableID("\(context.me.short)-\(tableEpoch)-\(nextTableNumber)") else {
            return (.failure(TableError(.badRequest, "no table id")), [])
        }
        nextTableNumber += 1
        let info = TableInfo(
            id: id, game: game, players: players, host: context.me, hostName: context.myName, phase: .open,
            seats: (0..<players).map { SeatInfo(seat: $0) }, revision: 1, grace: grace ?? TableInfo.defaultGrace,
            takeoverBot: takeoverBot ?? entry.defaultBot, sealed: sealed ? true : nil)
        var machine = TableMachine(hosting: info, context)
        let effects = machine.announce(context)
        tables[id] = machine
        return (.success(info), effects)
    }

    /// The table a join names, or the oldest open table of `game` with a free seat (automatch).
    public func tableToJoin(table: TableID?, game: String?) -> Result<TableID, TableError> {
        if let table {
            guard tables[table] != nil else { return .failure(TableError(.unknown, "no table '\(table)' is known")) }
            return .success(table)
        }
        guard let game else { return .failure(TableError(.badRequest, "name a table or a game")) }
        let open = tables.values.filter { $0.info.game == game && $0.info.phase == .open && !$0.info.freeSeats.isEmpty }
        guard let found = open.min(by: { $0.info.id < $1.info.id }) else {
            return .failure(
                TableError(.noneOpen, "no open \(game) table with a free seat; host one with `tavolo host \(game)`"))
        }
        return .success(found.info.id)
    }

    /// The local user's request on table `id`.
    public mutating func request(_ id: TableID, _ r: TableRequest) -> (Result<TableInfo, TableError>, [TableEffect]) {
        changing(id) { machine, ctx, nonces in machine.request(r, ctx, nonces: &nonces) }
            ?? (.failure(TableError(.unknown, "no table '\(id)' is known")), [])
    }

    /// The id of the connected node called `name`.
    public func connectedNode(named name: String) -> NodeID? {
        context.names.first { $0.value == name && $0.key != context.me && context.connected.contains($0.key) }?.key
    }

    /// Known tables: open ones first, then by id.
    public func list() -> [TableInfo] {
        tables.values.map(\.info).sorted { ($0.phase == .open ? 0 : 1, $0.id) < ($1.phase == .open ? 0 : 1, $1.id) }
    }
}
