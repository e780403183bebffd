import TavoloCore
import TavoloProtocol

/// A bot takes the seat (PROTOCOL.md §9.12–9.13): after a lost member's grace period, each remaining member votes
/// that its seats pass to a bot from the move it has reached; a strict majority of the table's members voting for
/// the same move agrees it. A member that leaves during play forfeits: its seats pass the same way, at the move it
/// names. Either way the seats change hands before the member's seats' first move numbered at least the agreed
/// one (or at the end), a point every member's log has in the same place, so every node and every replay applies
/// it at the same move.
extension TableMachine {
    /// The table's members at the start of play: those playing now and those already voted out or forfeited.
    var startMembers: Set<NodeID> { Set(info.members).union(replaced) }

    /// Who takes the host's jobs if its takeover is agreed now (§9.13).
    var hostSuccessor: NodeID? {
        HeirOrder.first(of: startMembers.filter { !replaced.contains($0) && $0 != info.host }, jointSeed: jointSeed)
    }

    /// A strict majority of the table's members at the start of play, the lost ones and the replaced counted: the
    /// same number at every node, whatever takeovers it already agreed.
    var quorum: Int { startMembers.count / 2 + 1 }

    /// Members that can still vote here: not absent, not replaced.
    var possibleVoters: Int { startMembers.subtracting(replaced).subtracting(absent).count }

    mutating func graceEnded(_ member: NodeID) {
        guard absent.contains(member), info.phase == .paused, isMember, !replaced.contains(me), session != nil else {
            return
        }
        play?.absence.graceOver.insert(member)
        let sealedPlayer = sealedSeatsCannotPass(member)
        if possibleVoters < quorum || sealedPlayer {
            let why =
                sealedPlayer
                ? "a sealed table of two players cannot give a player's seats to a bot (its secret left with it)"
                : "no majority can vote a bot in"
            emit(
                .paused(
                    members: absent.sorted().map { ctx.name($0) }, since: nil,
                    message:
                        "grace over: \(absentNames) did not come back and \(why); "
                        + "`tavolo leave` ends the table as abandoned"))
        }
        joinEarlierVote(about: member)
        vote(member)
    }

    /// Votes that `member`'s seats pass to a bot from the move this node has reached.
    mutating func vote(_ member: NodeID) {
        guard let s = session, myVote[member] != s.moveNumber, !replaced.contains(member), !replaced.contains(me),
            mayVote, !sealedSeatsCannotPass(member)
        else {
            return
        }
        cast(member: member, number: s.moveNumber)
        countVote(member: member, number: s.moveNumber, from: me)
    }

    /// Casts this node's vote that `member`'s seats pass from move `number`: journaled, then sent to the table.
    mutating func cast(member: NodeID, number: Int) {
        play?.absence.myVote[member] = number
        // Journaled before it leaves, like a move: a node restarted after voting still counts its vote, which the
        // others counted (§9.11); otherwise they agree a takeover it never agrees, and it waits for the member.
        log.ownVotes = myVote.sorted { $0.key < $1.key }.map { GameLog.OwnVote(member: $0.key, number: $0.value) }
        persist()
        sendToTable(.takeover(table: id, member: member, number: number))
        let mine = me
        play?.absence.votes[member, default: [:]][number, default: []].insert(mine)
    }

    mutating func handleTakeoverVote(from voter: NodeID, member: NodeID, number: Int, relaying relayed: [NodeID] = []) {
        // A vote about a member already replaced (sent again on reconnection) changes nothing: not a fault. Unless
        // this node, voted out, agreed that member's forfeit apart and a member tells it the table voted instead.
        if replaced.contains(member), takeTheTablesVote(about: member, number: number, from: voter, relaying: relayed) {
            return
        }
        if replaced.contains(member), takeLowerCount(of: member, to: number, voter: voter) { return }
        if replaced.contains(member) && info.isMember(voter) && !replaced.contains(voter) { return }
        // After the end here the vote decides nothing; the voter waits for a result (and, in a race, a finishing
        // order) this node can hand on (§9.5).
        if info.phase == .finished { return answerVoteAfterTheEnd(from: voter, about: member) }
        guard checks, info.phase.isActive, session != nil, info.isMember(voter), info.isMember(member),
            voter != member, !replaced.contains(voter), number >= 0
        else { return dropped(.takeover(table: id, member: member, number: number, voters: relayed), from: voter) }
        // Converge on one move: a voter ahead has moves this node misses; one behind misses this node's.
        if role == .node, graceOver.contains(member), !replaced.contains(me), let s = session {
            if number > s.moveNumber {
                sendSync(to: voter)
            } else if number < s.moveNumber {
                sendCatchUp(to: voter, from: number)
            } else if let mine = myVote[member], mine < number {
                // This node reached the voter's count since its own vote, with no catch-up (a race's moves go on
                // while a seatless member is away): it votes again there, or the two votes never meet.
                vote(member)
            }
        }
        // The votes about this node that another voter counted: only the member voted out takes them, and only
        // from members at the start of play (it can learn no more than that it no longer plays). Once voted out,
        // it has no say: it takes the voters of every takeover a member reports, to follow the table's.
        if member == me || replaced.contains(me) {
            for other in relayed where other != me && other != voter && startMembers.contains(other) {
                play?.absence.votes[member, default: [:]][number, default: []].insert(other)
            }
        }
        countVote(member: member, number: number, from: voter)
    }

    mutating func countVote(member: NodeID, number: Int, from voter: NodeID) {
        play?.absence.votes[member, default: [:]][number, default: []].insert(voter)
        if member == me { play?.absence.votedAboutSinceResume = true }
        guard countedVoters(about: member, at: number) >= quorum else { return }
        agree(member: member, number: number, forfeit: false)
    }

    mutating func handleForfeit(from: NodeID, number: Int, signature: SignatureObject?, seatMoves: [Int]? = nil) {
        // Sent again on reconnection (§9.12): a forfeit already agreed, or one that comes after the end, changes
        // nothing and is no fault.
        if replaced.contains(from) || (info.phase.isOver && info.isMember(from)) { return }
        // A race's per-seat counts, when given, are one per seat, none negative, and add up to `number` (§10.6).
        let countsFit = seatMoves.map { c in
            isRace && c.count == info.players && c.allSatisfy { $0 >= 0 } && c.reduce(0, +) == number
        }
        guard checks, info.phase.isActive, session != nil, info.isMember(from), number >= 0, countsFit ?? true else {
            return dropped(.forfeit(table: id, number: number, signature: signature, seatMoves: seatMoves), from: from)
        }
        // Another node's signature is not its to give (it could only make the loss count for the wrong node).
        let signature = signature?.node == from.hex ? signature : nil
        agree(member: from, number: number, forfeit: true, signature: signature, seatMoves: seatMoves)
    }

    /// A race's count of every seat's moves applied here, as a forfeit names it (§10.6); nil turn-based.
    var raceSeatMoves: [Int]? { isRace ? (0..<info.players).map(raceNext) : nil }

    /// The local user leaves during play: a forfeit (alone at its table, nobody plays on), or, when the grace is over
    /// and no majority can ever form, the end of the table as abandoned; after the last move, nothing (it is decided).
    mutating func leaveDuringPlay() {
        guard let s = session else { return }
        if info.phase == .paused && !graceOver.isEmpty && (possibleVoters < quorum || waitsForASealedPlayer) {
            stop(.abandoned, "\(ctx.myName) ended the table: \(absentNames) did not come back", broadcast: true)
            return
        }
        // The game is over here (its last move applied, this node's result sent): there is nothing left to forfeit.
        // The copy stays until every member's result is in, as if nobody had left, so every node lists this one's
        // result alike (§9.12); a forfeit now would reach some members after they concluded and others before.
        if s.turn == .terminal, resultSent {
            out.append(.log(.notice, "table \(id): \(ctx.myName) left after the last move: the table ends as played"))
            return
        }
        // Signed, so the loss counts for this node wherever the record goes (§11.7).
        let signature = jointSeed.flatMap { ctx.signForfeit?(id, $0, s.moveNumber) }
        sendSealedForfeitSecret(to: recipients)
        sendToTable(.forfeit(table: id, number: s.moveNumber, signature: signature, seatMoves: raceSeatMoves))
        play?.absence.forfeitedAt = s.moveNumber
        play?.absence.forfeitSignature = signature
        agree(member: me, number: s.moveNumber, forfeit: true, signature: signature, seatMoves: raceSeatMoves)
        let playsOn = activeMembers.contains { $0 != me } ? "; a bot plays their seats" : ""
        stop(.memberLeft, "\(ctx.myName) left the game: it is lost for them\(playsOn)", broadcast: false)
    }

    /// A takeover is agreed here: nobody waits for the member any more; its seats change hands at their move.
    mutating func agree(
        member: NodeID, number: Int, forfeit: Bool, signature: SignatureObject? = nil, seatMoves: [Int]? = nil
    ) {
        guard !replaced.contains(member), info.isMember(member) else { return }
        guard startMembers.contains(where: { $0 != member && !replaced.contains($0) }) else { return }
        // Seconded: a member that agrees a takeover without having voted for it at that number (its grace for the
        // member had not ended yet, or it voted at another count) votes for it now. A voter may be gone before its
        // vote reached every member, and a member that misses it would otherwise never see a majority (§9.12).
        if !forfeit, isMember, member != me, !replaced.contains(me), session != nil, myVote[member] != number {
            cast(member: member, number: number)
        }
        play?.absence.replaced.insert(member)
        // A member voted out follows the rest of the game; one that forfeited has left it.
        if !forfeit { play?.absence.spectators.insert(member) }
        play?.absence.absent.remove(member)
        play?.absence.graceOver.remove(member)
        cancelTimer(.grace(id, member: member))
        // What it said of the moves from `number` on is not the table's word (it had no say there): a catch-up it
        // relayed before it knew, with a move played apart, and its confirmations of such moves.
        inbox.pending.drop(from: member, numberedFrom: number, in: [PendingMoves.turns])
        for n in inbox.confirms.keys where n >= number { inbox.confirms[n]?.removeValue(forKey: member) }
        let bot = info.takeoverBot ?? ctx.catalog[info.game]?.defaultBot ?? "random"
        let takeover = AgreedTakeover(
            member: member, number: number, bot: bot, forfeit: forfeit, signature: signature, seatMoves: seatMoves)
        play?.absence.agreed.append(takeover)
        takeBackSeatlessTakeovers(passingAfter: member, at: number)
        renameHeirs(passedTo: member, outBelow: number)
        // The heir as it stands now; it is named again when the seats pass (heir(of:at:)). At a sealed table it acts
        // for the member at once: the others' cards may need its shares before its seats' turn comes (§14.11).
        guard let heir = heir(of: takeover, at: number) else { return }
        sealedPass(member, to: heir)
        if member == info.host { passHostJobs(forfeit: forfeit) }
        out.append(
            .log(
                .notice,
                "table \(id): \(ctx.name(member)) \(forfeit ? "forfeits" : "is voted out") from move \(number); "
                    + "\(ctx.name(heir))'s \(bot) takes its seats"))
        if member == me && !forfeit { becomeSpectator(from: number) } else { dropMoves(of: member, from: number) }
        // Moves the heir's bot played before this node agreed were refused here: the others have them.
        for peer in activeMembers where peer != me && ctx.connected.contains(peer) { sendSync(to: peer) }
        maybeResume()
        progress()
        // The game may be over already, waiting for this member's result: nobody waits for it now.
        if resultSent { concludeIfAllResultsIn() }
    }

    /// The deals the new host sent before this node agreed it is the host: now the host's; any other sender's stay
    /// a fault the moment it would matter (they are dropped: the host deals again where one is missing).
    mutating func takeDealsFromSuccessor(_ host: NodeID) {
        for (number, deal) in inbox.dealsFromSuccessor where deal.from == host && number > verifiedDeal {
            if inbox.deals[number] == nil { inbox.deals[number] = deal.cards }
        }
        inbox.dealsFromSuccessor = [:]
    }

    /// Whether `node` is to play `seat` once an agreed takeover applies (its move may come before that point here).
    /// `move`: the number of the turn-based move `node` sent for the seat, whose point it is (the seats pass just
    /// before it, when it is their first from the agreed number on): a member agreed out below it is no heir there,
    /// even if it still is at the move this node has reached.
    func isHeir(_ node: NodeID, of seat: Int, move: Int? = nil) -> Bool {
        let point = max(move ?? session?.moveNumber ?? 0, 0)
        return agreed.contains {
            info.seats[safe: seat]?.owner == $0.member && heir(of: $0, at: max($0.number, point)) == node
        }
    }

    /// Who takes `t`'s seats when they pass at move `point` (§9.12): the first in `HeirOrder` among the members at
    /// the start of play other than `t.member`, leaving out those whose seats already passed and those voted out (or
    /// forfeited) at a number below `point`. Named when the seats pass, not when the takeover is agreed: members
    /// cut off together are agreed out in an order that differs from node to node, but every node knows all of
    /// them before it plays on (§9.10, and no seat passes while a member is absent), so all
    /// name the same heir. A member voted out at `point` or later was still playing when `point` moves were applied:
    /// it may inherit (one out at `point` passes the seats on at once), whether or not this node knew of its takeover
    /// when the seats passed.
    func heir(of t: AgreedTakeover, at point: Int) -> NodeID? {
        heir(of: t.member, at: point, passed: Set((log.takeovers ?? []).map(\.member)))
    }

    /// The heir of `member`'s seats at `point`, leaving out the members in `passed` (those whose takeovers passed
    /// before) and those agreed out below `point`.
    func heir(of member: NodeID, at point: Int, passed: Set<NodeID>) -> NodeID? {
        let out = Set(agreed.filter { $0.number < point }.map(\.member))
        // At a sealed table only a member of the deck can act for a leaver (§14.11): a seatless host holds no piece.
        let pool = info.isSealed ? Set(sealedMembers) : startMembers
        let candidates = pool.filter { $0 != member && !passed.contains($0) && !out.contains($0) }
        return HeirOrder.first(of: candidates, jointSeed: jointSeed)
    }

    /// Hands agreed seats to their bot when their move comes (or at the end). Called before each move.
    mutating func applyDueTakeovers() {
        // Not while a member is absent here: its takeover may still be agreed, and it must count when the heir is
        // named (heir(of:at:)). Moves of those seats wait meanwhile; none is played while paused anyway.
        guard !agreed.isEmpty, absent.isEmpty else { return }
        // A sealed deck passes seats only where an escrow gives the heir the leaver's secret (§14.11, §14.14).
        if let reason = sealedCannotPass() { return stop(.sealedUnsupported, reason, broadcast: true) }
        // One at a time, the earliest point first, as a node that followed the game live passed them: a takeover's
        // seats include those its member inherited from an earlier one, and its heir is named knowing who passed
        // before it (§9.12). A node that learns several votes at once (back from a partition, catching up) would
        // otherwise pass a later one first, with other seats or another heir.
        while let s = session, let next = nextDueTakeover(s) {
            play?.absence.agreed.removeAll { $0.member == next.takeover.member }
            // Turn-based, agreed at the last move or after (the member was lost once the game was decided): nothing
            // passes and nothing is logged, as at a node that had concluded before it heard (§9.12). Not in a race:
            // a seatless member's takeover passes there at once, before a node behind knows where the game ends.
            if !s.isSimultaneous, s.turn == .terminal, next.takeover.number >= s.moveNumber { continue }
            pass(next.takeover, seats: next.seats, to: next.heir, appliedAt: next.appliedAt, at: s)
        }
        // The game may be over here, its results waiting for the takeovers to pass.
        if agreed.isEmpty, resultSent { concludeIfAllResultsIn() }
    }

    /// The agreed takeover to pass now, if any: of those due, the one whose seats pass first (`appliedAt`; at one
    /// point, turn-based, a seatless member's last; then the members' ids: the same at every node whatever order it
    /// agreed them in).
    func nextDueTakeover(_ s: any GameSession) -> (
        takeover: AgreedTakeover, seats: [Int], heir: NodeID, appliedAt: Int
    )? {
        // At one point, turn-based, a seatless member's takeover passes after the others: it may inherit their seats
        // there (§9.12) and pass them on, as at a node that passed those while it still played.
        func rank(_ appliedAt: Int, _ seats: [Int], _ member: NodeID) -> (Int, Int, NodeID) {
            (appliedAt, !s.isSimultaneous && seats.isEmpty ? 1 : 0, member)
        }
        var best: (takeover: AgreedTakeover, seats: [Int], heir: NodeID, appliedAt: Int)?
        for t in agreed.sorted(by: { ($0.number, $0.member) < ($1.number, $1.member) }) {
            let seats = info.seats.filter { $0.owner == t.member }.map(\.seat)
            // A race has no seat to play: its seats pass once this node has every move the vote counted (§10.6).
            // A member with no seat passes nothing, but not before the agreed move either: a node still behind it (a
            // member voted out, catching up) would otherwise count it as passed when naming an earlier takeover's
            // heir, and never pass on the seats it inherits before its number.
            // A race's forfeit names its per-seat counts: every seat's moves the leaver had must be in here, or the
            // heir would play on from a move of the leaver's seat that this node still misses (§10.6).
            let reached =
                t.seatMoves.map { counts in counts.indices.allSatisfy { raceNext($0) >= counts[$0] } }
                ?? (s.moveNumber >= t.number)
            let appliedAt = appliedAt(t, seats: seats, s)
            // A turn-based takeover is also due once its point is behind: a move of its seats from `number` on is in
            // the log already, applied (played by the heir) while another member was absent here.
            let passedPoint = !s.isSimultaneous && !seats.isEmpty && appliedAt < s.moveNumber
            let due =
                s.turn == .terminal || (seats.isEmpty && (s.isSimultaneous || reached)) || passedPoint
                || (reached && (s.isSimultaneous || s.turn.seat.map(seats.contains) == true))
            // In a race every takeover passes at its agreed count, so they pass in that order: a seatless member's,
            // due at once, waits for those agreed at a lower count (it may inherit their seats).
            if !due, s.isSimultaneous { break }
            // A takeover that passes no seat gives nothing to anyone: its logged heir is the first in the heirs' order
            // among the other members at the start, whoever is out, so nodes that learn the votes at other times log
            // the same (§9.12).
            let heir =
                seats.isEmpty
                ? HeirOrder.first(of: startMembers.filter { $0 != t.member }, jointSeed: jointSeed)
                : heir(of: t, at: appliedAt)
            guard due, let heir else { continue }
            if let b = best, rank(b.appliedAt, b.seats, b.takeover.member) <= rank(appliedAt, seats, t.member) {
                continue
            }
            best = (t, seats, heir, appliedAt)
        }
        return best
    }

    /// The move count at which `t`'s seats pass, the same in every log: the agreed number for a member with no seat
    /// or in a race; else the first move of its seats numbered `number` or more (a node that agreed late, after
    /// catching up past that move, names that move too), or the move about to be played.
    func appliedAt(_ t: AgreedTakeover, seats: [Int], _ s: any GameSession) -> Int {
        if seats.isEmpty || s.isSimultaneous { return t.number }
        let firstOwnMove = log.moves.first { $0.number >= t.number && seats.contains($0.seat) }?.number
        return min(firstOwnMove ?? s.moveNumber, s.moveNumber)
    }

    /// Gives `t`'s seats to `heir`'s bot, logs the takeover where every node logs it, and says so.
    private mutating func pass(
        _ t: AgreedTakeover, seats: [Int], to heir: NodeID, appliedAt: Int, at s: any GameSession
    ) {
        for seat in seats {
            info.seats[seat].owner = heir
            info.seats[seat].ownerName = ctx.name(heir)
            info.seats[seat].bot = t.bot
        }
        // Moves the member sent that were waiting are no longer its to play.
        inbox.pending.drop(from: t.member, in: Set(seats + [PendingMoves.turns]))
        log.table = info
        // A member with no seat (a host that only hosts) passes nothing, and a race's seats pass at the agreed move
        // count (§10.6), however many moves of the other seats a node applied before it got there (a member that
        // was away catches up first): either way the log names the agreed move, the same everywhere.
        // A turn-based member's seats pass just before its first move numbered `number` or more (§9.12): a node
        // that agreed late, after catching up past that move (relayed, played by the heir), logs that point too.
        // In a canonical order (`appliedAt`, inheritance, members' ids): a race's host without a seat passes
        // nothing and is due at once, its seated members when their moves are in, so nodes that learn the votes at
        // other times would otherwise log the same takeovers in other orders.
        log.takeovers = GameLog.LoggedTakeover.canonicalOrder(
            (log.takeovers ?? []) + [
                GameLog.LoggedTakeover(
                    member: t.member, memberName: ctx.name(t.member), seats: seats, heir: heir, bot: t.bot,
                    number: t.number, appliedAt: appliedAt, forfeit: t.forfeit, signature: t.signature)
            ])
        persist()
        sealedPass(t.member, to: heir)
        let list = seats.map(String.init).joined(separator: ", ")
        // Passed behind their point (the heir's moves of those seats applied meanwhile, while another member was
        // absent here): every member's copy of the seats' bot drew for each of those moves, so this node replays its
        // log as a restart does and plays on with the replay's game, whose copy drew as theirs did (§9.12).
        // Not at a sealed table: nobody checks the heir's moves there (its hand is the heir's alone, §14.11).
        if !s.isSimultaneous, !seats.isEmpty, appliedAt < s.moveNumber, !info.isSealed {
            catchUpHeirBots(of: seats)
        }
        let plays = "\(ctx.name(heir))'s bot (\(t.bot)) plays seat\(seats.count == 1 ? "" : "s") \(list)"
        let message =
            t.member == me && !t.forfeit
            ? "you were voted out: \(plays) from move \(s.moveNumber + 1); you follow the game as a spectator"
            : "\(ctx.name(t.member)) \(t.forfeit ? "forfeited" : "did not come back"): \(plays) "
                + "from move \(s.moveNumber + 1)"
        emit(.takenOver(seats: seats, message: message))
    }

    /// Replays this node's log and plays on with the replay's game: the same state, its bots' streams where a restart
    /// puts them, the inherited seats' bots included. Nothing else of the table changes. The seats' logged moves from
    /// their point on came before their bot existed here (relayed, checked only as §9.4 checks any move): the first
    /// that is not the bot's (one the leaver played apart, relayed by a member that applied it) is dropped with what
    /// follows, and the table's moves asked for again, as for moves played apart (§9.12).
    private mutating func catchUpHeirBots(of seats: [Int]) {
        var replayed = log
        replayed.table = info
        var notTheBots: Int?
        do throws(TableError) {
            let scratch = try TableMachine(replaying: replayed, ctx, firstMoveNotTheBots: &notTheBots)
            if let first = notTheBots {
                dropMoves(
                    from: first,
                    notice: "table \(id): seats \(seats) passed behind their point; their move \(first) is not their "
                        + "bot's: dropping moves \(first)–\(log.moves.count - 1)")
                return
            }
            guard let game = scratch.session, play?.sequencer.takeReplayedGame(game) == true
            else { throw TableError(.unknown, "the replay ends elsewhere") }
            out.append(.log(.notice, "table \(id): seats \(seats) passed behind their point; their bot replayed"))
        } catch {
            out.append(.log(.error, "table \(id): cannot replay the bot of seats \(seats): \(error.message)"))
        }
    }
}
