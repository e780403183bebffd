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
    /// Faults that vote a member out, or let one come back after it was.
    static let takeovers: Set<FaultKind> = [.restart, .pausePast, .hostLost, .partition, .forfeit, .gone]

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

    /// Races under takeovers that cross other faults.
    static let raceFaults = [
        KnownFailure(
            cases: races, faults: [.partition, .pausePast, .hostLost, .gone, .forfeit, .restart], checks: [.ended],
            detail: "(waiting)",
            bug: "members cut off together past the grace (a 2|3 partition) or a member away while another forfeits or "
                + "is voted out: the votes about them never reach a majority at one move count where they are, so they "
                + "stay playing or paused (the turn-based 'votes never converge' below, in a race)",
            example:
                "fifteen/4 seed 6 (partition 2|3), fifteen/2 seed 66, fifteen/1 seed 28 (restart at the seed, then "
                + "the only racer forfeits: nobody else holds its moves)"),
        KnownFailure(
            cases: races, faults: [.restart, .hostLost, .forfeit], checks: [.logs, .result, .records],
            bug: "a member restarted while a takeover was agreed learns a different set of takeovers",
            example: "fifteen/4 seed 41, fifteen5/2 seed 58"),
        KnownFailure(
            cases: races, faults: [.hostLost, .pausePast], checks: [.ended], detail: "no result from",
            bug: "a member voted out after the last move: the others time out on its result; and (2026-11-28) every "
                + "node cut apart: a node counts a voter's old vote about a member that came back, with its own, before "
                + "it learns that voter was voted out, and agrees a takeover the others never agree",
            example: "fifteen/4 seed 93, fifteen5/2 seed 12054"),
    ]

    static let turnBased = [
        KnownFailure(
            cases: turns, faults: [.hostLost, .pauseWithin, .partition, .flap, .restart], checks: [.ended],
            detail: "no deal",
            bug: "a deal lost with a broken session is never sent again: both members sync at the same move count, so "
                + "no catch-up (which would carry the deals) is sent, and the host does not deal again; the table "
                + "times out", example: "spirits/2 seed 76 (the host cut right after dealing deal 1)"),
        KnownFailure(
            cases: turns, faults: [.hostLost, .pauseWithin, .partition, .flap, .restart], checks: [.ended],
            detail: "no move 0 from", bug: "the other side of the lost deal above: the bot to play move 0 has no deal",
            example: "spirits/2 seed 76"),
        KnownFailure(
            cases: turns, faults: [.restart, .hostLost], checks: [.ended], detail: "'s bot within",
            bug: "a takeover agreed but not yet applied is not journaled: a member restarted in between restores with "
                + "the lost member still absent, votes at its own move count (no majority at the agreed number), stays "
                + "paused and its bot never plays; the others time out", example: "spirits/4 seed 1"),
        KnownFailure(
            cases: turns, faults: takeovers, checks: [.ended], detail: "ends paused",
            bug: "votes never converge: a paused member holding a vote about itself applies no move (§9.12), so it "
                + "cannot take the catch-up that would let it vote again at the others' number; with a member gone "
                + "for good no majority forms at one number",
            example: "spirits/3 seed 53 (partition, then a member gone)"),
        KnownFailure(
            cases: turns, faults: takeovers, checks: [.logs], detail: "who was taken over",
            bug: "a member voted out while away (restarted, cut past the grace) does not learn it on return: it gets "
                + "only each voter's latest vote (a voter that voted again after a catch-up, or forfeited since, does "
                + "not send the vote that was agreed), so it plays on as a member; its log, final hashes and record "
                + "differ",
            example: "spirits/5 seed 82 (restart past the grace), spirits/2 seed 68 (the voter forfeits)"),
        KnownFailure(
            cases: turns, faults: takeovers, checks: [.result, .records], detail: nil,
            bug: "the same: the returning member's final hashes and record id differ", example: "spirits/5 seed 82"),
        KnownFailure(
            cases: turns, faults: takeovers, checks: [.ended], detail: "dealt but is not the host",
            bug: "the same, for a host voted out while away: it does not know its successor and stops the table at "
                + "the successor's deal (deal/not-host)", example: "spirits/5 seed 40"),
        // Found by the long run of 2026-11-28 (release, seeds 30000-31999 of othello/2).
        KnownFailure(
            cases: turns, faults: [.gone], checks: [.ended], detail: "(waiting)",
            bug: "a member gone for good right after the last move, its result lost on the way to one member only (a "
                + "restart, a broken session): the others have finished and vote no more, so that member waits paused "
                + "for ever for a result nobody can relay (table.result is the sender's own word)",
            example: "othello/2 seeds 30131 (with a restart of the host), 30446"),
        // Found by `scripts/fuzz tables 200 1000` (seeds 1000-1199), not by the suite's seeds.
        KnownFailure(
            cases: turns, faults: [.restart, .pausePast, .partition, .hostLost], checks: [.ended],
            detail: "hash/mismatch",
            bug: "the table forks and stops with hash/mismatch after members come back from long cuts or restarts "
                + "past the grace (two takeovers crossing, a restarted member replaying moves it played apart)",
            example: "briscola/4 seed 1149 (partition 2|3, restart), spirits/5 seed 1173, spirits/6 seed 1198"),
        KnownFailure(
            cases: turns, faults: takeovers.union([.pauseWithin]), checks: [.logs], detail: "takeovers differ:",
            bug: "the same seated member's takeover is applied at different points (`appliedAt`) in members' logs when "
                + "two members are cut off together or one after the other (§9.12 names one point)",
            example: "briscola/4 seed 1077 (partition 2|3), spirits/3 seed 1082, spirits/4 seed 80 (a member gone, "
                + "another paused within the grace: applied at 13 and at 11)"),
    ]

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
