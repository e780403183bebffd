import TavoloCore
import TavoloProtocol

/// Lockstep moves checked by every member, confirmations, results and stops (PROTOCOL.md §9.4–9.5); the host's deals
/// are in `TableMachine+Deals.swift`. Every member runs exactly these checks, and so does replay.
extension TableMachine {
    // MARK: Moves

    mutating func handleMove(from: NodeID, number: Int, seat: Int, move: JSONValue, stateHash: StateHash) {
        let message = TableMessage.move(table: id, number: number, seat: seat, move: move, stateHash: stateHash)
        guard info.isMember(from), checks, !replaced.contains(from) else { return dropped(message, from: from) }
        // A member's move after the end gets an answer, so a peer that missed the end learns it.
        guard info.phase.isActive, session?.turn != .terminal else {
            if info.phase == .finished || session?.turn == .terminal {
                reject(number, .gameOver, "the game is over", from: from)
            } else {
                dropped(message, from: from)
            }
            return
        }
        // Checks that do not depend on timing happen at once; the rest when the move's turn comes.
        guard (0..<info.players).contains(seat), info.seats[seat].owner == from || isHeir(from, of: seat, move: number)
        else {
            return reject(number, .notYourTurn, "\(ctx.name(from)) does not own seat \(seat)", from: from)
        }
        guard number >= (session?.moveNumber ?? 0) else {
            return reject(number, .stale, "move \(number) was already played", from: from)
        }
        // The same move relayed by a catch-up first (§9.11) is no conflict.
        if let p = inbox.pending[PendingMoves.turns, number], p.seat == seat, p.move == move,
            p.stateHash.agrees(with: stateHash)
        {
            return
        }
        let pending = PendingMoves.Move(from: from, seat: seat, move: move, stateHash: stateHash)
        guard inbox.pending.add(pending, lane: PendingMoves.turns, number: number, limit: Self.maxPending) else {
            return reject(number, .stale, "a move \(number) is already pending", from: from)
        }
        // A move is its sender's word on the state after the move before it: a difference is a divergence
        // (hash/mismatch), not a stale move (PROTOCOL.md §9.4).
        if number > 0 { recordConfirm(from: from, number: number - 1, hash: stateHash) }
        progress()
    }

    mutating func reject(_ number: Int, _ code: MoveErrorCode, _ reason: String, from: NodeID) {
        out.append(
            .log(.warning, "table \(id): rejected move \(number) from \(ctx.name(from)): \(code.rawValue): \(reason)"))
        sendToTable(.reject(table: id, number: number, code: code, reason: reason))
        emit(
            .rejected(
                moveNumber: number, code: code, message: "rejected move \(number) from \(ctx.name(from)): \(reason)"))
    }

    /// Advances the table as far as it can: check the deal, apply pending moves, play this node's bots.
    mutating func progress() {
        if session?.isSimultaneous == true { return raceProgress() }
        let before = session?.moveNumber ?? 0
        // A paused member that applied moves (in flight from a member since lost, or relayed) says how far it is now,
        // so the members still here catch up before they vote: the voters agree on the furthest move any of them has,
        // and a move only this node holds would otherwise be played again by the heir (§9.10).
        defer {
            if info.phase == .paused, let s = session, s.moveNumber > before, !replaced.contains(me) {
                for peer in activeMembers where peer != me && ctx.connected.contains(peer) && !absent.contains(peer) {
                    sendSync(to: peer)
                }
            }
        }
        while info.phase == .playing || info.phase == .paused, let s = session {
            guard checkCurrentDeal(s) else { return }
            applyDueTakeovers()
            if s.turn == .terminal { return finish() }
            let number = s.moveNumber
            // A paused member that others voted out, or may have, applies no move of its own seats until every member
            // is back: those moves from a takeover's point on are the heir's, and it must know every takeover of
            // itself the others agreed (their votes come before their syncs) before it gets there (§9.12). Other seats'
            // moves it takes: one that a takeover it learns later makes the heir's is dropped then, as any move played
            // apart; holding them too left it short of the number the others vote at, with no majority ever forming
            // at one number when another member is gone for good.
            if info.phase == .paused, replaced.contains(me) || (votedAboutSinceResume && ownsTurn(s)) { return }
            if let pending = inbox.pending.take(lane: PendingMoves.turns, number: number) {
                // A sealed table's card opens first: its shares may still be on their way (§14.8 step 4).
                if sealedHolds(pending, number: number, s) {
                    if !info.phase.isOver {
                        _ = inbox.pending.add(pending, lane: PendingMoves.turns, number: number, limit: Self.maxPending)
                    }
                    return
                }
                applyPending(pending, number: number, s)
                continue
            }
            // A paused table applies moves already played (a catch-up) but plays none (§9.10).
            guard info.phase == .playing, playOwnTurn(number, s) else { return }
        }
    }

    /// Whether the seat to move is one of this node's (its user's or its bots'); true when no single seat moves.
    private func ownsTurn(_ s: any GameSession) -> Bool {
        guard let seat = s.turn.seat else { return true }
        return info.seats[safe: seat]?.owner == me
    }

    /// A move that waited for its turn: decoded and applied with every check, or rejected.
    private mutating func applyPending(_ pending: PendingMoves.Move, number: Int, _ s: any GameSession) {
        // This node's bot's own move coming back in a catch-up (it crashed after sending it): the bot's random
        // stream moves on as if it had played it here.
        // (An inherited seat's bot moves on in `apply`, at every member.)
        if pending.from != me, info.seats[safe: pending.seat]?.owner == me, let bot = info.seats[pending.seat].bot,
            inheritedBot(pending.seat) == nil
        {
            _ = try? s.botMove(kind: bot)
        }
        let decoded: AnyGameMove
        do { decoded = try s.decodeMove(pending.move) } catch {
            return reject(number, error.code, error.message, from: pending.from)
        }
        apply(
            number, seat: pending.seat, move: decoded, json: pending.move, claimed: pending.stateHash,
            from: pending.from)
    }

    /// This node's turn: its bot moves (true: go on), or its user is told once that it may (false: wait). Another
    /// node's turn: a bot's move gets a deadline (false).
    private mutating func playOwnTurn(_ number: Int, _ s: any GameSession) -> Bool {
        // A member voted out never plays again, not even before its seats have passed (§9.12).
        guard role == .node, !replaced.contains(me), let seat = s.turn.seat, info.seats[seat].owner == me else {
            // Another node's bot answers without its user: its move has a deadline; a human's has none.
            if let seat = s.turn.seat, info.seats[seat].bot != nil { awaitPeer(.botMove(id, number: number)) }
            return false
        }
        // A sealed table's seat plays once its cards are open here (§14.8 steps 3 and 5).
        guard sealedReady else { return false }
        switch sealedJournalTurn(number, seat: seat, s) {
        case .play(let move):
            sendMove(number, seat: seat, move: move)
            return true
        case .wait: return false
        case .none: break
        }
        if let bot = info.seats[seat].bot {
            let move: AnyGameMove
            do {
                move =
                    try inheritedBot(seat) == nil
                    ? s.botMove(kind: bot) : heirMove(seat: seat, number: number, kind: bot)
            } catch {
                stop(.botFailed, "\(error)", broadcast: true)
                return false
            }
            sendMove(number, seat: seat, move: move)
            return true
        }
        if yourTurnAnnounced != number {
            play?.yourTurnAnnounced = number
            emit(.yourTurn(seat: seat, moveNumber: number))
        }
        return false
    }

    /// Sends this node's move to the table and applies it here.
    mutating func sendMove(_ number: Int, seat: Int, move: AnyGameMove) {
        guard let s = session else { return }
        let hash = hashes.last ?? s.stateHash
        out.append(.moveSent(id, number: number))
        awaitConfirmations(of: number)
        let json = move.json
        guard sealedOpenOwn(number, seat: seat, move: move) else { return }
        // Applied, and so journaled, before it leaves: a `kill -9` between the two loses nothing the others saw.
        guard apply(number, seat: seat, move: move, json: json, claimed: hash, from: me) else { return }
        sendToTable(.move(table: id, number: number, seat: seat, move: json, stateHash: hash))
    }

    /// Checks and applies move `number`; every member runs exactly these checks. `json` is the move as it
    /// travelled (or will), kept for the log and the event so it is not encoded again.
    /// Returns whether the move was applied.
    @discardableResult
    mutating func apply(
        _ number: Int, seat: Int, move: AnyGameMove, json: JSONValue, claimed: StateHash, from: NodeID
    ) -> Bool {
        let due = number == session?.moveNumber && session?.turn.seat == seat
        guard heirBotAgrees(seat: seat, number: number, move: move, from: from, due: due) else { return false }
        // Applied in place (optional chaining through the stage's `_modify`): its hashes are never copied.
        guard let result = play?.sequencer.apply(seat: seat, number: number, move: move, claimed: claimed),
            let s = session
        else { return false }
        if from != me { hashesChecked += 1 }
        let done: MoveSequencer.Applied
        switch result {
        case .failure(let r):
            reject(number, r.code, r.reason, from: from)
            // At a sealed table the card was opened to everyone before the game refused the move: a lie (§14.9).
            if sealedGame != nil { stop(.sealedWrongCard, "\(ctx.name(from)): \(r.reason)", broadcast: true) }
            return false
        case .success(let applied): done = applied
        }
        sealedAfterApply()
        let (text, after) = (done.text, done.after)
        stopAwaiting(.botMove(id, number: number))
        log.moves.append(
            GameLog.LoggedMove(
                number: number, seat: seat, move: json, text: text, before: done.before.hex, after: after.hex))
        // On disk before this node confirms it: a `kill -9` from here on loses nothing it confirmed (§9.9).
        persist()
        // Confirmations go to the host, which checks (and times) every other member and stops the table at the
        // first hash that differs from its own; the host's own goes to the mover alone, which learns from it that its
        // move went through (PROTOCOL.md §9.4). The other members need not hear it: a divergence between any of them
        // and the host is the host's to find, and a frame per member per move is most of a move's cost.
        // When this node's bot plays next, its move follows at once and carries this hash: it is the confirmation.
        // A mover does not confirm its own move: it applied the move first, the move carries its word on the state
        // before, and its next confirmation or move covers the state after.
        // Not while paused: the bot plays only once every member is back, and the host would wait for this word
        // until then.
        let botPlaysNext =
            info.phase == .playing
            && (s.turn.seat.map { info.seats[$0].owner == me && info.seats[$0].bot != nil } ?? false)
        // A member voted out confirms nothing: nobody asks for its word (§9.12).
        if !botPlaysNext && !replaced.contains(me) && from != me {
            send(.confirm(table: id, number: number, stateHash: after), to: [isHost ? from : info.host])
        }
        if isHost && from != me { awaitConfirmations(of: number, mover: from) }
        emit(.moved(moveNumber: number, seat: seat, move: json, stateHash: after, text: text))
        for (node, hash) in inbox.confirms.removeValue(forKey: number) ?? [:] {
            recordConfirm(from: node, number: number, hash: hash)
        }
        return true
    }

    /// Compares a confirmation with this node's own hash after that move; the first difference stops the table.
    /// A confirmation that arrives before this node applied the move waits for it.
    mutating func recordConfirm(from: NodeID, number: Int, hash: StateHash) {
        guard number >= 0, number <= hashes.count + Self.maxPending, info.phase != .stopped else { return }
        guard number + 1 < hashes.count else {
            inbox.confirms[number, default: [:]][from] = hash
            return
        }
        let mine = hashes[number + 1]
        hashesChecked += 1
        guard hash.agrees(with: mine) else {
            // Not a fault while the sender may hold a move a member voted out played apart (§9.12): its word does not
            // count, and it syncs again once it drops that move. The results at the end are compared all the same.
            if let member = playedApart(upTo: number, by: from) {
                return out.append(
                    .log(
                        .notice,
                        "table \(id): \(ctx.name(from)) is elsewhere after move \(number): it may hold a move "
                            + "\(ctx.name(member)) played apart, and drops it once it agrees that takeover"))
            }
            let reason =
                "first diverging move \(number): \(ctx.name(from)) has \(hash.hex.prefix(16))…, "
                + "\(role == .auditor ? "the replay" : ctx.myName) has \(mine.hex.prefix(16))…"
            stop(.hashMismatch, reason, broadcast: true)
            return
        }
        // The host times every move until every member has confirmed it; a mover, its own until the host has.
        let awaited = confirmers
        guard var by = confirmedBy[number], awaited.contains(from) else { return }
        by.insert(from)
        if awaited.allSatisfy(by.contains) {
            play?.confirmedBy[number] = nil
            out.append(.moveConfirmed(id, number: number))
            cancelTimer(.confirmations(id, move: number))
        } else {
            play?.confirmedBy[number] = by
        }
    }

    /// Starts waiting (and the deadline, §9.8) for the confirmations of move `number`: this node's own is in, and
    /// the mover's (it sends none of its own move).
    mutating func awaitConfirmations(of number: Int, mover: NodeID? = nil) {
        let by: Set<NodeID> = mover.map { [me, $0] } ?? [me]
        // Two members, the host and the mover: nobody else's word to wait for.
        guard !confirmers.allSatisfy(by.contains) else { return }
        play?.confirmedBy[number] = by
        startTimer(.confirmations(id, move: number), after: ctx.peerReplyTimeout)
    }

    /// Whose confirmation of a move this node waits for: the host, every member's (not voted out); a mover that is
    /// not the host, the host's (§9.4, §9.8).
    var confirmers: [NodeID] { isHost ? activeMembers : [me, info.host] }

    // MARK: End

    mutating func finish() {
        guard let s = session, let outcome = s.outcome, !resultSent, sealedAuditDone() else { return }
        play?.resultSent = true
        let hash = s.stateHash
        // A race's winner is the first of its ranking, known once every member's vote is in (§10.3).
        log.winners = isRace ? nil : outcome.winners
        log.scores = outcome.scores
        log.finalHash = hash.hex
        if isMember && !replaced.contains(me) {
            sendToTable(.result(table: id, winners: outcome.winners, scores: outcome.scores, finalHash: hash))
            let mine = me
            play?.results[mine] = hash
            startTimer(.results(id), after: ctx.peerReplyTimeout)
        }
        // Results that came before this node reached the end are checked now.
        for (node, theirs) in results where node != me {
            hashesChecked += 1
            guard theirs == hash else { return finalMismatch(node, theirs, hash) }
        }
        takeRelayedResults()
    }

    mutating func handleResult(from: NodeID, finalHash: StateHash) {
        guard info.isMember(from), !replaced.contains(from), info.phase.isActive, checks, results[from] == nil
        else { return }
        guard play != nil else {
            // Before the seed here (a racer that finished while this node waited for the last reveal): it waits.
            inbox.results[from] = finalHash
            return
        }
        play?.results[from] = finalHash
        guard resultSent, let s = session else { return }
        hashesChecked += 1
        guard finalHash == s.stateHash else { return finalMismatch(from, finalHash, s.stateHash) }
        concludeIfAllResultsIn()
    }

    mutating func finalMismatch(_ node: NodeID, _ theirs: StateHash, _ mine: StateHash) {
        let me = role == .auditor ? "the replay" : ctx.myName
        stop(
            .finalHashMismatch,
            "\(ctx.name(node)) ended at \(theirs.hex.prefix(16))…, \(me) at \(mine.hex.prefix(16))…",
            broadcast: true)
    }

    /// With every member's result in and equal to this node's: the table is finished.
    mutating func concludeIfAllResultsIn() {
        // Not with a takeover agreed and not passed yet (held while a member is absent): the log must name it where
        // every other member's does, or the logs and records differ (§9.12).
        guard info.members.allSatisfy({ results[$0] != nil || replaced.contains($0) }), agreed.isEmpty,
            let s = session,
            let seed = jointSeed
        else { return }
        let ranking = raceRanking()
        // The members that played to the end, the same at every member and spectator: their logs are alike.
        var byName: [String: String] = [:]
        for node in membersToTheEnd { byName[ctx.name(node)] = s.stateHash.hex }
        log.finalHashes = byName
        announcePhase(.finished)
        persist()
        var result = TableResult(
            winners: log.winners ?? [], scores: log.scores ?? [], finalHash: s.stateHash, finalHashes: byName,
            jointSeed: seed, moves: s.moveNumber)
        result.ranking = ranking
        if let cheaters = log.sealedCheaters {
            result.sealed = cheaters.isEmpty ? "verified" : "cheated"
            result.cheaters = cheaters.isEmpty ? nil : cheaters.map { ctx.name($0) }
        }
        emit(.finished(result))
        out.append(.startTimer(.expire(id), after: ctx.overTableLifetime))
    }

    /// The members `finalHashes` lists (§9.12), each with the table's final hash (every result counted equals it): in a
    /// race those not replaced; turn-based, those no logged takeover replaced. A takeover agreed at the last move or
    /// after passes nothing and is not logged: some nodes agree it, others held the member's result and never needed
    /// it, so "not replaced" would list other members at other nodes.
    var membersToTheEnd: [NodeID] {
        guard !isRace else { return activeMembers }
        // The members at the start: a seatless host agreed out is no longer `info.members`, whose host moved on.
        let takenOver = Set((log.takeovers ?? []).map(\.member))
        return startMembers.filter { !takenOver.contains($0) }.sorted()
    }

    /// Stops the table with a report; tells the other members when this node found the fault.
    mutating func stop(_ code: StopCode, _ reason: String, broadcast: Bool) {
        guard !info.phase.isOver else { return }
        // The user's own leave is no fault: said, not raised as an error.
        let mine = code == .memberLeft || code == .abandoned
        out.append(.log(mine ? .notice : .error, "table \(id) stopped: \(code.rawValue): \(reason)"))
        if broadcast && !replaced.contains(me) { sendToTable(.stop(table: id, code: code, reason: reason)) }
        log.stopped = "\(code.rawValue): \(reason)"
        stopReason = (code, reason)
        announcePhase(.stopped)
        persist()
        emit(.stopped(code: code, message: reason))
        out.append(.startTimer(.expire(id), after: ctx.overTableLifetime))
    }
}
