import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloTable

/// One game of `tavolo simulate --chaos`: a table of every node, a seeded fault at a seeded move, then the checks
/// that every node that should finish did, with the same state and the same log on disk.
extension ChaosSimulation {
    /// The faults a table of `peers` can meet. Two members have no majority without each other (§9.13): there the
    /// victim comes back within the grace, or stays away past it and the table is ended as abandoned.
    static func faults(peers: Int, onTestHosts: Bool) -> [Fault] {
        let drawn = Fault.drawn(onTestHosts: onTestHosts)
        return peers >= 3 ? drawn : drawn.filter { $0 != .hostKill && $0 != .cutHeal }
    }

    func playGame() throws -> GameReport {
        let started = Date()
        let host = 0
        let id = try hostFullTable(host: host)
        let faults = Self.faults(peers: options.peers, onTestHosts: options.onTestHosts)
        let drawn = faults[next(faults.count)]
        let fault = options.powerCut ? .powerCut : drawn
        let victim = fault == .hostKill ? host : 1 + next(options.peers - 1)
        let at = 3 + next(25)
        var report = GameReport(
            table: id.rawValue, fault: fault, victim: fault == .none || fault == .powerCut ? nil : names[victim],
            faultAtMove: fault == .none ? nil : at, cutSeconds: nil, moves: 0, finished: false, agreed: false,
            resumed: false, takenOver: false, movesLost: 0, problem: nil, wallMs: 0)
        // Nodes expected to finish the game (a member voted out is no longer one).
        var expected = Array(0..<options.peers)
        var reached = false
        // A fast game (Othello's random bots play 60 moves in under 0.1 s) may be over before the fault: then none.
        try waitUntil("move \(at) of \(id)", timeout: 60) {
            let st = try state(host, id)
            reached = (st.moveNumber ?? 0) >= at && !st.info.phase.isOver
            return reached || st.info.phase.isOver
        }
        if reached {
            reached = try inject(fault, victim: victim, id, &report, &expected)
        }
        if !reached {
            (report.fault, report.victim, report.faultAtMove) = (.none, nil, nil)
        }
        var states = awaitEnd(id, expected, &report)
        if reached && fault == .stopPastGrace && report.problem == nil {
            followToTheEnd(victim, id, &report, &expected, &states)
        }
        report.wallMs = Date().timeIntervalSince(started) * 1000
        assess(states, expected, id, &report)
        return report
    }

    /// Hosts a table of the game on `host`, seats a bot of every node and starts it.
    func hostFullTable(host: Int) throws -> TableID {
        let table = try client(host).call(
            .host(game: options.game, players: options.peers, grace: options.grace, sealed: options.sealed))
        let id = table.id
        try waitUntil("every node sees \(id)", timeout: 20) {
            try (0..<options.peers).allSatisfy { i in
                try client(i).call(.tables).contains { $0.id == id }
            }
        }
        for i in 0..<options.peers {
            _ = try client(i).call(.join(table: id, game: nil, seat: i, bot: options.bot))
        }
        try waitUntil("the seats of \(id) taken", timeout: 20) {
            try client(host).call(.tables).first { $0.id == id }?.freeSeats.isEmpty == true
        }
        _ = try client(host).call(.start(table: id))
        return id
    }

    /// Injects the fault; false when the game was over before it came (in the moment between seeing the move and the
    /// signal), and so none was: a node restarted then lists the table no more (a restart picks up unfinished games
    /// only), and a two-member table over cannot be abandoned.
    func inject(_ fault: Fault, victim: Int, _ id: TableID, _ report: inout GameReport, _ expected: inout [Int]) throws
        -> Bool
    {
        switch fault {
        case .none: break
        case .killRestart, .hostKill:
            let applied = (try? state(victim, id))?.moveNumber ?? 0
            signal(victim, SIGKILL)
            // Its log on disk, read once just after the kill: the moves it had applied that the log lacks are lost.
            let log = gameLog(victim, id)
            let endedFirst = log?.table.phase.isOver == true
            report.movesLost += max(0, applied - (log?.moves.count ?? 0))
            if fault == .killRestart {
                Thread.sleep(forTimeInterval: 1)
                try start(victim)
            }
            if fault == .hostKill || endedFirst { expected.removeAll { $0 == victim } }
            if endedFirst && fault == .killRestart { return false }
        case .powerCut:
            // Every node at once: nobody keeps the moves to catch the others up from, each goes on from its journal.
            let applied = (0..<options.peers).map { (try? state($0, id))?.moveNumber ?? 0 }
            for i in 0..<options.peers { signal(i, SIGKILL) }
            let logs = (0..<options.peers).map { gameLog($0, id) }
            for i in 0..<options.peers { report.movesLost += max(0, applied[i] - (logs[i]?.moves.count ?? 0)) }
            cutLogs = logs.enumerated().reduce(into: [:]) { $0[$1.offset] = $1.element?.moves }
            Thread.sleep(forTimeInterval: 1)
            for i in 0..<options.peers { try start(i) }
            // Over at every node before the cut: a restart lists the table no more (unfinished games only).
            if logs.allSatisfy({ $0?.table.phase.isOver == true }) { return false }
        case .stopWithinGrace:
            signal(victim, SIGSTOP)
            Thread.sleep(forTimeInterval: Double(options.grace) / 2)
            signal(victim, SIGCONT)
        case .stopPastGrace:
            signal(victim, SIGSTOP)
            // Over at both (the host is node 0): nothing was left to wait for.
            if gameLog(victim, id)?.table.phase.isOver == true, (try? state(0, id))?.info.phase.isOver == true {
                signal(victim, SIGCONT)
                return false
            }
            expected.removeAll { $0 == victim }
            if options.peers == 2 { try abandon(id, survivor: 1 - victim, &report) }
        case .cutHeal:
            // Within the grace, the victim resumes; past it, it is voted out and, back, follows the end of the
            // game as a spectator (§9.12): it finishes with the same log as the others either way.
            let seconds = next(2) == 0 ? Double(options.grace) / 2 : Double(options.grace + 2 + next(4))
            report.cutSeconds = seconds
            try setCable(victim, plugged: false)
            Thread.sleep(forTimeInterval: seconds)
            try setCable(victim, plugged: true)
        }
        return true
    }

    /// Two members, one away past the grace: the one still there ends the table as abandoned, as its screen tells
    /// its person to (`tavolo leave`, §9.13).
    func abandon(_ id: TableID, survivor: Int, _ report: inout GameReport) throws {
        report.abandoned = true
        // The loss is noticed after the heartbeat timeout (1.5 s) and the grace runs from there; a leave before the
        // grace is over would be a forfeit, so the driver waits well past it, once.
        Thread.sleep(forTimeInterval: Double(options.grace) + 5)
        _ = try client(survivor).call(.leave(table: id))
    }

    /// Waits until every expected node's table is over; the states of those nodes.
    func awaitEnd(_ id: TableID, _ expected: [Int], _ report: inout GameReport) -> [TableState] {
        var states: [TableState] = []
        do {
            try waitUntil("the end of \(id)", timeout: options.gameTimeout) {
                states = try expected.map { try state($0, id) }
                return states.allSatisfy { $0.info.phase.isOver }
            }
        } catch {
            report.problem = "\(error)"
        }
        return states
    }

    /// The member stopped past the grace is continued once the others are done: it learns it was voted out and
    /// follows the end of the game as a spectator (§9.12), or that its two-player table was abandoned (§9.5); its log
    /// must then be the others'.
    func followToTheEnd(
        _ victim: Int, _ id: TableID, _ report: inout GameReport, _ expected: inout [Int], _ states: inout [TableState]
    ) {
        signal(victim, SIGCONT)
        do {
            try waitUntil("\(names[victim]) to follow \(id) to its end", timeout: options.gameTimeout) {
                try state(victim, id).info.phase.isOver
            }
            expected.append(victim)
            states.append(try state(victim, id))
        } catch {
            report.problem = "\(error)"
        }
    }

    /// Finished (or abandoned as expected), agreed, resumed or taken over, and the moves lost: every expected node's
    /// log on disk holds every move, the same as every other node's.
    func assess(_ states: [TableState], _ expected: [Int], _ id: TableID, _ report: inout GameReport) {
        let over: TablePhase = report.abandoned == true ? .stopped : .finished
        report.finished =
            report.abandoned != true && !states.isEmpty && states.allSatisfy { $0.info.phase == .finished }
        let ended = !states.isEmpty && states.allSatisfy { $0.info.phase == over }
        let sameStop = Set(states.map { $0.stopped?.prefix(while: { $0 != ":" }) ?? "" }).count == 1
        // An abandoned table may stop a move apart at its two members (a move in flight when the other was lost):
        // they agree when they stopped alike and one's moves begin the other's (checked with the logs below).
        let sameState = report.abandoned == true || Set(states.compactMap(\.stateHash)).count == 1
        // A sealed table's audit names nobody in an honest run, and every node says so alike.
        let decks = Set(states.filter { $0.info.phase == .finished }.compactMap(\.deck))
        report.deck = decks.count > 1 ? decks.sorted().joined(separator: " / ") : decks.first
        let verified = decks.allSatisfy { $0 == "deck verified" }
        report.agreed = ended && sameStop && sameState && verified
        report.moves = states.first?.moveNumber ?? 0
        report.takenOver = states.contains { !$0.takeovers.isEmpty }
        report.resumed =
            [.killRestart, .stopWithinGrace, .cutHeal, .powerCut].contains(report.fault) && report.finished
            && !report.takenOver
        if report.problem == nil, !ended {
            report.problem = states.compactMap(\.stopped).first ?? "not finished"
        }
        // After a power cut, each node's log must begin with what its log held when the power went: a node that
        // began the game again would play another one, and every node could still agree on it.
        for (node, before) in cutLogs where expected.contains(node) {
            let now = Self.bySeat(gameLog(node, id)?.moves ?? [])
            for (seat, moves) in Self.bySeat(before) {
                let kept = now[seat] ?? []
                report.movesLost +=
                    zip(moves, kept).count { $0.after != $1.after } + max(0, moves.count - kept.count)
            }
        }
        cutLogs = [:]
        // Compared seat by seat: a race's moves reach each node in its own interleaving (§10.1); each seat's own
        // sequence is the same everywhere, or one node's is the start of another's.
        let logs = expected.compactMap { gameLog($0, id)?.moves }
        guard let reference = logs.first.map(Self.bySeat) else { return }
        for l in logs {
            let mismatched = Self.bySeat(l).reduce(0) { sum, entry in
                sum
                    + zip(entry.value, reference[entry.key] ?? []).count {
                        $0.after != $1.after || $0.number != $1.number
                    }
            }
            // An abandoned table's members hold what each applied: only a move that differs is lost.
            report.movesLost += mismatched + (report.abandoned == true ? 0 : max(0, report.moves - l.count))
        }
    }

    /// Each seat's moves in their order.
    static func bySeat(_ moves: [GameLog.LoggedMove]) -> [Int: [GameLog.LoggedMove]] {
        Dictionary(grouping: moves, by: \.seat).mapValues { $0.sorted { $0.number < $1.number } }
    }

    func gameLog(_ i: Int, _ id: TableID) -> GameLog? {
        // The journal while the game goes on, the complete log once it is over (PROTOCOL.md §9.9).
        SavedGames.load(stateDirectory: "\(workDir)/state/\(names[i])", table: id)
    }
}

extension ChaosSimulation.GameReport {
    /// How the game ended, in the words of the run's lines.
    public var outcomeText: String {
        if abandoned == true { return finished ? "finished" : "abandoned as it must be" }
        return finished ? "finished" : "NOT FINISHED"
    }
}
