import TavoloCore
import TavoloProtocol

/// A race's votes about one member at two counts (PROTOCOL.md §10.6). A race's moves go on while a member is away, so
/// voters reach the member's grace at different counts; a voter behind votes again once it caught up (§9.12), and a
/// vote that reaches one node late can let each count gather a majority there first: two nodes then log one takeover
/// at two numbers. Every node keeps the lowest count a majority voted at. In a race the seats pass once a node has
/// every move the vote counted, whatever the number, so only the number in the log changes.
extension TableMachine {
    /// A vote about `member`, taken over here by a vote at a higher count: counted, and when a majority voted at this
    /// lower count, the takeover takes it. Returns whether the vote was one (nothing else to do with it).
    mutating func lowerRaceTakeover(of member: NodeID, to number: Int, voter: NodeID) -> Bool {
        guard isRace, number >= 0, info.isMember(voter), voter != member, !replaced.contains(voter) else {
            return false
        }
        let agreedHigher = agreed.firstIndex { $0.member == member && !$0.forfeit && $0.number > number }
        let loggedHigher = log.takeovers?.firstIndex { $0.member == member && !$0.forfeit && $0.number > number }
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
