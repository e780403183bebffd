import TavoloCore
import TavoloProtocol

/// A forfeit only the leaver's side of a partition saw (PROTOCOL.md §9.12). A member that leaves while cut off from
/// the table forfeits to the members cut off with it alone; the others, past their grace, vote it out, and a forfeit
/// that reaches them after that changes nothing. When the table then votes out the members of that side too, each
/// follows the game as a spectator, and its log must end as the table's: it takes the table's takeover of the
/// leaver in place of the forfeit it agreed.
extension TableMachine {
    /// A vote about `member`, whose forfeit this node (voted out) agreed apart, relayed by a member with a majority of
    /// voters: that member agreed the vote, since a member holding the forfeit counts no vote about its leaver. This
    /// node takes that takeover instead of the forfeit. Returns whether the vote was one (nothing else to do with it).
    mutating func takeTheTablesVote(
        about member: NodeID, number: Int, from voter: NodeID, relaying relayed: [NodeID]
    ) -> Bool {
        guard isSpectator, member != me, info.isMember(voter), !replaced.contains(voter) else { return false }
        let voters = Set(relayed + [voter]).filter { startMembers.contains($0) && $0 != me && $0 != member }
        guard voters.count >= quorum else { return false }
        var asked = false
        if let i = agreed.firstIndex(where: { $0.member == member && $0.forfeit }) {
            let bot = agreed[i].bot
            play?.absence.agreed[i] = AgreedTakeover(member: member, number: number, bot: bot, forfeit: false)
        } else if let i = log.takeovers?.firstIndex(where: { $0.member == member && $0.forfeit }) {
            guard let retaken = retakeLoggedForfeit(at: i, number: number) else { return false }
            asked = retaken
        } else {
            return false
        }
        out.append(
            .log(
                .notice,
                "table \(id): \(ctx.name(member))'s forfeit reached this node alone; the table voted it out from "
                    + "move \(number), and this node follows that"))
        if !asked { askForTheTablesMoves() }
        return true
    }

    /// The logged forfeit at `i` becomes the table's vote from `number`. Its seats and heir stay (they passed to the
    /// heir either way). In a race the seats pass at the agreed count; the moves of the leaver's seats this node
    /// applied apart are dropped when the table's differ (`dropRaceMovesApart`). Turn-based, they are dropped now from
    /// the agreed number, as for any takeover (`dropMoves(of:from:)`). Nil when it cannot; else whether it dropped
    /// moves and so asked the members for theirs already.
    private mutating func retakeLoggedForfeit(at i: Int, number: Int) -> Bool? {
        guard var takeovers = log.takeovers, let s = session else { return nil }
        var t = takeovers[i]
        (t.number, t.forfeit, t.signature) = (number, false, nil)
        if !s.isSimultaneous {
            let first = log.moves.first { $0.number >= number && t.seats.contains($0.seat) }?.number
            t.appliedAt = min(first ?? s.moveNumber, s.moveNumber)
        } else {
            t.appliedAt = number
        }
        takeovers[i] = t
        log.takeovers = GameLog.LoggedTakeover.canonicalOrder(takeovers)
        return !s.isSimultaneous && dropMoves(of: t.member, from: number)
    }
}
