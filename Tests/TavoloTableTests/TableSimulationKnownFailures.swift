import Foundation
import TavoloCore

/// Crossings the simulation found broken and the table layer does not handle yet (issue 28). Each entry names the
/// bug and a seed that shows it (`TAVOLO_SIM_CASE=… TAVOLO_SIM_SEED=… swift test --filter testReplayOneSeed`).
/// The suite does not assert what an entry covers; remove the entry when its fix lands, and the suite checks
/// those runs again. `scripts/fuzz tables N` reports them as `known:` lines instead of leaving them out.
struct KnownFailure {
    /// Cases (`game/players`) or games (`game`) it covers.
    var cases: Set<String>
    /// The faults it needs (one of them in the run); empty for any run of those cases.
    var faults: Set<FaultKind> = []
    /// The checks that fail; nil when the whole run is left out (it cannot end: it would only spend the time limit).
    var checks: Set<SimulationCheck>?
    /// Text the failure's message must hold, when the check alone says too little.
    var detail: String? = nil
    /// A bot kind some seat of the run must have.
    var bot: String? = nil
    var bug: String
    var example: String

    static let races: Set<String> = ["fifteen", "fifteen5"]
    static let turns: Set<String> = ["othello", "briscola", "spirits"]

    /// `TAVOLO_SIM_NO_KNOWN=1` checks every run as if nothing were known: to see which entries a fix retired.
    static let all: [KnownFailure] =
        ProcessInfo.processInfo.environment["TAVOLO_SIM_NO_KNOWN"] == "1" ? [] : raceFaults + turnBased

    // Retired by fixes (kept here as a note of what the simulation found): race records refused (paced kinds, turn
    // replay, per-node interleaving), race moves not journaled, race moves lost with a session never recovered,
    // race takeovers never applied, RandomBot playing the turn seat's moves in a race, race moves before the seed
    // dropped, results never re-checked after the last member's takeover, a deal lost with a session (while no
    // takeover), a seatless member's takeover logged at different points, names unknown after a restart, a leaver's
    // copy changed by later offers or dropped with its host. `TAVOLO_SIM_NO_KNOWN=1 scripts/fuzz tables 100` on
    // 2026-11-24: 31 of 1,300 runs failed before the last two of these fixes, every one in the entries below.
    // 2026-11-27 retired more (each seed in TableSimulationRegressionTests): race results and orders before the
    // seed, inheritance logged after its passing on, a seatless member's takeover applied early and a late agreement
    // logged late, a forfeit never resent to a spectator, relayed voters only for a member's own takeover, and a
    // voted-out member's relayed move kept pending. The suite's own seeds now pass with TAVOLO_SIM_NO_KNOWN=1; the
    // examples below are what the entries were written from, and several of them run clean now.

    // 2026-11-28: every example seed of the entries kept until then runs clean with TAVOLO_SIM_NO_KNOWN=1 (votes never
    // converging, a takeover agreed but not journaled, a member voted out while away not learning it, a fork after
    // long cuts, one takeover applied at two points, a deal lost with a broken session, races' votes never meeting);
    // those entries are retired. What is left is what the long runs of that day still found failing.
    // Later that day: a result lost to one member after the last move (othello/2 30131, 30446, 40796, 80117) is relayed
    // by a finished member now (§9.5); a deal lost with a broken session once a member was voted out (spirits/5 50021,
    // spirits/3 102068) is relayed in a catch-up by any member at the same count (§9.11); a race's forfeit passing
    // at its total count while a member lacks some of the leaver's moves (fifteen5/2 62582, fifteen/3 61547,
    // fifteen/2 102045) names its per-seat counts now (§10.6); a forfeit still in flight when seats pass naming the
    // leaver heir (briscola/4 61619) names the heir again when it comes (§9.12). All four retired.
    // 2026-11-28 (later): a takeover agreed after the end where a member's result was lost made the logs' `finalHashes`
    // differ (briscola/3 300027, othello/2 307774); turn-based, they name every member no logged takeover replaced.
    // spirits/5 501042, which the entry below matched by its faults, was a spectator counting another spectator's
    // votes cast once it was out (§9.12); fixed. Votes split across two counts (spirits/4 80554: a member agreed at k
    // and played the heir's move, the others voted at k + 1 after a catch-up) are joined now: a member whose grace
    // ends votes first at the highest earlier count others voted at (§9.12).
    // 2026-11-29: two race seeds of the long run of 2026-11-28 that no entry covered are fixed (each in
    // TableSimulationRegressionTests): fifteen/4 1200138, a member voted out told the members' votes about a member
    // before the takeover of a voter cut off with it (it counted that voter's vote: §9.12, the votes about agreed
    // takeovers go first), and fifteen/4 1200227, a forfeit only the leaver's side of a partition saw (§9.12).
    // Later that day: fifteen/3 1310624, a racer gone for good right after the last move whose order and result reached
    // only the seatless host (finished, it voted no more): a finished member relays a race's order with the result now
    // (§9.5). Two majorities voting out two members (briscola/2 1200907, fifteen/3 1200000, fifteen5/2 12054: every
    // node cut apart, each voting the others out): the three seeds pass at 578e19b already (later fixes changed their
    // runs), so the entry matched nothing; it is retired. Since 2026-11-29 a node votes only while a majority of the
    // members is present at it (§9.12), which closes the "every node cut apart" path; links flapping so that one member
    // votes two others out, each while the other was present, could still make two majorities (not seen in a run).

    /// None left (the notes above).
    static let raceFaults: [KnownFailure] = []

    /// None left: every turn-based entry found so far is fixed (the notes above).
    static let turnBased: [KnownFailure] = []

    func covers(_ c: SimulationCase) -> Bool { cases.contains(c.description) || cases.contains(c.game) }

    /// Whether the entry's case, faults and bot kind are those of the run.
    func covers(_ s: SimulationScenario) -> Bool {
        covers(s.simCase) && (faults.isEmpty || !faults.isDisjoint(with: s.faultKinds))
            && (bot.map { b in s.seats.contains { BotKindName($0.bot).kind == b } } ?? true)
    }

    /// The entry that covers a failed check of a run.
    static func matching(_ s: SimulationScenario, _ failure: SimulationFailure) -> KnownFailure? {
        all.first { k in
            k.covers(s) && (k.checks?.contains(failure.check) ?? true)
                && (k.detail.map { failure.message.contains($0) } ?? true)
        }
    }

    /// Whether the suite leaves this run out altogether.
    static func skipsRun(_ s: SimulationScenario) -> Bool { all.contains { $0.checks == nil && $0.covers(s) } }
}
