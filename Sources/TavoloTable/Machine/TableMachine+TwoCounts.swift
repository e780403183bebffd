import TavoloCore
import TavoloProtocol

/// Votes about one member that gathered a majority at two counts (PROTOCOL.md §9.12, §10.6). Voters reach the member's
/// grace at different counts and a voter behind votes again once it caught up (§9.12); a vote that reaches one node
/// late can let each count gather a majority there first, and two nodes then log one takeover at two numbers. Where
/// the number moves nothing but the log — a race (its seats pass once a node has every move the vote counted, §10.6)
/// and a member with no seat (it passes nothing) — every node keeps the lowest count a majority voted at.
extension TableMachine {
    /// A vote about `member`, taken over here by a vote at a higher count: counted, and when a majority voted at this
    /// lower count, the takeover takes it. Returns whether the vote was one (nothing else to do with it).
    mutating func takeLowerCount(of member: NodeID, to number: Int, voter: NodeID) -> Bool {
        guard number >= 0, info.isMember(voter), voter != member, !replaced.contains(voter) else { return false }
        let seatless = !info.seats.contains { $0.owner == member }
        let agreedHigher = agreed.firstIndex {
            $0.member == member && !$0.forfeit && $0.number > number && (isRace || seatless)
        }
        let loggedHigher = log.takeovers?.firstIndex {
            $0.member == member && !$0.forfeit && $0.number > number && (isRace || $0.seats.isEmpty)
        }
        guard agreedHigher != nil || loggedHigher != nil else { return false }
        play?.absence.votes[member, default: [:]][number, default: []].insert(voter)
        guard countedVoters(about: member, at: number) >= quorum else { return true }
        if let i = agreedHigher {
            play?.absence.agreed[i].number = number
        } else if let i = loggedHigher, var takeovers = log.takeovers {
            (takeovers[i].number, takeovers[i].appliedAt) = (number, number)
            log.takeovers = GameLog.LoggedTakeover.canonicalOrder(takeovers)
            persist()
        }
        out.append(
            .log(
                .notice,
                "table \(id): a majority voted \(ctx.name(member)) out from move \(number) too; the takeover is "
                    + "logged from there"))
        return true
    }
}
