import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloRecords
import TavoloTable
import TavoloTestSupport

/// What a run must hold at its end, whatever struck it: these are the simulation's invariants.
enum SimulationCheck: String, CaseIterable, Hashable {
    /// The run could not seat and start the table, or a message did not survive its wire form.
    case setup
    /// A member that played on is not `finished` once nothing is left to happen (nobody waits for ever), or it
    /// stopped; a forfeiter's copy is not stopped as `table/member-left`.
    case ended
    /// Members' logs differ: moves (per seat in a race), deals, takeovers.
    case logs
    /// Members' outcomes differ: final hashes, winners, scores, ranking.
    case result
    /// Members' records differ, or one fails a peer's checks (§11.4).
    case records
    /// A move a member had logged when a fault struck is missing from the final log (and was not dropped by rule).
    case lost
    /// Two runs of the same seed differ.
    case determinism
}

struct SimulationFailure: CustomStringConvertible {
    var check: SimulationCheck
    var message: String
    var description: String { "[\(check.rawValue)] \(message)" }
}

/// One member's table at the end of a run.
struct MemberEnd {
    var node: Int
    var phase: TablePhase
    var log: GameLog
    var stop: String?
}

extension TableSimulation {
    var isRace: Bool { scenario.simCase.isRace }

    /// The member's table as it ends: the running machine, else what its disk holds (a node restarted after the
    /// table was over there has only its complete log).
    func end(of i: Int, _ id: TableID) -> MemberEnd? {
        if let t = net.table(i, id) {
            return MemberEnd(
                node: i, phase: t.info.phase, log: t.log, stop: t.stopReason.map { "\($0.code.rawValue): \($0.reason)" }
            )
        }
        guard let log = net.nodes[i].persisted[id] else { return nil }
        let phase: TablePhase = log.stopped != nil ? .stopped : log.finalHashes.isEmpty ? .paused : .finished
        return MemberEnd(node: i, phase: phase, log: log, stop: log.stopped)
    }

    func check() -> [SimulationFailure] {
        var failures = net.problems.map { SimulationFailure(check: .setup, message: $0) }
        if let setupProblem { failures.append(SimulationFailure(check: .setup, message: setupProblem)) }
        guard let id else { return failures }
        var finishers: [MemberEnd] = []
        for i in scenario.members where !dead.contains(i) {
            guard let e = end(of: i, id) else {
                failures.append(.init(check: .ended, message: "n\(i) has no table \(id) and no log of it"))
                continue
            }
            if let problem = endProblem(e) { failures.append(.init(check: .ended, message: problem)) }
            if e.phase == .finished { finishers.append(e) }
        }
        guard let reference = finishers.first else { return failures }
        for e in finishers.dropFirst() { failures += compare(reference, e) }
        failures += recordProblems(finishers)
        failures += lostMoves(reference)
        return failures
    }

    func endProblem(_ e: MemberEnd) -> String? {
        let i = e.node
        if forfeited.contains(i) {
            // Cut off past the grace with no majority on its side, a leave ends the table as abandoned there (§9.13).
            let codes = [StopCode.memberLeft, .abandoned].map(\.rawValue)
            guard e.phase == .stopped, codes.contains(where: { e.log.stopped?.hasPrefix($0) == true }) else {
                return "n\(i) left the game but its copy is \(e.phase.rawValue) (\(e.stop ?? "-"))"
            }
            return nil
        }
        if noMajorityCanForm(at: i, log: e.log) || !abandoned.isEmpty {
            // No majority can ever form: the table ends abandoned (§9.13), or finished if it was over already. Once
            // a user ended it so, every member's copy ends so (the stop reaches each), whatever its own count.
            if e.phase == .finished || e.log.stopped?.hasPrefix(StopCode.abandoned.rawValue) == true { return nil }
            // A member voted out only follows the game: its user leaving stops its following, not the table (§9.12).
            let me = net.nodes[i].id
            let votedOut =
                (id.flatMap { net.table(i, $0)?.isSpectator } ?? false)
                || (e.log.takeovers ?? []).contains { $0.member == me && !$0.forfeit }
            if votedOut, e.log.stopped?.hasPrefix(StopCode.memberLeft.rawValue) == true { return nil }
            return
                "n\(i): a table no majority can go on with ends \(e.phase.rawValue) (\(e.stop ?? "-")), not abandoned"
        }
        guard e.phase == .finished else {
            let moves = e.log.moves.count
            return "n\(i) ends \(e.phase.rawValue) at \(moves) moves at \(net.now) ms (\(e.stop ?? "waiting"))"
        }
        return nil
    }

    /// Per seat, its moves in order: a race's logs interleave seats in each node's own order (§10.1).
    static func bySeat(_ moves: [GameLog.LoggedMove]) -> [Int: [GameLog.LoggedMove]] {
        Dictionary(grouping: moves, by: \.seat)
    }

    static func same(_ a: GameLog.LoggedMove, _ b: GameLog.LoggedMove) -> Bool {
        a.number == b.number && a.seat == b.seat && a.move == b.move && a.after == b.after
    }

    func compare(_ r: MemberEnd, _ e: MemberEnd) -> [SimulationFailure] {
        var out: [SimulationFailure] = []
        let who = "n\(e.node) vs n\(r.node)"
        if let diff = movesDiffer(r.log.moves, e.log.moves) {
            out.append(.init(check: .logs, message: "\(who): \(diff)"))
        }
        if r.log.deals != e.log.deals { out.append(.init(check: .logs, message: "\(who): deals differ")) }
        if r.log.takeovers != e.log.takeovers {
            out.append(.init(check: .logs, message: "\(who): \(Self.takeoverDifference(e.log, r.log))"))
        }
        let fields: [(String, String, String)] = [
            ("final hash", "\(e.log.finalHash ?? "-")", "\(r.log.finalHash ?? "-")"),
            (
                "final hashes", "\(e.log.finalHashes.sorted { $0.key < $1.key })",
                "\(r.log.finalHashes.sorted { $0.key < $1.key })"
            ),
            ("winners", "\(e.log.winners ?? [])", "\(r.log.winners ?? [])"),
            ("scores", "\(e.log.scores ?? [])", "\(r.log.scores ?? [])"),
            ("ranking", "\(e.log.ranking ?? [])", "\(r.log.ranking ?? [])"),
        ]
        for (name, a, b) in fields where a != b {
            out.append(.init(check: .result, message: "\(who): \(name) \(a) vs \(b)"))
        }
        return out
    }

    /// How two logs' takeovers differ, in words that tell the known failures apart.
    static func takeoverDifference(_ a: GameLog, _ b: GameLog) -> String {
        let (ta, tb) = (a.takeovers ?? [], b.takeovers ?? [])
        let kind =
            if ta.filter({ !$0.seats.isEmpty }) == tb.filter({ !$0.seats.isEmpty }) {
                "takeovers of a member with no seat differ"
            } else if Set(ta.map(\.member)) != Set(tb.map(\.member)) {
                "takeovers differ in who was taken over"
            } else {
                "takeovers differ"
            }
        return "\(kind): \(text(ta)) vs \(text(tb))"
    }

    static func text(_ t: [GameLog.LoggedTakeover]?) -> String {
        (t ?? []).map {
            "\($0.memberName)\($0.seats)→\($0.heir.short)@\($0.number)/\($0.appliedAt)\($0.forfeit ? "f" : "")"
        }
        .description
    }

    /// The first difference between two logs' moves (per seat in a race), or nil.
    func movesDiffer(_ a: [GameLog.LoggedMove], _ b: [GameLog.LoggedMove]) -> String? {
        let (sa, sb) = isRace ? (Self.bySeat(a), Self.bySeat(b)) : ([0: a], [0: b])
        for seat in Set(sa.keys).union(sb.keys).sorted() {
            let x = sa[seat] ?? [], y = sb[seat] ?? []
            if let k = x.indices.first(where: { $0 < y.count && !Self.same(x[$0], y[$0]) }) {
                return "\(isRace ? "seat \(seat)'s " : "")move \(x[k].number) differs: \(y[k].text) vs \(x[k].text)"
            }
            if x.count != y.count { return "\(isRace ? "seat \(seat): " : "")\(y.count) moves vs \(x.count)" }
        }
        return nil
    }

    func recordProblems(_ finishers: [MemberEnd]) -> [SimulationFailure] {
        var out: [SimulationFailure] = []
        var ids: [(Int, String)] = []
        for e in finishers {
            guard let record = RecordedGame.from(e.log, startedAt: nil, endedAt: 0) else {
                out.append(.init(check: .records, message: "n\(e.node) writes no record of its finished game"))
                continue
            }
            ids.append((e.node, record.id))
            if case .failure(let refusal) = RecordVerifier(catalog: .standard).verify(id: record.id, body: record.body)
            {
                out.append(.init(check: .records, message: "n\(e.node)'s record is refused by a peer: \(refusal)"))
            }
        }
        if Set(ids.map(\.1)).count > 1 {
            let text = ids.map { "n\($0.0) \($0.1.prefix(12))" }.joined(separator: ", ")
            out.append(.init(check: .records, message: "record ids differ: \(text)"))
        }
        return out
    }

    /// Every move a member had on disk when a fault struck is in the final log, unless the protocol drops it: moves
    /// of a member voted out played apart from the table from the agreed number on (§9.12) — in a turn-based game
    /// the log from there on is rebuilt; in a race (whose per-seat numbering the takeover does not name) every move
    /// of such a seat is let off.
    func lostMoves(_ final: MemberEnd) -> [SimulationFailure] {
        let votedOut = (final.log.takeovers ?? []).filter { !$0.forfeit }
        let reference = isRace ? Self.bySeat(final.log.moves) : [0: final.log.moves]
        var out: [SimulationFailure] = []
        for snap in snapshots {
            let dropFrom =
                votedOut.compactMap { t in
                    snap.moves.first { t.seats.contains($0.seat) && $0.number >= t.number }?.number
                }.min() ?? Int.max
            for m in snap.moves {
                if isRace ? votedOut.contains(where: { $0.seats.contains(m.seat) }) : m.number >= dropFrom { continue }
                let line = reference[isRace ? m.seat : 0] ?? []
                let found = line.first { $0.number == m.number }
                guard found.map({ Self.same($0, m) }) != true else { continue }
                let seat = isRace ? "seat \(m.seat)'s " : ""
                out.append(
                    .init(
                        check: .lost,
                        message: "\(seat)move \(m.number) (\(m.text)) on n\(snap.node)'s disk at \(snap.at) ms "
                            + "(\(snap.why)) is \(found.map { "replaced by \($0.text)" } ?? "missing") in n\(final.node)'s final log"
                    ))
                break
            }
        }
        return out
    }
}
