import TavoloCore
import TavoloProtocol

/// Results relayed by a member that finished (PROTOCOL.md §9.5). A member gone for good right after the last move may
/// have sent its `table.result` to some members only. Those finished: they vote no more, so a member that missed it
/// would wait for it, paused, until its table timed out. A finished member holds every member's result, all equal to
/// its own, so it hands them on to a member that is still waiting. The receiver takes one only if it equals its own
/// final hash (a relayed result can complete a table, never stop one) and its log holds as many takeovers as the
/// relayer's: a member's own result comes after its votes, so waiting for it is how a node learns every takeover;
/// one that misses a takeover keeps waiting for the member's word. In a race the result needs the member's finishing
/// order too, since the ranking counts every member's (§10.3): the relayer sends the order it holds first, and the
/// receiver takes the two together or neither.
extension TableMachine {
    /// Sends `peer` the results this finished member holds of the others (`only`: of that member alone).
    mutating func relayResults(to peer: NodeID, only member: NodeID? = nil) {
        guard info.phase == .finished, isMember, !replaced.contains(me), let outcome = session?.outcome
        else { return }
        let others = results.filter { node, _ in
            node != me && node != peer && activeMembers.contains(node) && (member.map { $0 == node } ?? true)
        }
        let takeovers = log.takeovers?.count ?? 0
        for (node, hash) in others.sorted(by: { $0.key < $1.key }) {
            if isRace {
                // A race's result is relayed only with the member's order, before it on the same connection.
                guard let order = race.orders[node] else { continue }
                send(.raceOrder(table: id, order: order, member: node), to: [peer])
            }
            let relayed = ResultRelay(member: node, takeovers: takeovers)
            send(
                .result(
                    table: id, winners: outcome.winners, scores: outcome.scores, finalHash: hash, relayed: relayed),
                to: [peer])
        }
    }

    /// Another member's result, relayed by `relayer`: kept until this node ends, then counted as that member's own
    /// if it equals this node's final hash and the takeovers agree in number.
    mutating func handleRelayedResult(from relayer: NodeID, _ relayed: ResultRelay, finalHash: StateHash) {
        let member = relayed.member
        guard info.isMember(relayer), !replaced.contains(relayer), info.isMember(member), member != relayer,
            member != me
        else {
            let message = TableMessage.result(
                table: id, winners: [], scores: [], finalHash: finalHash, relayed: relayed)
            return dropped(message, from: relayer)
        }
        guard info.phase.isActive, checks, play != nil, !replaced.contains(member), results[member] == nil else {
            return
        }
        play?.relayedResults[member] = (finalHash, relayed.takeovers)
        if resultSent { takeRelayedResults() }
    }

    /// At the end here (or once it is reached): the relayed results that agree count; the others are dropped.
    mutating func takeRelayedResults() {
        guard let hash = session?.stateHash else { return }
        let takeovers = log.takeovers?.count ?? 0
        for (member, theirs) in relayedResults.sorted(by: { $0.key < $1.key }) {
            play?.relayedResults[member] = nil
            guard results[member] == nil, !replaced.contains(member) else { continue }
            guard theirs.hash == hash, theirs.takeovers == takeovers else {
                out.append(.log(.notice, "table \(id): a relayed result of \(ctx.name(member)) does not agree here"))
                continue
            }
            if isRace {
                let relayedOrder = race.relayedOrders[member]
                play?.race.relayedOrders[member] = nil
                guard let order = race.orders[member] ?? relayedOrder else { continue }
                play?.race.orders[member] = order
            }
            play?.results[member] = theirs.hash
        }
        concludeIfAllResultsIn()
    }

    /// A race's finishing order of `member`, relayed by a finished member just before `member`'s result: kept (the
    /// first one) until that result is taken with it; `member`'s own order, when it comes, counts instead.
    mutating func handleRelayedRaceOrder(from relayer: NodeID, order: [Int], member: NodeID) {
        guard info.isMember(relayer), !replaced.contains(relayer), info.isMember(member), member != relayer,
            member != me, isRace, order.count <= info.players
        else {
            return dropped(.raceOrder(table: id, order: order, member: member), from: relayer)
        }
        guard info.phase.isActive, checks, play != nil, !replaced.contains(member), race.orders[member] == nil,
            race.relayedOrders[member] == nil
        else { return }
        play?.race.relayedOrders[member] = order
    }

    /// A finished member's answer to a late takeover vote: the voter waits for `member`'s result (or for this node's
    /// own, when the vote is about this node); the vote itself has nothing left to decide (§9.12).
    mutating func answerVoteAfterTheEnd(from voter: NodeID, about member: NodeID) {
        guard info.isMember(voter), !replaced.contains(voter) else { return }
        if member == me { resendResult(to: voter) } else { relayResults(to: voter, only: member) }
    }

    /// This node's own result again, to a member that may have missed it (§9.11), a race's finishing order first.
    mutating func resendResult(to peer: NodeID) {
        guard resultSent, let outcome = session?.outcome, let mine = results[me] else { return }
        if isRace, let order = race.orders[me] { send(.raceOrder(table: id, order: order), to: [peer]) }
        send(.result(table: id, winners: outcome.winners, scores: outcome.scores, finalHash: mine), to: [peer])
    }
}
