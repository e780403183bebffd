import TavoloCore
import TavoloProtocol

/// Waits on peers end (PROTOCOL.md §9.8): every reply a node sends without asking its user has a deadline, so a
/// silent or hostile member cannot leave the others waiting for ever. The machine reads no clock: it asks its
/// shell for a timer and, when the timer fires, checks whether what it waited for came.
extension TableMachine {
    mutating func startTimer(_ timer: TableTimer, after delay: Duration) {
        guard role == .node else { return }
        out.append(.startTimer(timer, after: delay))
    }

    /// Drops a deadline whose wait is over, so the shell holds no timer per move for its whole delay.
    mutating func cancelTimer(_ timer: TableTimer) {
        guard role == .node else { return }
        out.append(.cancelTimer(timer))
    }

    /// Ends the wait `awaitPeer` started, if it did.
    mutating func stopAwaiting(_ timer: TableTimer) {
        if awaited.remove(timer) != nil { cancelTimer(timer) }
    }

    /// Starts the deadline of a deal or a bot's move once, however often progress stops at it.
    mutating func awaitPeer(_ timer: TableTimer) {
        guard role == .node, isMember, awaited.insert(timer).inserted else { return }
        startTimer(timer, after: ctx.peerReplyTimeout)
    }

    mutating func timerFired(_ timer: TableTimer) {
        switch timer {
        case .expire: break
        case .seeding:
            guard info.phase == .seeding, jointSeed == nil, isMember else { return }
            let late = info.participants.filter { commitments[$0] == nil || reveals[$0] == nil }
            guard !late.isEmpty else { return }
            stop(
                .timeout, "no commitment or nonce from \(names(late)) within \(seconds(ctx.peerReplyTimeout))",
                broadcast: true)
        case .seatRequest:
            guard seatRequestUnanswered else { return }
            lobby?.seatRequestUnanswered = false
            emit(
                .seatRefused(
                    message: "\(ctx.name(info.host)) did not answer the seat request within "
                        + seconds(ctx.seatRequestTimeout)))
        case .confirmations(_, let number):
            guard let by = play?.confirmedBy.removeValue(forKey: number), info.phase.isActive else { return }
            // A member lost since is already reported (the pause names it); its confirmation comes with its sync.
            let late = confirmers.filter { !by.contains($0) && !absent.contains($0) }
            guard !late.isEmpty else { return }
            // Reported, not fatal: the game goes on with moves, which carry their hashes, and its end waits for
            // every result, which has its own deadline.
            out.append(
                .log(
                    .warning,
                    "table \(id): no confirmation of move \(number) from \(names(late)) within "
                        + seconds(ctx.peerReplyTimeout)))
        case .deal(_, let number):
            awaited.remove(timer)
            guard info.phase == .playing, isMember, verifiedDeal < number else { return }
            stop(
                .timeout, "no deal \(number) from \(ctx.name(info.host)) within \(seconds(ctx.peerReplyTimeout))",
                broadcast: true)
        case .botMove(_, let number):
            awaited.remove(timer)
            guard info.phase == .playing, isMember, let s = session, s.moveNumber == number, let seat = s.turn.seat,
                info.seats[seat].bot != nil, info.seats[seat].owner != me
            else { return }
            let owner = info.seats[seat].owner.map { ctx.name($0) } ?? "nobody"
            stop(
                .timeout, "no move \(number) from \(owner)'s bot within \(seconds(ctx.peerReplyTimeout))",
                broadcast: true)
        case .raceBot(_, let seat): raceBotFired(seat: seat)
        case .results where sealedGame != nil && !resultSent:
            // A sealed table's audits are late: the audit runs with the secrets that came (§14.9 `sealed/no-audit`).
            guard info.phase.isActive, info.phase != .paused else { return }
            play?.sealedAuditExpired = true
            finish()
        case .results:
            // A paused table waits for its lost members' grace instead (§9.10).
            guard info.phase.isActive, info.phase != .paused, isMember, resultSent else { return }
            let late = info.members.filter { results[$0] == nil && !replaced.contains($0) }
            guard !late.isEmpty else { return }
            stop(.timeout, "no result from \(names(late)) within \(seconds(ctx.peerReplyTimeout))", broadcast: true)
        case .grace(_, let member): graceEnded(member)
        }
    }

    private func names(_ nodes: [NodeID]) -> String { nodes.map { ctx.name($0) }.joined(separator: ", ") }

    private func seconds(_ d: Duration) -> String { "\(d.components.seconds) s" }
}
