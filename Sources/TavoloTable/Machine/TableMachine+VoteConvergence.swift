import TavoloCore
import TavoloProtocol

/// Votes about one lost member converge on one move count (PROTOCOL.md §9.12): voters behind catch up and vote again
/// where they are, and a member whose grace ends past a count others voted at joins that count first.
extension TableMachine {
    /// Whether this node may vote now: a majority of the table's members is present here, itself included (§9.12).
    /// A node cut off from the majority votes nothing: its vote could only meet other votes later, in an order that
    /// differs from node to node, and two majorities would vote out two different members (every node cut apart,
    /// each voting out all the others). It votes once enough members are back (`castDeferredVotes`).
    var mayVote: Bool { possibleVoters >= quorum }

    /// After a catch-up: a vote cast at a move this node has since passed is cast again where it is now, so the
    /// voters converge on the furthest move any of them reached.
    mutating func revoteIfBehind() {
        guard let s = session else { return }
        for (member, n) in myVote where n < s.moveNumber && graceOver.contains(member) { vote(member) }
    }

    /// When this node's grace for `member` ends past a count others already voted at, it votes there too. A member
    /// that agreed at that count votes no more (and, turn-based, played the heir's move); a node that went past that
    /// count before its grace ended (a catch-up; a race's moves) would otherwise vote only at its own count, and a
    /// voter gone right after agreeing leaves the two counts each short of a majority (§9.12). Only counts from the
    /// one this node lost the member at: votes stay counted when a member comes back, and those of an earlier absence
    /// would take its seats from a move it has played since.
    mutating func joinEarlierVote(about member: NodeID) {
        guard let s = session, myVote[member] == nil, !replaced.contains(member), mayVote,
            !sealedSeatsCannotPass(member),
            let lost = play?.absence.lostAt[member]
        else { return }
        let earlier = (votes[member] ?? [:]).filter { count, voters in
            count >= lost && count < s.moveNumber && voters.contains { $0 != me && !replaced.contains($0) }
        }
        guard let count = earlier.keys.max() else { return }
        cast(member: member, number: count)
        countVote(member: member, number: count, from: me)
    }

    /// A member is back here: the votes this node held back while no majority was present are cast now, for every
    /// member still absent past its grace (§9.12).
    mutating func castDeferredVotes() {
        guard mayVote else { return }
        for member in graceOver.sorted() where absent.contains(member) && myVote[member] == nil {
            joinEarlierVote(about: member)
            vote(member)
        }
    }
}
