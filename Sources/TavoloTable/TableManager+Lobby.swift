import Foundation
import TavoloCore
import TavoloProtocol

extension TableManager {
    // MARK: Offers and seats (host side and guest side)

    func handleOffer(_ info: TableInfo, from: NodeID) {
        // Only the host speaks for its table: an offer naming another host is a forgery.
        guard info.host == from, info.host != me else { return }
        guard info.seats.count == info.players, catalog[info.game] != nil else { return }
        if let t = tables[info.id] {
            guard info.revision > t.info.revision else { return }
            let wasOpen = t.info.phase == .open
            // Once seeding starts the seats are fixed; later offers only report the phase.
            if t.isActive || t.info.phase == .finished || t.info.phase == .stopped { return }
            t.info = info
            t.log.table = info
            event(.updated, t)
            if wasOpen && info.phase == .seeding && info.members.contains(me) { beginSeeding(t) }
        } else {
            let t = TableRuntime(info: info, isHost: false)
            tables[info.id] = t
            event(.offered, t) { $0.message = "\(info.hostName) offers a \(info.game) table for \(info.players)" }
            if info.phase == .seeding && info.members.contains(me) { beginSeeding(t) }
        }
    }

    func handleSeatRequest(_ t: TableRuntime, from: NodeID, seat: Int?, bot: String?) {
        guard t.isHost else { return }
        if let refusal = assignSeat(t, to: from, seat: seat, bot: bot) {
            send(.seatRefused(table: t.info.id, reason: refusal), to: [from])
        }
    }

    /// Seats `node` (host side); returns a refusal sentence instead.
    func assignSeat(_ t: TableRuntime, to node: NodeID, seat: Int?, bot: String?) -> String? {
        guard t.info.phase == .open else { return "table \(t.info.id) has started" }
        if let bot, let entry = catalog[t.info.game], !entry.bots.contains(where: { $0.kind == bot }) {
            return "unknown bot '\(bot)' for \(t.info.game)"
        }
        let name = names[node] ?? node.short
        let free = t.info.seats.filter { $0.owner == nil && ($0.invited == nil || $0.invited == name) }
        let chosen: Int
        if let seat {
            guard (0..<t.info.players).contains(seat) else { return "no seat \(seat) at a table for \(t.info.players)" }
            guard free.contains(where: { $0.seat == seat }) else { return "seat \(seat) is taken or reserved" }
            chosen = seat
        } else {
            guard let first = free.first(where: { $0.invited == name }) ?? free.first else { return "no free seat" }
            chosen = first.seat
        }
        t.info.seats[chosen] = SeatInfo(seat: chosen, owner: node, ownerName: name, bot: bot)
        t.info.revision += 1
        announce(t)
        return nil
    }

    func freeSeats(of node: NodeID, in t: TableRuntime) {
        for i in t.info.seats.indices where t.info.seats[i].owner == node {
            t.info.seats[i] = SeatInfo(seat: i)
        }
        t.info.revision += 1
        announce(t)
    }

    /// Host: tell every connected node the table's current state.
    func announce(_ t: TableRuntime) {
        t.log.table = t.info
        send(.offer(t.info), to: Array(connected))
        event(.updated, t)
    }

    func handleLeave(_ t: TableRuntime, from: NodeID) {
        if t.info.phase == .open {
            if t.isHost { freeSeats(of: from, in: t) }
        } else if t.isActive && t.info.members.contains(from) {
            stopTable(
                t, code: "table/member-left", reason: "\(names[from] ?? from.short) left the game", broadcast: false)
        }
    }

    // MARK: Control API

    /// Known tables, newest revision of each.
    public func list() -> [TableInfo] {
        tables.values.map(\.info).sorted { $0.id < $1.id }
    }

    /// Hosts a new open table.
    public func host(game: String, players: Int) throws(TableError) -> TableInfo {
        guard let entry = catalog[game] else {
            throw TableError(
                "table/unknown-game", "unknown game '\(game)'; games: \(catalog.names.joined(separator: ", "))")
        }
        guard entry.playerCounts.contains(players) else {
            let counts = entry.playerCounts.map(String.init).joined(separator: ", ")
            throw TableError("table/bad-players", "\(game) is played by \(counts) players, not \(players)")
        }
        let id = "\(me.short)-\(nextTableNumber)"
        nextTableNumber += 1
        let info = TableInfo(
            id: id, game: game, players: players, host: me, hostName: myName, phase: .open,
            seats: (0..<players).map { SeatInfo(seat: $0) }, revision: 1)
        let t = TableRuntime(info: info, isHost: true)
        tables[id] = t
        announce(t)
        return info
    }

    /// Asks for a seat at `table`, or at the oldest open table of `game` with a free seat (automatch).
    /// Returns the table's id; the seat shows in the next offer (or a seat-refused event).
    public func join(table: String?, game: String?, seat: Int?, bot: String?) throws(TableError) -> String {
        let t: TableRuntime
        if let table {
            guard let found = tables[table] else { throw TableError("table/unknown", "no table '\(table)' is known") }
            t = found
        } else if let game {
            let open = tables.values.filter {
                $0.info.game == game && $0.info.phase == .open && !$0.info.freeSeats.isEmpty
            }
            guard let found = open.min(by: { $0.info.id < $1.info.id }) else {
                throw TableError(
                    "table/none-open", "no open \(game) table with a free seat; host one with `tavolo host \(game)`")
            }
            t = found
        } else {
            throw TableError("table/bad-request", "name a table or a game")
        }
        guard t.info.phase == .open else { throw TableError("table/started", "table \(t.info.id) has started") }
        if t.isHost {
            if let refusal = assignSeat(t, to: me, seat: seat, bot: bot) {
                throw TableError("table/seat-refused", refusal)
            }
        } else {
            send(.seatRequest(table: t.info.id, seat: seat, bot: bot), to: [t.info.host])
        }
        return t.info.id
    }

    /// Host: fills every free seat with its own bots of `bot` kind.
    public func fill(table: String, bot: String) throws(TableError) -> TableInfo {
        let t = try hostedOpenTable(table)
        for s in t.info.freeSeats {
            if let refusal = assignSeat(t, to: me, seat: s, bot: bot) {
                throw TableError("table/seat-refused", refusal)
            }
        }
        return t.info
    }

    /// Host: reserves `seat` for the node called `node` and tells it.
    public func invite(table: String, seat: Int, node: String) throws(TableError) -> TableInfo {
        let t = try hostedOpenTable(table)
        guard let target = names.first(where: { $0.value == node && $0.key != me })?.key, connected.contains(target)
        else {
            throw TableError("table/unknown-node", "no connected node called '\(node)'")
        }
        guard (0..<t.info.players).contains(seat), t.info.seats[seat].owner == nil else {
            throw TableError("table/seat-taken", "seat \(seat) is not free")
        }
        t.info.seats[seat].invited = node
        t.info.revision += 1
        announce(t)
        send(.invite(table: t.info.id, seat: seat), to: [target])
        return t.info
    }

    /// Host: starts a full table: seeding begins at every member.
    public func start(table: String) throws(TableError) -> TableInfo {
        let t = try hostedOpenTable(table)
        guard t.info.freeSeats.isEmpty else {
            throw TableError(
                "table/not-full",
                "seats \(t.info.freeSeats.map(String.init).joined(separator: ", ")) are free; fill them first")
        }
        t.info.phase = .seeding
        t.info.revision += 1
        announce(t)
        beginSeeding(t)
        return t.info
    }

    /// Leaves a table: frees this node's seats before the start, abandons (stops) the game after.
    public func leave(table: String) throws(TableError) {
        guard let t = tables[table] else { throw TableError("table/unknown", "no table '\(table)' is known") }
        if t.info.phase == .open {
            if t.isHost {
                t.info.phase = .stopped
                t.info.revision += 1
                announce(t)
            } else {
                send(.leave(table: table), to: [t.info.host])
            }
        } else if t.isActive {
            sendToTable(.leave(table: table), t)
            stopTable(t, code: "table/member-left", reason: "\(myName) left the game", broadcast: false)
        }
    }

    func hostedOpenTable(_ id: String) throws(TableError) -> TableRuntime {
        guard let t = tables[id] else { throw TableError("table/unknown", "no table '\(id)' is known") }
        guard t.isHost else { throw TableError("table/not-host", "only the host \(t.info.hostName) can do that") }
        guard t.info.phase == .open else { throw TableError("table/started", "table \(id) has started") }
        return t
    }
}
