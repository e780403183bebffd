import TavoloCore
import TavoloProtocol

/// Pause, don't stop; resume and catch up (PROTOCOL.md §9.10–9.11). A member lost during play pauses the table
/// here: moves already played still apply, none is played, and the member's grace period starts. When it comes
/// back — its connection returns, or its node restarts from its log — members exchange `table.sync`, and a member
/// that is behind gets the moves it misses in a `table.catch-up` from any member, each checked exactly as a live
/// move (same seat, legality and hash checks) and each relayed hash checked against every member's word.
extension TableMachine {
    /// Moves per `table.catch-up` message (a long game takes several).
    static let catchUpChunk = 128

    var absentNames: String { absent.sorted().map { ctx.name($0) }.joined(separator: ", ") }

    // MARK: Pause and resume

    mutating func memberLost(_ peer: NodeID) {
        guard play?.absence.absent.insert(peer).inserted == true else { return }
        let count = session?.moveNumber ?? 0
        play?.absence.lostAt[peer] = count
        // Deadlines of deals and bot moves start again on resume: a pause is no member's fault.
        for timer in awaited { cancelTimer(timer) }
        awaited = []
        startTimer(.grace(id, member: peer), after: .seconds(info.graceSeconds))
        if info.phase == .playing { announcePhase(.paused) }
        out.append(.log(.warning, "table \(id) paused: \(ctx.name(peer)) was lost; grace \(info.graceSeconds) s"))
        emit(
            .paused(
                members: absent.sorted().map { ctx.name($0) }, since: nil,
                message: "paused: \(absentNames) lost; a bot takes over after \(info.graceSeconds) s"))
        // The members still here agree on how far the game went before anyone votes (§9.12).
        for peer in activeMembers where peer != me && ctx.connected.contains(peer) { sendSync(to: peer) }
    }

    /// A member's session is established again: this node sends it every takeover vote it cast, then its sync.
    /// The member is back when its own sync arrives (`handleSync`).
    mutating func memberBack(_ peer: NodeID) { sendVotesAndSync(to: peer) }

    /// Every takeover vote this node cast, then its sync.
    mutating func sendVotesAndSync(to peer: NodeID) {
        // A member voted out (or one that missed a vote about another) learns it from the votes: it counts them like
        // everyone. They go before the sync, on the same connection, so a returning member knows every vote of
        // this node before it is told how far the game went (§9.12).
        if !replaced.contains(me) {
            // To a member voted out, the votes about it first and each with every voter this node counted, then the
            // others' likewise: some voters may have been voted out or gone since and could not tell it themselves,
            // and a spectator has no say, so it takes the table's takeovers as the members report them (§9.12).
            let spectator = replaced.contains(peer)
            for (member, byNumber) in votesInTellingOrder(to: peer) {
                for (n, voters) in byNumber.sorted(by: { $0.key < $1.key }) where voters.contains(me) {
                    let relayed = peer == member || spectator ? voters.sorted() : nil
                    send(.takeover(table: id, member: member, number: n, voters: relayed), to: [peer])
                }
            }
        }
        sendSync(to: peer)
    }

    /// The votes in the order they go to `peer` (§9.12): those about it; then those about members whose takeover this
    /// node agreed, the earliest first; then the rest. A member voted out counts a vote of a member cut off with it
    /// only until it learns that one was voted out too: told the others' votes first, it would count that vote with
    /// them and agree a takeover the table never agreed (a member the table kept, taken over at that node alone).
    func votesInTellingOrder(to peer: NodeID) -> [(member: NodeID, byNumber: [Int: Set<NodeID>])] {
        let takeovers = (log.takeovers ?? []).map { ($0.member, $0.number) } + agreed.map { ($0.member, $0.number) }
        let agreedAt = Dictionary(takeovers, uniquingKeysWith: min)
        func rank(_ m: NodeID) -> (Int, Int, NodeID) {
            m == peer ? (0, 0, m) : agreedAt[m].map { (1, $0, m) } ?? (2, 0, m)
        }
        return votes.sorted { rank($0.key) < rank($1.key) }.map { (member: $0.key, byNumber: $0.value) }
    }

    /// `peer`'s sync arrived after its session was established again: it is no longer absent.
    mutating func memberReturned(_ peer: NodeID) {
        guard play?.absence.absent.remove(peer) != nil else { return }
        play?.absence.graceOver.remove(peer)
        cancelTimer(.grace(id, member: peer))
        out.append(.log(.notice, "table \(id): \(ctx.name(peer)) is back"))
        castDeferredVotes()
        maybeResume()
    }

    /// With every member back (or replaced): play goes on.
    mutating func maybeResume() {
        guard info.phase == .paused, absent.isEmpty, !info.phase.isOver else { return }
        // Every member is back here, so no vote about this node holds its moves back any more. The votes stay
        // counted: a member whose grace ended before this node's sync reached it still votes, after its own sync,
        // and with the votes held here that may agree a takeover every other member agrees too (§9.12).
        play?.absence.votedAboutSinceResume = false
        announcePhase(.playing)
        emit(.resumed(message: "every member is back: play goes on"))
        if resultSent { startTimer(.results(id), after: ctx.peerReplyTimeout) }
        progress()
    }

    /// The members nobody has replaced.
    var activeMembers: [NodeID] { info.members.filter { !replaced.contains($0) } }

    // MARK: Sync and catch-up

    mutating func sendSync(to peer: NodeID) {
        guard isMember || isSpectator, let s = session, let hash = sequencer?.currentHash else { return }
        play?.absence.syncSent.insert(peer)
        send(.sync(table: id, moves: s.moveNumber, stateHash: hash), to: [peer])
    }

    mutating func handleSync(from: NodeID, moves: Int, hash: StateHash) {
        let message = TableMessage.sync(table: id, moves: moves, stateHash: hash)
        guard info.isMember(from) || replaced.contains(from), checks || isLeaversCopy, let s = session else {
            return dropped(message, from: from)
        }
        // Back, however far ahead: its votes came before this sync, so this node counted them already (§9.10).
        // Before it resumes play here: a restarted member then waits for the catch-up of moves its journal holds.
        if !replaced.contains(from) { noteSyncForJournal(moves: moves) }
        memberReturned(from)
        guard moves >= 0, moves <= s.moveNumber + Self.maxPending else { return dropped(message, from: from) }
        if s.isSimultaneous { return handleRaceSync(from: from, moves: moves, hash: hash) }
        // The sender's word on the state after `moves` moves: checked now, or when this node gets there. A member
        // voted out is answered (it follows the game) but has no say: its word is not asked for (§9.12).
        if replaced.contains(from) {
            // nothing to check
        } else if moves == 0 {
            hashesChecked += 1
            if hash != hashes[0] {
                stop(.hashMismatch, "\(ctx.name(from)) starts from another state", broadcast: true)
                return
            }
        } else {
            recordConfirm(from: from, number: moves - 1, hash: hash)
        }
        if isLeaversCopy {
            // The moves this node applied before it left may be held by nobody else (§9.12): a member behind gets
            // them, and nothing more (no votes, no sync: this node no longer plays).
            if moves < s.moveNumber { sendCatchUp(to: from, from: moves) }
            return
        }
        guard !info.phase.isOver || info.phase == .finished else { return }
        if moves < s.moveNumber {
            // A spectator relays nothing: the members have no use for its word.
            if !isSpectator { sendCatchUp(to: from, from: moves) }
        }
        // The host deals the current deal again to a member that comes back: one sent as its session broke is never
        // in a catch-up when both are at the same move (a deal already held is ignored, §9.4). Only while no member
        // was voted out or left: a member that missed a change of host would take the deal for one from a non-host.
        if let current = log.deals.last, current.number == s.dealNumber {
            if replaced.isEmpty && agreed.isEmpty {
                if isHost { send(.deal(table: id, number: current.number, cards: current.cards), to: [from]) }
            } else if moves == s.moveNumber, !isSpectator {
                // Once a member was replaced, any member at the same count relays the current deal in a catch-up:
                // it is checked against the joint seed, whoever sends it, so no change of host can make it a fault.
                let deal = RelayedDeal(number: current.number, cards: current.cards)
                send(.catchUp(table: id, deals: [deal], moves: []), to: [from])
            }
        }
        // A member that has not had this node's sync since its session came back gets it (with the votes first):
        // it is how the sender learns this node is back, even if this node saw no new session (a connection
        // replaced before its loss was noticed), and how a member behind asks the sender for what it misses.
        if !syncSent.contains(from) {
            sendVotesAndSync(to: from)
        } else if info.phase == .paused, moves > s.moveNumber, !replaced.contains(me) {
            // Paused and behind a member that moved on: this node's count tells it what to send (§9.10).
            sendSync(to: from)
        }
        // A member that was away may have missed this node's result, and those of members gone since (§9.5).
        resendResult(to: from)
        relayResults(to: from)
    }

    /// Sends `peer` every deal and the moves from `first` on, from this node's log.
    mutating func sendCatchUp(to peer: NodeID, from first: Int) {
        let deals = log.deals.map { RelayedDeal(number: $0.number, cards: $0.cards) }
        let moves: [RelayedMove] = log.moves.filter { $0.number >= first }.compactMap {
            guard let before = StateHash(hex: $0.before), let after = StateHash(hex: $0.after) else { return nil }
            return RelayedMove(number: $0.number, seat: $0.seat, move: $0.move, stateHash: before, after: after)
        }
        // A sealed table's moves open only with their cards' shares, which their senders may not be there to send
        // again: they go first, on the same connection (§14.12).
        if let game = sealedGame {
            for m in game.sealed.relay(movesFrom: first) { send(.sealed(table: id, m), to: [peer]) }
        }
        var start = 0
        repeat {
            let chunk = Array(moves[start..<min(moves.count, start + Self.catchUpChunk)])
            send(.catchUp(table: id, deals: start == 0 ? deals : [], moves: chunk), to: [peer])
            start += Self.catchUpChunk
        } while start < moves.count
    }

    mutating func handleCatchUp(from: NodeID, deals: [RelayedDeal], moves: [RelayedMove]) {
        // A member that forfeited relays the moves it applied before it left (§9.12), and has no say beyond them.
        let leftAt = forfeitNumber(of: from)
        guard info.isMember(from), !replaced.contains(from) || leftAt != nil, checks, info.phase.isActive,
            let s = session
        else {
            return dropped(.catchUp(table: id, deals: deals, moves: moves), from: from)
        }
        if s.isSimultaneous { return handleRaceCatchUp(from: from, moves: moves) }
        let moves = leftAt.map { n in moves.filter { $0.number < n } } ?? moves
        // Deals are checked against the joint seed when their turn comes, whoever relays them.
        for d in deals.prefix(Self.maxPending) where d.number > verifiedDeal && inbox.deals[d.number] == nil {
            inbox.deals[d.number] = d.cards
        }
        for m in moves.prefix(Self.maxPending) {
            if m.number >= s.moveNumber {
                let relayed = PendingMoves.Move(from: from, seat: m.seat, move: m.move, stateHash: m.stateHash)
                _ = inbox.pending.add(relayed, lane: PendingMoves.turns, number: m.number, limit: Self.maxPending)
            }
            // The relayer's hash after the move: checked when this node applies it (a relayer that slips in a
            // move never played ends at another hash than the members that played the real one). A leaver's is not
            // its word on the game.
            if leftAt == nil { recordConfirm(from: from, number: m.number, hash: m.after) }
            if info.phase.isOver { return }
        }
        progress()
        // Only relayed moves move a vote on: a catch-up of the current deal alone (§9.11) changes no count.
        if !moves.isEmpty { revoteIfBehind() }
    }

    // MARK: Seeding interrupted

    /// A member lost before the joint seed is known: the host reopens the table without the lost node (which may
    /// not sit there again: it might have withheld its nonce to draw again); a new start draws fresh nonces. A
    /// member waits for the host's reopening offer; losing the host itself stops the table (§9.13).
    mutating func seedingInterrupted(by peer: NodeID) {
        if isHost && jointSeed == nil {
            for i in info.seats.indices where info.seats[i].owner == peer { info.seats[i] = SeatInfo(seat: i) }
            lobby?.seedingDropouts.insert(peer)
            resetSeeding()
            info.phase = .open
            info.revision += 1
            out.append(
                .log(.notice, "table \(id): \(ctx.name(peer)) was lost while seeding; the table is open again"))
            announce()
        } else if peer == info.host || jointSeed != nil {
            stop(.memberLost, "\(ctx.name(peer)) was lost", broadcast: true)
        }
    }

    /// Forgets a seeding round: the next start draws a fresh nonce.
    mutating func resetSeeding() {
        cancelTimer(.seeding(id))
        var lobby = self.lobby ?? TableLobby()
        lobby.reseeds += 1
        lobby.openCommits = [:]
        lobby.early = SeedRound()
        stage = .open(lobby)
    }
}
