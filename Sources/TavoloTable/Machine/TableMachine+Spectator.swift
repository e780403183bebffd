import TavoloCore
import TavoloProtocol

/// A member voted out follows the rest of the game as a spectator of its former seats (PROTOCOL.md §9.12). The
/// members keep sending it the table's messages; it checks every deal and move exactly as a member does, and gets
/// syncs and catch-ups like one, but it plays nothing, votes nothing, confirms nothing and is waited for by nobody:
/// its messages other than `table.sync` are dropped. It ends with the same log as every member.
extension TableMachine {
    /// This node learns that it was voted out at move `number`: it follows the game from there (and drops the moves
    /// it played alone, below).
    mutating func becomeSpectator(from number: Int) {
        emit(.updated)
        dropMoves(of: me, from: number)
    }

    /// A takeover of `member` at move `number` is agreed here. Before, this node may have applied moves of
    /// `member`'s seats from `number` on: its own (stopped, then let go on, it played before it saw its links were
    /// gone), or those of a member cut off with it. They are not the table's, whose moves of these seats from
    /// `number` on are the heir's. It drops them and rebuilds its game from its log up to the first of them,
    /// exactly as a restart does (§9.11), then asks for the table's moves.
    /// Returns whether it dropped moves and asked the members for theirs.
    @discardableResult
    mutating func dropMoves(of member: NodeID, from number: Int) -> Bool {
        guard let s = session, !s.isSimultaneous else { return false }
        let theirs = Set(info.seats.filter { $0.owner == member }.map(\.seat))
        guard let first = log.moves.first(where: { $0.number >= number && theirs.contains($0.seat) }) else {
            return false
        }
        // A takeover logged after that point would have to be undone too: then this node cannot follow, and
        // says so when the table's moves reach it (a hash mismatch here only: it has no say).
        guard (log.takeovers ?? []).allSatisfy({ $0.appliedAt <= first.number }) else { return false }
        // A sealed game is not rebuilt from its log: it begins again from its journal, nothing played (§14.12).
        if info.isSealed {
            let notice =
                "table \(id): \(ctx.name(member)) voted out from move \(number); the sealed game begins again here "
                + "without moves \(first.number)–\(s.moveNumber - 1) played apart from the table"
            guard restartSealedGame(notice: notice) else {
                stop(
                    .sealedUnsupported, "moves played apart from a sealed table cannot be taken back", broadcast: false)
                return false
            }
            askForTheTablesMoves()
            return true
        }
        return dropMoves(
            from: first.number,
            notice: "table \(id): \(ctx.name(member)) voted out from move \(number); dropping moves "
                + "\(first.number)–\(s.moveNumber - 1) played apart from the table")
    }

    /// Drops this node's moves from `first` on, rebuilds its game from its log up to there (as a restart does), and
    /// asks the members for the table's moves from there.
    @discardableResult
    mutating func dropMoves(from first: Int, notice: String) -> Bool {
        guard rebuild(keeping: Array(log.moves.prefix { $0.number < first }), notice: notice) else { return false }
        // What waited for moves after the dropped ones was the word of a game this node no longer has.
        inbox = TableInbox(confirms: inbox.confirms.filter { $0.key < first })
        askForTheTablesMoves()
        return true
    }

    /// After dropping moves: the log on disk, and a sync to every member, which answers with what this node misses.
    mutating func askForTheTablesMoves() {
        persist()
        play?.absence.syncSent = []
        for peer in activeMembers where peer != me && ctx.connected.contains(peer) { sendSync(to: peer) }
    }

    /// Rebuilds the game from this node's log with only `kept` of its moves, exactly as a restart does (§9.11), and
    /// forgets the end it had reached; false (and said) when that log does not replay. Logs `notice` when it does.
    mutating func rebuild(keeping kept: [GameLog.LoggedMove], notice: String) -> Bool {
        var trimmed = log
        trimmed.table = info
        trimmed.moves = kept
        (trimmed.winners, trimmed.scores, trimmed.ranking, trimmed.raceVotes) = (nil, nil, nil, nil)
        (trimmed.finalHash, trimmed.finalHashes) = (nil, [:])
        let rebuilt: TableMachine
        do { rebuilt = try TableMachine(replaying: trimmed, ctx) } catch {
            out.append(.log(.error, "table \(id): cannot drop the moves played here alone: \(error.message)"))
            return false
        }
        guard var fresh = rebuilt.play, let current = play else { return false }
        out.append(.log(.notice, notice))
        // The game, its deals, confirmations and results are the rebuilt ones; who is away, the votes and the
        // race's timers and reports are the table's, whatever this node played alone.
        fresh.absence = current.absence
        fresh.race = current.race
        fresh.yourTurnAnnounced = current.yourTurnAnnounced
        play = fresh
        log.moves = kept
        log.deals = log.deals.filter { $0.number <= fresh.verifiedDeal }
        (log.winners, log.scores, log.ranking, log.raceVotes, log.finalHash) = (nil, nil, nil, nil, nil)
        return true
    }

    /// The member whose takeover may explain why `sender`'s word on the state after move `number` differs from this
    /// node's: one replaced (logged or agreed here) from a number at or below `number`, not `sender`, with a move of its
    /// seats between. A member that has not agreed that takeover yet may have applied the leaver's own move there,
    /// played apart and relayed to it; it drops that move once it agrees, and syncs again (§9.12).
    func playedApart(upTo number: Int, by sender: NodeID) -> NodeID? {
        guard session?.isSimultaneous == false else { return nil }
        let logged = (log.takeovers ?? []).map { ($0.member, $0.number, Set($0.seats)) }
        let waiting = agreed.map { t in
            (t.member, t.number, Set(info.seats.filter { $0.owner == t.member }.map(\.seat)))
        }
        return (logged + waiting).first { member, from, seats in
            member != sender
                && log.moves.contains { $0.number >= from && $0.number <= number && seats.contains($0.seat) }
        }?.0
    }

    /// The seats whose takeover this node knows: passed (logged), or agreed and waiting for their point.
    var seatsTakenOver: Set<Int> {
        let members = Set(agreed.map(\.member))
        return Set(
            (log.takeovers ?? []).flatMap(\.seats)
                + info.seats.filter { $0.owner.map(members.contains) == true }.map(\.seat))
    }

    /// The seats this node played before it was voted out, while it follows the game as a spectator.
    var formerSeats: [Int] {
        guard isSpectator else { return [] }
        let passed = (log.takeovers ?? []).filter { $0.member == me && !$0.forfeit }.flatMap(\.seats)
        let pending = agreed.contains { $0.member == me } ? info.seats.filter { $0.owner == me }.map(\.seat) : []
        return (passed + pending).sorted()
    }

    /// The votes that count here for `member`'s takeover at `number`. A node voted out has no say: the vote it cast
    /// before it knew no longer counts here, or it would agree a takeover with one other voter that the members, who
    /// drop its votes, never agree (§9.12). Nor, there, does a vote another member voted out cast once it no longer
    /// played (from the count it was voted out from; a forfeit's leaver voted before it left): members cut off
    /// together voted with each other, and once voted out, each would count those votes with the members' relayed
    /// ones and agree a takeover the table never did.
    func countedVoters(about member: NodeID, at number: Int) -> Int {
        let spectator = replaced.contains(me)
        return votes[member]?[number]?.filter { voter in
            !(spectator && voter == me) && !(spectator && cameAfterOut(voter, number))
        }.count ?? 0
    }

    /// Whether `voter` was agreed out before it cast a vote at `number`: voted out from `number` or below, or
    /// forfeited below it (a leaver votes before it leaves).
    func cameAfterOut(_ voter: NodeID, _ number: Int) -> Bool {
        let logged = (log.takeovers ?? []).first { $0.member == voter }.map { ($0.number, $0.forfeit) }
        guard
            let (out, forfeit) = logged ?? agreed.first(where: { $0.member == voter }).map({ ($0.number, $0.forfeit) })
        else { return false }
        return forfeit ? number > out : number >= out
    }
}
