import TavoloCore
import TavoloTable
import TavoloTestSupport
import XCTest

/// The model-based simulation of `TableSimulationTests` on sealed tables (PROTOCOL.md §14): Spirits! and Briscola at
/// every player count, random bots, and the faults a sealed table survives — pauses within and past the grace
/// (votes, an heir acting for the leaver), forfeits, partitions, flapping links, a member gone for good, the host lost, the network's
/// own delays, and restarts from the journal (§14.12). The invariants are the same: every member's
/// log equal, no move lost, nobody waiting for ever; and a game that ends is audited, "deck verified".
/// `TAVOLO_SEALED_SIM_SEEDS=N` runs N seeds per case (2 by default), from `TAVOLO_SEALED_SIM_FIRST`.
final class SealedTableSimulationTests: XCTestCase {
    static let cases =
        (2...5).map { SimulationCase(game: "briscola", players: $0) }
        + (2...6).map { SimulationCase(game: "spirits", players: $0) }
    static let faults: [FaultKind] = [
        .none, .restart, .hostLost, .pauseWithin, .pausePast, .forfeit, .partition, .flap, .gone,
    ]

    /// The seed's scenario, sealed. A seed that draws a host without a seat keeps it (the host follows as an observer,
    /// §14.1) unless `seatedHost`: the layout every node owns a seat in, which the regression seeds were found with
    /// (before a seatless host could host a sealed table).
    static func scenario(_ c: SimulationCase, seed: UInt64, seatedHost: Bool = false) -> SimulationScenario {
        var s = SimulationScenario(c, seed: seed, primary: faults[Int(seed % UInt64(faults.count))])
        s.sealed = true
        if seatedHost, s.nodeCount > c.players {
            var rng = TavoloRNG(seed: seed, stream: 0x5ea1)
            s.nodeCount = c.players
            let bots = s.seats.map(\.bot)
            s.seats = zip(SimulationScenario.owners(players: c.players, nodes: c.players, &rng), bots).map { ($0, $1) }
            s.faults = s.faults.map { f in
                var f = f
                if f.node >= s.nodeCount { f.node = 0 }
                if f.other >= s.nodeCount { f.other = 0 }
                f.side = f.side.filter { $0 < s.nodeCount }
                if f.side.isEmpty { f.side = [0] }
                return f
            }
        }
        s.faults = s.faults.filter { faults.contains($0.kind) && ($0.kind != .flap || $0.node != $0.other) }
        return s
    }

    func testSealedGamesCrossedWithTheFaultsTheySurvive() {
        let env = ProcessInfo.processInfo.environment
        let seeds = env["TAVOLO_SEALED_SIM_SEEDS"].flatMap { UInt64($0) } ?? 2
        let first = env["TAVOLO_SEALED_SIM_FIRST"].flatMap { UInt64($0) } ?? 0
        let only = env["TAVOLO_SIM_CASE"]
        var runs = 0
        var seatless = 0
        var limited: [String] = []
        for c in Self.cases where only == nil || only == c.description {
            for seed in first..<(first + seeds) {
                let scenario = Self.scenario(c, seed: seed)
                var sim = TableSimulation(scenario, keepTrace: false)
                sim.run()
                runs += 1
                if scenario.nodeCount > c.players { seatless += 1 }
                let failures = sim.check().map(\.description) + Self.sealedProblems(sim)
                // What §14.14 lists as not done yet stops the table with `sealed/unsupported`: counted, not failed.
                if let limit = failures.first(where: { $0.contains(StopCode.sealedUnsupported.rawValue) }) {
                    limited.append("\(c) seed \(seed): \(limit)")
                } else if !failures.isEmpty {
                    XCTFail(TableSimulationTests.report(sim, sim.check()) + "\n  " + failures.joined(separator: "\n  "))
                }
            }
        }
        print(
            "sealed simulation: \(runs) runs (\(seatless) with a seatless host), \(limited.count) stopped by a limit of §14.14"
        )
        for line in limited { print("  limit: \(line)") }
    }

    /// Seeds that found a bug or a limit, replayed on every run (each must now end clean, no limit either).
    /// The first three were found with every node at a seat (`seatedHost`), before a seatless host could host.
    static let regressions: [(case: String, seed: UInt64, seatedHost: Bool, found: String)] = [
        (
            "spirits/4", 1, true,
            "a member gone for good, then another restarted: its sealed game did not resume (§14.12)"
        ),
        (
            "briscola/3", 6, true,
            "a member voted out that played a move apart stopped its copy; it begins again now (§9.12)"
        ),
        ("spirits/4", 4, true, "the same, early in the game, its audit lost with the old game"),
        (
            "briscola/4", 105, false,
            "a seatless host cut off with a player, both voted out: it could not begin its observer's game again once "
                + "its host jobs had passed on (it was no longer a member)"
        ),
        (
            "briscola/3", 305, false,
            "a player gone for good at the last move: the heir's audit with its secret came before the seatless host "
                + "agreed the takeover, and the host's audit named the player (now any secret that derives the key counts)"
        ),
        (
            "spirits/5", 302, false,
            "the same at a member voted out earlier, which learned of a forfeit after the heir's audit (§14.10)"
        ),
        (
            "briscola/4", 307, false,
            "an heir took a seat whose card was already public (the leaver's move the table refused had opened it) as "
                + "ready before it held the leaver's secret, played it, and could not open it (§14.11)"
        ),
        (
            "spirits/2", 212, false,
            "a player forfeits a two-player deck with a seatless host: the host never took the heir's shares as the "
                + "leaver's, and waited for ever"
        ),
        (
            "spirits/6", 1106, false,
            "an heir forfeits: its own copy, which holds no second escrow of its own making, stopped itself on "
                + "`sealed/unsupported` (§14.11)"
        ),
    ]

    func testSeedsThatFoundBugsRunClean() throws {
        for entry in Self.regressions {
            let c = try XCTUnwrap(Self.cases.first { $0.description == entry.case }, "no case \(entry.case)")
            var sim = TableSimulation(
                Self.scenario(c, seed: entry.seed, seatedHost: entry.seatedHost), keepTrace: false)
            sim.run()
            let failures = sim.check().map(\.description) + Self.sealedProblems(sim)
            XCTAssertEqual(failures, [], "\(entry.case) seed \(entry.seed) (\(entry.found))")
        }
    }

    /// A sealed game that finished was audited at every member that finished it, and named nobody: no fault was a
    /// lie, so a member named is a member whose secret the audit missed.
    static func sealedProblems(_ sim: TableSimulation) -> [String] {
        guard let id = sim.id else { return [] }
        return sim.scenario.members.compactMap { i in
            guard let log = sim.net.table(i, id)?.log, log.finalHash != nil, log.stopped == nil else { return nil }
            guard let named = log.sealedCheaters else { return "n\(i) finished without an audit" }
            return named.isEmpty ? nil : "n\(i)'s audit names \(named.map(\.short).joined(separator: ", "))"
        }
    }
}
