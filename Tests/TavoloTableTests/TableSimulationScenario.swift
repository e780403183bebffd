// swift-format-ignore-file: NeverForceUnwrap

// (scenarios name registered games only)
import TavoloCore
import TavoloGames
import TavoloTable

/// One game of the catalog at one player count: what the simulation crosses with every fault.
struct SimulationCase: Hashable, CustomStringConvertible {
    let game: String
    let players: Int
    var description: String { "\(game)/\(players)" }

    /// Every game of the standard catalog, at every player count the issue names.
    static let all: [SimulationCase] =
        (1...4).map { SimulationCase(game: "fifteen", players: $0) } + [SimulationCase(game: "fifteen5", players: 2)]
        + (2...5).map { SimulationCase(game: "briscola", players: $0) } + [SimulationCase(game: "othello", players: 2)]
        + (2...6).map { SimulationCase(game: "spirits", players: $0) }

    var entry: GameEntry { GameCatalog.standard[game]! }
    var isRace: Bool { entry.isSimultaneous }
}

/// The faults a run injects, one primary per seed (the seeds cycle through them) and sometimes a second.
enum FaultKind: String, CaseIterable, Hashable {
    /// Only the network's own noise: latencies (reordering across links) and delay spikes.
    case none
    /// `kill -9` a member and restart it from its last persisted log, within the grace or past it.
    case restart
    /// A member cut from every other and back before the grace ends.
    case pauseWithin = "pause-within"
    /// A member cut from every other past the grace: votes, a bot takes its seats, it follows as a spectator.
    case pausePast = "pause-past"
    /// The host lost: cut past the grace, killed and restarted past it, or gone for good.
    case hostLost = "host-lost"
    /// A member leaves during play (`request(.leave)`).
    case forfeit
    /// The nodes split in two (a 2|4 split on six), healed within or past the grace.
    case partition
    /// One link breaks and a new session forms soon after: syncs, votes and catch-ups are sent again.
    case flap
    /// A member killed for good: a bot takes its seats; a table of two is abandoned by the other's user.
    case gone
    /// Every node killed at once and restarted within the grace (a power cut at the party): nobody holds a move the
    /// others lack, so each must play on from its own journal. Not in `cycled`: its own test runs it.
    case powerCut = "power-cut"

    /// The faults seeds cycle through, and a seed's second fault is drawn from: the kinds as they were before
    /// `powerCut`, so every seed keeps the scenario it had.
    static let cycled: [FaultKind] = [
        .none, .restart, .pauseWithin, .pausePast, .hostLost, .forfeit, .partition, .flap, .gone,
    ]
}

/// A fault planned by the scenario: injected when some member's log first holds `trigger` moves.
struct PlannedFault: CustomStringConvertible {
    var kind: FaultKind
    var trigger: Int
    /// The member it strikes (the minority side of a partition is `side`; a flap's other end is `other`).
    var node: Int
    var other = 0
    var side: Set<Int> = []
    /// How long until the heal or restart, in virtual ms; nil for a node gone for good.
    var duration: Int64?

    var description: String {
        let target =
            switch kind {
            case .partition: "\(side.sorted().map { "n\($0)" }.joined(separator: ","))|rest"
            case .flap: "n\(node)-n\(other)"
            default: "n\(node)"
            }
        return "\(kind.rawValue) \(target) at move \(trigger)\(duration.map { " for \($0) ms" } ?? " for good")"
    }
}

/// Everything a seed decides before the run: who sits where with which bot, the grace, the network's noise and
/// the faults. A pure function of (case, seed, primary fault).
struct SimulationScenario: CustomStringConvertible {
    let simCase: SimulationCase
    let seed: UInt64
    var nodeCount = 2
    /// Per seat: the node that owns it and its bot kind.
    var seats: [(node: Int, bot: String)] = []
    var grace = 120
    var takeoverBot: String?
    var spikeChance = 0
    var faults: [PlannedFault] = []
    /// Dealt from a sealed deck (PROTOCOL.md §14; `SealedTableSimulationTests`).
    var sealed = false

    /// The host (node 0) and every seat owner.
    var members: [Int] { Array(Set([0] + seats.map(\.node))).sorted() }
    var faultKinds: Set<FaultKind> { Set(faults.map(\.kind)) }

    init(_ simCase: SimulationCase, seed: UInt64, primary: FaultKind) {
        self.simCase = simCase
        self.seed = seed
        var rng = TavoloRNG(seed: seed, stream: Self.stream(simCase.description))
        let players = simCase.players
        nodeCount = min(6, max(2, players + rng.below(2)))
        seats = Self.owners(players: players, nodes: nodeCount, &rng).map { ($0, Self.bot(simCase, &rng)) }
        grace = [5, 20, 120][rng.below(3)]
        let kinds = Self.botKinds(simCase)
        takeoverBot = rng.below(3) == 0 ? nil : kinds[rng.below(kinds.count)]
        spikeChance = [0, 2, 10][rng.below(3)]
        var chosen = [primary]
        if rng.below(4) == 0 { chosen.append(FaultKind.cycled[rng.below(FaultKind.cycled.count)]) }
        faults = chosen.filter { $0 != .none }.map { plan($0, &rng) }.sorted { $0.trigger < $1.trigger }
    }

    /// Seat owners: a host with no seat when there is one node more than seats, else every node owns one or more.
    static func owners(players: Int, nodes: Int, _ rng: inout TavoloRNG) -> [Int] {
        var owners: [Int]
        if nodes > players {
            owners = Array(1...players)
        } else {
            owners = Array(0..<nodes) + (nodes..<players).map { _ in rng.below(nodes) }
        }
        rng.shuffle(&owners)
        return owners
    }

    /// Bot kinds a seat may get: every kind of the game but `optimal`, whose search is unbounded, and the card games'
    /// `search`, added after the seeds below were found (the list keeps its length, so every seed draws what it drew
    /// before). Every `expert` plays as the bot it was before it searched (Fifteen's `hard`, the Spirits! heuristic,
    /// the Briscola strong bot), and Othello's `hard` and `expert` as `alphabeta`, in every build: the 4×4 expert's
    /// first solve builds its pattern databases (two minutes in a debug build), the card games' experts search
    /// hundreds of play-outs a move and Othello's up to a second, so a seed plays the same game in a debug and a
    /// release build, and a long run costs the rules, not the searches. The searching bots' own determinism is
    /// tested with the bots.
    static func botKinds(_ c: SimulationCase) -> [String] {
        let kinds = c.entry.bots.map(\.kind).filter { $0 != "optimal" && $0 != "search" }
        let before = ["fifteen": "hard", "spirits": "heuristic", "briscola": "strong"]
        if c.game == "othello" { return kinds.map { $0 == "expert" || $0 == "hard" ? "alphabeta" : $0 } }
        guard let kind = before[c.game] else { return kinds }
        return kinds.map { $0 == "expert" ? kind : $0 }
    }

    /// A random kind; in a race with a random pace (§10.5) or the node's default.
    static func bot(_ c: SimulationCase, _ rng: inout TavoloRNG) -> String {
        let kinds = botKinds(c)
        let kind = kinds[rng.below(kinds.count)]
        guard c.isRace else { return kind }
        return kind + ["", "@2", "@10", "@50"][rng.below(4)]
    }

    /// About how many moves a game of the case lasts (all seats), for where faults strike.
    var expectedMoves: Int {
        switch simCase.game {
        case "othello": 60
        case "briscola": 40
        case "spirits": 12 * simCase.players
        default: 40 * simCase.players
        }
    }

    func plan(_ kind: FaultKind, _ rng: inout TavoloRNG) -> PlannedFault {
        let members = self.members
        let graceMs = Int64(grace) * 1_000
        let within = { (rng: inout TavoloRNG) in Int64(100 + rng.below(Int(graceMs * 7 / 10))) }
        let past = { (rng: inout TavoloRNG) in graceMs + Int64(2_000 + rng.below(120_000)) }
        var f = PlannedFault(kind: kind, trigger: rng.below(expectedMoves), node: members[rng.below(members.count)])
        switch kind {
        case .none, .forfeit: break
        case .restart: f.duration = rng.below(10) < 7 ? within(&rng) : past(&rng)
        case .pauseWithin: f.duration = within(&rng)
        case .pausePast: f.duration = past(&rng)
        case .hostLost:
            f.node = 0
            f.duration = rng.below(3) == 0 ? nil : past(&rng)
            // A host lost for good or past the grace, by a cut or by a crash.
            if f.duration != nil && rng.below(2) == 0 { f.other = 1 }
        case .partition:
            var all = Array(0..<nodeCount)
            rng.shuffle(&all)
            f.side = Set(all.prefix(1 + rng.below(nodeCount / 2)))
            f.duration = rng.below(2) == 0 ? within(&rng) : past(&rng)
        case .flap:
            let others = (0..<nodeCount).filter { $0 != f.node }
            f.other = others[rng.below(others.count)]
            f.duration = Int64(10 + rng.below(2_000))
        case .gone: f.duration = nil
        case .powerCut:
            f.node = 0
            f.duration = within(&rng)
        }
        return f
    }

    static func stream(_ name: String) -> UInt64 {
        name.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    var description: String {
        let seatText = seats.enumerated().map { "s\($0.offset)=n\($0.element.node):\($0.element.bot)" }
        return "\(simCase) seed \(seed): \(nodeCount) nodes, \(seatText.joined(separator: " ")), grace \(grace) s, "
            + "takeover bot \(takeoverBot ?? "default"), spikes \(spikeChance)%, faults: "
            + (faults.isEmpty ? "none" : faults.map(\.description).joined(separator: "; "))
    }
}
