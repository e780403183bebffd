/// One verdict of `tavolo doctor`: what was checked, how it stands, in words, and what to do about it.
public struct DoctorCheck: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case ok
        /// Not broken as far as this machine can tell, but worth a look (e.g. nobody else is seen).
        case warning
        case failed
        /// Could not be checked (the node does not answer, a tool is missing).
        case skipped
    }

    /// The check's stable name: `node`, `avahi`, `interfaces`, `published`, `discovered`, `connections`.
    public var check: String
    public var status: Status
    /// What was found, in one sentence.
    public var text: String
    /// What to do, when something is to be done.
    public var hint: String?

    public init(_ check: String, _ status: Status, _ text: String, hint: String? = nil) {
        self.check = check
        self.status = status
        self.text = text
        self.hint = hint
    }
}

/// The report `tavolo doctor --json` prints: the verdicts, and the facts they were drawn from.
public struct DoctorReport: Codable, Sendable, Equatable {
    /// No check failed.
    public var ok: Bool
    public var checks: [DoctorCheck]
    public var facts: DoctorFacts

    public init(facts: DoctorFacts) {
        self.facts = facts
        checks = DoctorVerdicts.checks(facts)
        ok = !checks.contains { $0.status == .failed }
    }
}
