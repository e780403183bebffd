import TavoloCore
import TavoloProtocol

/// A member that forfeited (§9.12) keeps a stopped copy of the table for a while. Besides sending its forfeit again,
/// that copy answers a member behind with the moves it applied before it left: a racer that forfeits right after
/// its host was cut off may be the only node holding its seat's moves, and without them nobody can get to the point
/// where its seats pass to a bot. Its catch-up is taken for those moves only: no confirmation, no vote. A host that
/// leaves hands its jobs on at once.
extension TableMachine {
    /// This node's copy of a table it left with a forfeit.
    var isLeaversCopy: Bool { forfeitedAt != nil && info.phase == .stopped }

    /// The move count `member`'s forfeit named, if it forfeited (agreed here, or already in the log).
    func forfeitNumber(of member: NodeID) -> Int? {
        agreed.first { $0.member == member && $0.forfeit }?.number
            ?? log.takeovers?.first { $0.member == member && $0.forfeit }?.number
    }

    /// The host's jobs (deals, confirming moves to their movers, offers) pass at once, to the member still playing
    /// first in the heirs' order: they change no state (§9.13).
    mutating func passHostJobs(forfeit: Bool) {
        guard let next = hostSuccessor else { return }
        info.host = next
        info.hostName = ctx.name(next)
        let verified = verifiedDeal
        if next == me {
            play?.dealsSent = verified
            // The old host may have been lost while its deal was on the way: a member that missed it gets no
            // catch-up at the same move count, so the new host sends it again (one that has it ignores it). Not
            // after a forfeit: nothing was lost, and a member that has not had the forfeit yet still has the
            // old host, there and connected, and would take the deal for one from a non-host.
            if !forfeit, let current = log.deals.last, current.number == verified {
                sendToTable(.deal(table: id, number: current.number, cards: current.cards))
            }
        }
        takeDealsFromSuccessor(next)
    }
}
