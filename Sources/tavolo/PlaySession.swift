import Foundation
import TavoloControl
import TavoloCore
import TavoloTable
import TavoloTerminal

/// `tavolo play`'s link to the node: the control ops it uses (`state`, `peers`, `move`, `leave`, and `events` on a
/// second connection) and the translation of their answers into the screen's `TableSnapshot`.
final class PlaySession {
    let table: TableID
    let client: ControlClient
    let events: TableEventFeed

    init(table: TableID, client: ControlClient, events: TableEventFeed) {
        self.table = table
        self.client = client
        self.events = events
    }

    /// The table now, with the status line's problems (lost peers, a stop).
    func snapshot() throws -> TableSnapshot {
        let state = try client.call(.state(table: table))
        let peers = (try? client.call(.peers)) ?? []
        return Self.snapshot(state, peers: peers)
    }

    /// Takes the events that arrived (each one only wakes the loop, which then asks for the table).
    func drainEvents() -> [TableEvent] { events.drain() }

    /// Plays a move; the node's refusal comes back as one line.
    func play(_ json: [UInt8]) -> String? {
        do {
            _ = try client.call(.move(table: table, move: try JSONValue(json: json)))
            return nil
        } catch {
            return "refused: \(error)"
        }
    }

    /// Leaves the table; returns what that did, in the words of the page and `tavolo leave` (`TableNotices`).
    func leave() throws -> String { try Self.leave(table, client) }

    static func leave(_ table: TableID, _ client: ControlClient) throws -> String {
        _ = try client.call(.leave(table: table))
        // A table left before its start is gone (the seat is freed); a game left stays, stopped, to say how.
        guard let after = try? client.call(.state(table: table)), after.leftAt != nil else {
            return "You left \(table): your seat is free again"
        }
        return TableNotices.youLeft(after)
    }

    static func snapshot(_ s: TableState, peers: [PeerSummary], now: Date = Date()) -> TableSnapshot {
        let info = s.info
        let mine = Set(s.mySeats)
        // A name that looks like another node's (peers, this table's members) carries its id, as on the page.
        let shown = PeerNameDisplay.marker(PeerNameDisplay.known(me: nil, peers: peers, tables: [info]))
        let names = PeerNameDisplay.seatNames(info, named: s.seatNames ?? TableNotices.seatNames(s), shown: shown)
        let seats = info.seats.map { seat in
            TableSnapshot.Seat(
                seat: seat.seat, ownerName: seat.ownerName.map { shown($0, seat.owner?.hex) }, bot: seat.bot,
                isMine: mine.contains(seat.seat), label: Terminal.printable(names[seat.seat]))
        }
        // The person's seat: one this node owns that no bot plays. Its bots' hands are not shown.
        let mySeat = s.mySeats.first { info.seats.indices.contains($0) && info.seats[$0].bot == nil }
        var observation: [UInt8]?
        if let me = mySeat, let i = s.mySeats.firstIndex(of: me), i < s.observations.count {
            observation = s.observations[i].jsonBytes
        } else if let open = s.publicObservation {
            observation = open.jsonBytes  // a game that hides nothing, watched without a seat
        } else if info.game == "othello" || info.game.hasPrefix("fifteen"), let any = s.observations.first {
            observation = any.jsonBytes  // nothing is hidden in Othello
        }
        var status: [String] = []
        var lost: [String] = []
        for seat in info.seats {
            guard let owner = seat.owner, let p = peers.first(where: { $0.id == owner }), p.state != .connected,
                !lost.contains(shown(p.name, p.id.hex))
            else { continue }
            lost.append(shown(p.name, p.id.hex))
        }
        if !lost.isEmpty && info.phase != .paused {
            status.append(
                "lost: \(lost.joined(separator: ", "))" + (info.phase.isOver ? "" : " (the table waits for them)"))
        }
        // The pause, takeovers, being voted out, a stop: the same words as `tavolo watch` and the page.
        status = TableNotices.lines(s, now: now) + status
        let phase = TableSnapshot.Phase(rawValue: info.phase.rawValue) ?? .stopped
        var snapshot = TableSnapshot(
            tableID: info.id.rawValue, game: info.game, phase: phase, seats: seats, turn: s.turn,
            moveNumber: s.moveNumber ?? 0,
            mySeat: mySeat, observation: observation,
            legalMoves: s.turn != nil && s.turn == mySeat ? s.legalMoves.map(\.jsonBytes) : [],
            recentMoves: s.lastMoves, winners: s.winners, scores: s.scores, status: status)
        snapshot.elapsedMs = s.wallMs
        snapshot.deck = s.deck
        snapshot.isOutsider = s.outsider == true
        snapshot.playedMoves = (s.played ?? []).map(\.move.jsonBytes)
        for l in s.live ?? [] {
            // A race's live board (§10.4): `{"board": [cells], …}`.
            guard case .object(let o) = l.progress, case .array(let cells)? = o["board"] else { continue }
            let ints = cells.compactMap { v -> Int? in if case .integer(let i) = v { return Int(i) } else { return nil }
            }
            snapshot.live[l.seat] = TableSnapshot.LiveBoard(moves: l.number, cells: ints)
        }
        return snapshot
    }
}

/// The node's events for one table, read on a background thread; `wake` is signalled for each.
final class TableEventFeed: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [TableEvent] = []
    let wake: DispatchSemaphore

    init(_ client: ControlClient, table: TableID, wake: DispatchSemaphore) {
        self.wake = wake
        try? client.subscribe()
        Thread.detachNewThread { [weak self] in
            while let e = try? client.nextEvent() {
                guard e.table == table else { continue }
                self?.lock.withLock { self?.pending.append(e) }
                self?.wake.signal()
            }
        }
    }

    func drain() -> [TableEvent] {
        lock.withLock {
            defer { pending = [] }
            return pending
        }
    }
}
