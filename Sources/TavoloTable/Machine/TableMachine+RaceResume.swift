import TavoloCore
import TavoloProtocol

/// A simultaneous game survives a lost member as a turn-based one does (PROTOCOL.md §10.6): it pauses, a member that
/// comes back (its connection, or a restart from its journal) catches up, and after the grace a bot takes the seats.
/// What differs is how two members tell what the other misses: a race has no single move order, so a sync carries
/// the whole state's hash (it depends on no interleaving, §10.1), and a member whose state differs is sent every
/// race move this node applied; the receiver keeps those its seats' sequences lack, each checked as a live move.
extension TableMachine {
    /// `peer`'s sync of a race: `moves` in all, reaching the whole state `hash`.
    mutating func handleRaceSync(from peer: NodeID, moves: Int, hash: StateHash) {
        guard let s = session, !info.phase.isOver || info.phase == .finished || isLeaversCopy else { return }
        if isLeaversCopy {
            // Only the moves this node applied before it left (§9.12): they may be held by nobody else.
            if hash != s.stateHash { sendCatchUp(to: peer, from: 0) }
            return
        }
        // A spectator relays nothing: the members have no use for its word.
        // Every race move this node applied (a race's numbers are each seat's own, so from 0), each with its seat's
        // number and seat hashes; a race deals no cards.
        if hash != s.stateHash && !isSpectator { sendCatchUp(to: peer, from: 0) }
        if !syncSent.contains(peer) { sendVotesAndSync(to: peer) }
        resendResult(to: peer)
        relayResults(to: peer)
    }

    /// Relayed race moves: those beyond each seat's sequence here wait for their turn and are then checked exactly
    /// as live ones (§10.2); those already applied here are no news.
    mutating func handleRaceCatchUp(from: NodeID, moves: [RelayedMove]) {
        for m in moves { _ = dropRaceMovesApart(seat: m.seat, from: m.number, after: m.after) }
        for m in moves where m.number >= raceNext(m.seat) && inbox.pending[m.seat, m.number] == nil {
            let relayed = PendingMoves.Move(from: from, seat: m.seat, move: m.move, stateHash: m.stateHash)
            guard (0..<info.players).contains(m.seat),
                inbox.pending.add(relayed, lane: m.seat, number: m.number, limit: Self.maxPending)
            else { break }
        }
        progress()
        revoteIfBehind()
    }
}

extension TableMachine {
    /// A racer voted out may have slid its seat on alone before it learned so (§10.6), and applied the moves of
    /// another racer cut off with it: those moves are not the table's, whose moves of such a seat from `number` on
    /// are the heir's. When a different move `number` of a seat whose takeover this node knows reaches it, it drops
    /// its own from there and rebuilds its game from its log without them, as a restart does. Returns whether it did.
    mutating func dropRaceMovesApart(seat: Int, from number: Int, after: StateHash?) -> Bool {
        guard isSpectator, isRace, seatsTakenOver.contains(seat), number < raceNext(seat),
            let mine = log.moves.first(where: { $0.seat == seat && $0.number == number }),
            after.map({ !$0.agrees(with: StateHash(hex: mine.after) ?? $0) }) ?? true
        else { return false }
        let kept = log.moves.filter { !($0.seat == seat && $0.number >= number) }
        let notice = "table \(id): dropping seat \(seat)'s moves from \(number) on, played apart from the table"
        guard rebuild(keeping: kept, notice: notice) else { return false }
        play?.race.orderSent = false
        let myself = me
        play?.race.orders[myself] = nil
        persist()
        return true
    }
}
