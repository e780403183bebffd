import TavoloCore

/// The end of a sealed game (PROTOCOL.md §14.10): every member opens its secret, and every node recomputes every
/// shuffle, checks every share it kept, opens every card, and replays the game with every hand known. The verdict
/// names each member caught, or none: "deck verified".
extension SealedTable {
    /// What the audit found: the members it names, each with the first thing it found against them.
    public struct Verdict: Sendable, Equatable {
        public var faults: [SealedFault]
        public var cheaters: [Int] { Array(Set(faults.compactMap(\.member))).sorted() }
        public var verified: Bool { faults.isEmpty }
    }

    /// `table.sealed-audit`: this node's secret.
    public var auditMessage: SealedMessage {
        .audit(table: context.tableId, secrets: [.init(member: me, secret: secret.seed)])
    }

    /// Member `member`'s audit: its own secret (the first entry naming it). A second, different one is refused.
    public mutating func acceptAudit(from member: Int, secrets: [SealedMessage.MemberSecret]) throws(SealedFault) {
        guard (0..<members).contains(member), member != me else { return }
        guard let own = secrets.first(where: { $0.member == member }) else {
            throw SealedFault(.noAudit, member: member, "an audit without its own secret")
        }
        if let known = auditSecrets[member], known != own.secret {
            throw SealedFault(.badSecret, member: member, "a second, different secret")
        }
        auditSecrets[member] = own.secret
    }

    /// Whether every other member's secret is in.
    public var hasEveryAudit: Bool { (0..<members).allSatisfy { $0 == me || auditSecrets[$0] != nil } }

    /// The audit with the secrets in so far (a member whose secret is missing is named `sealed/no-audit`): steps 1–4
    /// over every deal, then step 5, the game replayed with every hand known, when every deal opened.
    public func verdict() -> Verdict {
        var secrets = (0..<members).map { auditSecrets[$0] }
        secrets[me] = secret.seed
        let outcome = SealedAudit.run(secrets: secrets, deals: deals.map(\.deal), trusting: me)
        var faults = outcome.faults
        let orders = outcome.orders.compactMap { $0 }
        guard orders.count == deals.count, !deals.isEmpty else {
            if faults.isEmpty { faults.append(SealedFault(.badCard, member: nil, "a deal does not open to its deck")) }
            return Verdict(faults: faults)
        }
        if let finding = common.sealedAuditFinding(deals: orders, moves: moves),
            seatMembers.indices.contains(finding.seat)
        {
            let member = seatMembers[finding.seat]
            let code: SealedFault.Code = finding.isFalseClaim ? .falseFlee : .wrongCard
            faults.append(
                SealedFault(
                    code, member: member, "move \(finding.moveNumber) of seat \(finding.seat): \(finding.error)"))
        }
        return Verdict(faults: faults)
    }
}
