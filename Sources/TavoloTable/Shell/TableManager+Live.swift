import Foundation
import TavoloCore
import TavoloProtocol

/// Live progress of simultaneous games on the unreliable channel (PROTOCOL.md §10.4): while a race runs, this
/// node sends each of its seats still racing to the other members as a datagram every `liveInterval`; it keeps,
/// per seat, the newest progress heard. Nothing here counts: the machine decides everything from the reliable
/// `table.race-move`s, so a datagram lost, late, duplicated or forged changes only what a screen shows for a
/// moment. That is why this lives in the shell and not in the machine (no log, no replay, no hash).
struct LiveRace {
    /// When this node saw each seat complete (its own clock, from the start of play).
    var finished: [SeatTime] = []
    var playingSince: ContinuousClock.Instant?
    var seats: [Int: (number: Int, progress: JSONValue, at: ContinuousClock.Instant)] = [:]
    var stats = LiveStats()
    var startedAt: ContinuousClock.Instant?
    var endedAt: ContinuousClock.Instant?
}

/// The datagram's JSON (§10.4); sent in its compact form (§13.3).
struct ProgressDatagram: Codable {
    var type = "table.progress"
    var table: TableID
    var seat: Int
    var number: Int
    var progress: JSONValue

    init(table: TableID, seat: Int, number: Int, progress: JSONValue) {
        self.table = table
        self.seat = seat
        self.number = number
        self.progress = progress
    }

    /// A received body, compact or JSON as its datagram said (§13.1); nil when it is not a progress.
    init?(_ body: [UInt8], form: MessageForm) {
        guard form == .compact else {
            guard let d = try? CanonicalJSON.decode(ProgressDatagram.self, body) else { return nil }
            self = d
            return
        }
        guard let m = try? CompactMessage.decode(body), m.kind == .progress, let table = TableID(m.table),
            let seat = m.seat, let json = m.json, let progress = try? CanonicalJSON.decode(JSONValue.self, json)
        else { return nil }
        self.init(table: table, seat: seat, number: m.number, progress: progress)
    }

    func wireBytes() throws -> [UInt8] {
        try CompactMessage(
            kind: .progress, table: table.rawValue, number: number, seat: seat, json: try CanonicalJSON.encode(progress)
        ).encoded()
    }
}

extension TableManager {
    /// How often a racing node sends its seats' progress.
    static let liveInterval: Duration = .milliseconds(200)

    func startLiveProgressIfRacing(_ id: TableID) {
        guard directory.tables[id]?.isRace == true else { return }
        if live[id] == nil { live[id] = LiveRace() }
        live[id]?.playingSince = .now
        guard liveTask == nil else { return }
        liveTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.liveInterval)
                guard let self, await self.tickLive() else { break }
            }
        }
    }

    /// Sends this node's racing seats' progress; false once no race is running here.
    func tickLive() -> Bool {
        var running = false
        for id in live.keys {
            guard let machine = directory.tables[id], machine.info.phase == .playing, let s = machine.session else {
                if live[id]?.endedAt == nil { live[id]?.endedAt = .now }
                continue
            }
            running = true
            let others = machine.info.members.filter { $0 != me }
            for seat in s.activeSeats where machine.info.seats[seat].owner == me {
                guard let progress = s.liveProgress(seat: seat) else { continue }
                let datagram = ProgressDatagram(
                    table: id, seat: seat, number: machine.raceNext(seat), progress: progress)
                guard let body = try? datagram.wireBytes() else { continue }
                transport.postUnreliable(body, to: others)
                if live[id]?.startedAt == nil { live[id]?.startedAt = .now }
                live[id]?.stats.sent += others.count
            }
        }
        if !running { liveTask = nil }
        return running
    }

    /// A datagram of the tables service from `from` (the mesh checked it came from that connected peer's address,
    /// §4.6), in `form`.
    public func receivedDatagram(_ body: [UInt8], form: MessageForm, from: NodeID) {
        guard let d = ProgressDatagram(body, form: form), d.type == "table.progress" else { return }
        guard let machine = directory.tables[d.table], machine.isRace, live[d.table] != nil,
            machine.info.seats.indices.contains(d.seat), machine.info.seats[d.seat].owner == from
        else {
            if live[d.table] != nil { live[d.table]?.stats.refused += 1 }
            return
        }
        // Older than what this node heard, or than the moves it already applied: it would show the past.
        let newest = max(live[d.table]?.seats[d.seat]?.number ?? -1, machine.raceNext(d.seat) - 1)
        guard d.number > newest else {
            live[d.table]?.stats.stale += 1
            return
        }
        live[d.table]?.seats[d.seat] = (d.number, d.progress, .now)
        live[d.table]?.stats.accepted += 1
    }

    /// A race move was applied here: note when its seat completed, on this node's clock.
    func noteRaceMove(_ event: TableEvent) {
        guard case .moved(_, let seat, _, _, _) = event.detail, let since = live[event.table]?.playingSince,
            live[event.table]?.finished.contains(where: { $0.seat == seat }) == false,
            directory.tables[event.table]?.session?.seatCompleted(seat) == true
        else { return }
        live[event.table]?.finished.append(SeatTime(seat: seat, ms: (ContinuousClock.now - since).milliseconds))
    }

    func addLiveProgress(to st: inout TableState) {
        guard let race = live[st.info.id] else { return }
        let now = ContinuousClock.now
        st.live = race.seats.keys.sorted().compactMap { seat in
            race.seats[seat].map {
                LiveProgress(seat: seat, number: $0.number, progress: $0.progress, ageMs: (now - $0.at).milliseconds)
            }
        }
        var stats = race.stats
        if let a = race.startedAt { stats.racingMs = ((race.endedAt ?? now) - a).milliseconds }
        st.liveStats = stats
        st.finishTimes = race.finished
    }
}
