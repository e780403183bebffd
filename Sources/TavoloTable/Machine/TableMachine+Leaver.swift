import TavoloCore
import TavoloProtocol

/// A member that forfeited (§9.12) keeps a stopped copy of the table for a while. Besides sending its forfeit again,
/// that copy answers a member behind with the moves it applied before it left: a racer that forfeits right after
/// its host was cut off may be the only node holding its seat's moves, and without them nobody can get to the point
/// where its seats pass to a bot. Its catch-up is taken for those moves only: no confirmation, no vote.
extension TableMachine {
    /// This node's copy of a table it left with a forfeit.
    var isLeaversCopy: Bool { forfeitedAt != nil && info.phase == .stopped }

    /// The move count `member`'s forfeit named, if it forfeited (agreed here, or already in the log).
    func forfeitNumber(of member: NodeID) -> Int? {
        agreed.first { $0.member == member && $0.forfeit }?.number
            ?? log.takeovers?.first { $0.member == member && $0.forfeit }?.number
    }
}
