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

    /// `table.sealed-audit`: this node's secret, and those it recovered; none at an observer, which has no secret.
    public var auditMessage: SealedMessage? {
        guard !isObserver else { return nil }
        return .audit(table: context.tableId, secrets: actingSecrets.map { .init(member: $0.member, secret: $0.seed) })
    }

    /// Member `member`'s audit: its own secret (the first entry naming it), then those it recovered as an heir
    /// (§14.11), each of a member it acts for. A second, different one is refused.
    public mutating func acceptAudit(from member: Int, secrets: [SealedMessage.MemberSecret]) throws(SealedFault) {
        guard (0..<members).contains(member), member != me else { return }
        guard secrets.first?.member == member else {
            throw SealedFault(.noAudit, member: member, "an audit without its own secret first")
        }
        // A member index past the table's (a hostile message may name up to 15) is nobody's: skipped. Another member's
        // secret counts from the node acting for it here, or from anyone when it derives that member's key: a node
        // that agreed a takeover after the heir's audit came would otherwise miss the leaver's secret (§14.10).
        for entry in secrets
        where actors.indices.contains(entry.member)
            && (entry.member == member
                || (entry.member != me && (actors[entry.member] == member || derivesKey(entry))))
        {
            if let known = auditSecrets[entry.member], known != entry.secret {
                throw SealedFault(.badSecret, member: member, "a second, different secret of member \(entry.member)")
            }
            auditSecrets[entry.member] = entry.secret
        }
    }

    /// Whether `entry` is its member's secret: it derives the member's key.
    func derivesKey(_ entry: SealedMessage.MemberSecret) -> Bool {
        guard entry.secret.count == SealedMemberSecret.byteCount, let key = keys[entry.member] else { return false }
        return SealedMemberSecret(seed: entry.secret, context: context, member: entry.member).publicKey == key
    }

    /// Every member's secret in member order, once each is known here (from its audit, or this node's own).
    public var everySecret: [[UInt8]]? {
        let all = (0..<members).compactMap { actingSecret($0)?.seed ?? auditSecrets[$0] }
        return all.count == members ? all : nil
    }

    /// Whether the secret of every member this node does not act for is in.
    public var hasEveryAudit: Bool {
        (0..<members).allSatisfy { actingSecret($0) != nil || auditSecrets[$0] != nil }
    }

    /// Every deal's true order (the card number at each position), once every member's secret is known here and
    /// every deal opens: what `tavolo show` plays a sealed record on. Nil before, or when a shuffle was false.
    public var trueOrders: [[Int]]? {
        guard let seeds = everySecret, !deals.isEmpty else { return nil }
        let secrets = seeds.enumerated().map { SealedMemberSecret(seed: $1, context: context, member: $0) }
        let joint = secrets.map(\.key).reduce(RistrettoScalar.zero, +)
        let orders = deals.compactMap { SealedAudit.open($0.deal, withJointSecret: joint) }
        return orders.count == deals.count ? orders : nil
    }

    /// The audit with the secrets in so far (a member whose secret is missing is named `sealed/no-audit`): steps 1–4
    /// over every deal, then step 5, the game replayed with every hand known, when every deal opened.
    public func verdict() -> Verdict {
        var secrets = (0..<members).map { auditSecrets[$0] }
        for acting in actingSecrets { secrets[acting.member] = acting.seed }
        let outcome = SealedAudit.run(secrets: secrets, deals: deals.map(\.deal), trusting: secret?.member)
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
