/// Crossings the simulation found broken and the table layer does not handle yet (issue 28). Each entry names the
/// bug and a seed that shows it (`TAVOLO_SIM_CASE=… TAVOLO_SIM_SEED=… swift test --filter testReplayOneSeed`).
/// The suite does not assert what an entry covers; remove the entry when its fix lands, and the suite checks
/// those runs again. `scripts/fuzz tables N` reports them as `known:` lines instead of leaving them out.
struct KnownFailure {
    /// Cases (`game/players`) or games (`game`) it covers.
    var cases: Set<String>
    /// The fault it needs; nil for any run of those cases.
    var fault: FaultKind?
    /// The checks that fail; nil when the whole run is left out (it cannot end: it would only spend the time limit).
    var checks: Set<SimulationCheck>?
    /// Text the failure's message must hold, when the check alone says too little.
    var detail: String? = nil
    var bug: String
    var example: String

    static let all: [KnownFailure] = []

    func covers(_ c: SimulationCase) -> Bool { cases.contains(c.description) || cases.contains(c.game) }

    /// The entry that covers a failed check of a run of `c` with these faults.
    static func matching(_ c: SimulationCase, _ faults: Set<FaultKind>, _ failure: SimulationFailure) -> KnownFailure? {
        all.first { k in
            k.covers(c) && (k.fault.map { faults.contains($0) } ?? true) && (k.checks?.contains(failure.check) ?? true)
                && (k.detail.map { failure.message.contains($0) } ?? true)
        }
    }

    /// Whether the suite leaves this run out altogether.
    static func skipsRun(_ c: SimulationCase, seed: UInt64) -> Bool {
        let faults = SimulationScenario(c, seed: seed, primary: TableSimulationTests.primary(seed)).faultKinds
        return all.contains { k in k.checks == nil && k.covers(c) && (k.fault.map { faults.contains($0) } ?? true) }
    }
}
