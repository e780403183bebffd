import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTable
import TavoloTestSupport

/// One seeded run of a whole table over `InMemoryTableNetwork`: seat the scenario's bots, start, play to the end
/// while its faults strike, and keep what the checks need (`TableSimulation+Checks.swift`).
struct TableSimulation {
    enum Action {
        case heal(Set<Int>)
        case healLink(Int, Int)
        case restart(Int)
    }

    /// A member's log on disk when a fault struck: every move in it must be in the final log (no move lost).
    struct Snapshot {
        var node: Int
        var at: Int64
        var why: String
        var moves: [GameLog.LoggedMove]
    }

    let scenario: SimulationScenario
    var net: InMemoryTableNetwork
    var id: TableID?
    var pending: [PlannedFault]
    var actions: [(at: Int64, action: Action)] = []
    var snapshots: [Snapshot] = []
    var forfeited: Set<Int> = []
    var dead: Set<Int> = []
    /// Members whose user ended the table as abandoned (a table of two whose other member is gone for good).
    var abandoned: Set<Int> = []
    var injected: [String] = []
    var setupProblem: String?
    var rng: TavoloRNG

    /// Virtual time after which a table still not over counts as waiting for ever (ms).
    static let timeLimit: Int64 = 6 * 3_600 * 1_000
    static let stepLimit = 2_000_000

    init(_ scenario: SimulationScenario, keepTrace: Bool = false) {
        self.scenario = scenario
        net = InMemoryTableNetwork(
            nodes: scenario.nodeCount, seed: scenario.seed, catalog: .standard, keepTrace: keepTrace)
        net.spikeChance = scenario.spikeChance
        pending = scenario.faults
        rng = TavoloRNG(seed: scenario.seed, stream: 0x66_6175_6c74)
    }

    /// Seats every bot, starts, and runs until nothing is left to happen.
    mutating func run() {
        guard let id = setUp() else { return }
        self.id = id
        runToQuiescence()
        // A table whose members gone for good, or voted out, leave no majority can never go on: its users end it
        // (§9.13), as a person told "`tavolo leave` ends the table as abandoned" would.
        for i in Set(scenario.members).subtracting(dead).sorted() where noMajorityCanForm(at: i) {
            guard !forfeited.contains(i), net.table(i, id)?.info.phase == .paused else { continue }
            net.note("n\(i)'s user leaves a table no majority can go on with")
            if case .success? = net.request(i, { $0.request(id, .leave) }) { abandoned.insert(i) }
            runToQuiescence()
        }
    }

    /// Whether the members that can still vote, as node `i` sees them (alive here, and not voted out or forfeited at
    /// `i`), are no strict majority of the table's members: no takeover can ever be agreed there.
    func noMajorityCanForm(at i: Int, log: GameLog? = nil) -> Bool {
        guard !dead.isEmpty, let id else { return false }
        // A sealed table of two players passes no player's seats by a vote (its secret left with it, §14.11): with one
        // of them gone for good, it can only end abandoned, whoever else is there (a seatless host).
        let players = Set(scenario.seats.map(\.node))
        if scenario.sealed, players.count == 2, !players.isDisjoint(with: dead) { return true }
        // The table while it lasts; once over (and expired), its log's takeovers.
        let replaced =
            net.table(i, id)?.replaced ?? Set((log?.takeovers ?? []).map(\.member))
        let voters = Set(scenario.members).subtracting(dead).filter { !replaced.contains(net.nodes[$0].id) }
        return voters.count * 2 <= scenario.members.count
    }

    mutating func setUp() -> TableID? {
        let s = scenario
        let hosted = net.request(0) {
            $0.host(
                game: s.simCase.game, players: s.simCase.players, grace: s.grace, takeoverBot: s.takeoverBot,
                sealed: s.sealed)
        }
        guard case .success(let info)? = hosted else {
            setupProblem = "host: \(String(describing: hosted))"
            return nil
        }
        net.deliverAll()
        for (seat, owner) in s.seats.enumerated() {
            let joined = net.request(owner.node) { $0.request(info.id, .join(seat: seat, bot: owner.bot)) }
            guard case .success? = joined else {
                setupProblem = "n\(owner.node) join seat \(seat): \(String(describing: joined))"
                return nil
            }
            net.deliverAll()
        }
        let started = net.request(0) { $0.request(info.id, .start) }
        guard case .success? = started else {
            setupProblem = "start: \(String(describing: started))"
            return nil
        }
        return info.id
    }

    mutating func runToQuiescence() {
        while net.steps < Self.stepLimit, net.now <= Self.timeLimit {
            strikeDueFaults()
            let nextEvent = net.nextEventTime
            if let first = actions.first, nextEvent.map({ first.at <= $0 }) ?? true {
                actions.removeFirst()
                net.advance(to: first.at)
                perform(first.action)
                continue
            }
            guard net.step() else { return }
        }
    }

    /// The most moves any running member's log holds.
    var movesPlayed: Int {
        guard let id else { return 0 }
        return scenario.members.map { net.table($0, id)?.log.moves.count ?? 0 }.max() ?? 0
    }

    mutating func strikeDueFaults() {
        guard let fault = pending.first, let id else { return }
        // Faults strike in play, once every running member knows the joint seed: a loss while seeding stops or
        // reopens the table by design (§9.13), which is not what this simulation plays through.
        let phases = scenario.members.filter { net.nodes[$0].isUp }.map { net.table($0, id)?.info.phase }
        guard phases.contains(.playing), phases.allSatisfy({ $0 == .playing || $0 == .paused }),
            movesPlayed >= fault.trigger
        else { return }
        pending.removeFirst()
        strike(fault, id)
    }

    mutating func strike(_ f: PlannedFault, _ id: TableID) {
        guard net.nodes[f.node].isUp, net.table(f.node, id)?.info.phase.isActive == true else {
            injected.append("skipped (n\(f.node) not playing): \(f)")
            return
        }
        injected.append("\(net.now) ms, move \(movesPlayed): \(f)")
        net.note("fault: \(f)")
        snapshot(f.description)
        switch f.kind {
        case .none: break
        case .restart: crash(f.node, for: f.duration)
        case .pauseWithin, .pausePast: cutOff([f.node], for: f.duration)
        case .hostLost where f.duration == nil || f.other == 1: crash(f.node, for: f.duration)
        case .hostLost: cutOff([f.node], for: f.duration)
        case .gone: crash(f.node, for: nil)
        case .powerCut:
            // Every node, each back a few ms after the one before (machines do not boot in step).
            for (k, i) in (0..<net.count).filter({ net.nodes[$0].isUp }).enumerated() {
                crash(i, for: (f.duration ?? 0) + Int64(k) * 30)
            }
        case .partition: cutOff(f.side, for: f.duration)
        case .flap:
            net.cut(f.node, f.other)
            schedule(.healLink(f.node, f.other), after: f.duration ?? 0)
        case .forfeit:
            let result = net.request(f.node) { $0.request(id, .leave) }
            // Left once the game was over there: nothing is forfeited, its copy ends as played (§9.12).
            if case .success? = result, net.table(f.node, id)?.info.phase == .stopped { forfeited.insert(f.node) }
            // With the other members gone past the grace and no majority possible, leaving ends the table as
            // abandoned (§9.13), as the abandoning user's leave above does.
            if net.table(f.node, id)?.log.stopped?.hasPrefix(StopCode.abandoned.rawValue) == true {
                abandoned.insert(f.node)
            }
        }
    }

    mutating func crash(_ node: Int, for duration: Int64?) {
        net.kill(node)
        if let duration { schedule(.restart(node), after: duration) } else { dead.insert(node) }
    }

    mutating func cutOff(_ side: Set<Int>, for duration: Int64?) {
        net.partition(side)
        schedule(.heal(side), after: duration ?? 0)
    }

    mutating func schedule(_ action: Action, after ms: Int64) {
        actions.append((net.now + ms, action))
        actions.sort { $0.at < $1.at }
    }

    mutating func perform(_ action: Action) {
        switch action {
        case .heal(let side):
            for a in side.sorted() { for b in 0..<net.count where !side.contains(b) { net.heal(a, b) } }
        case .healLink(let a, let b): net.heal(a, b)
        case .restart(let i):
            let restored = net.restart(i)
            if let id, !restored.contains(id), net.nodes[i].persisted[id].map({ !$0.isComplete }) ?? false {
                injected.append("n\(i) did not restore \(id)")
            }
        }
    }

    /// Every running member's persisted log as it is now.
    mutating func snapshot(_ why: String) {
        guard let id else { return }
        for i in scenario.members where net.nodes[i].isUp {
            guard let log = net.nodes[i].persisted[id] else { continue }
            snapshots.append(Snapshot(node: i, at: net.now, why: why, moves: log.moves))
        }
    }
}
