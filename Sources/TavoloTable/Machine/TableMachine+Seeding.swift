import TavoloCore
import TavoloProtocol

/// The joint seed by commit–reveal (PROTOCOL.md §9.3).
extension TableMachine {
    /// Seeding starts at every member when it sees the table started; only seat owners commit a nonce, a host
    /// without a seat (and an auditor) just waits for the reveals.
    mutating func beginSeeding() {
        guard case .open(var lobby) = stage else { return }
        // The host starts a round before anyone: what it saw while open is stale. A member may have seen a
        // participant's commitment of this round before the host's offer, or a stale one: it keeps the latest,
        // which the sender's next commitment may still replace once.
        var fresh = lobby.early
        lobby.early = SeedRound()
        if !isHost {
            for (node, c) in lobby.openCommits where fresh.commitments[node] == nil {
                fresh.commitments[node] = c
                fresh.adoptedCommits.insert(node)
            }
            for (node, c) in lobby.unseatedCommits
            where info.participants.contains(node) && fresh.commitments[node] == nil {
                fresh.commitments[node] = c
                if lobby.reseeds > 0 { fresh.adoptedCommits.insert(node) }
            }
        }
        lobby.openCommits = [:]
        lobby.unseatedCommits = [:]
        stage = .seeding(lobby, fresh)
        startTimer(.seeding(id), after: ctx.peerReplyTimeout)
        guard isMember, info.participants.contains(me), let nonce = nonces?.next() else {
            emit(.started(message: "seeding: waiting for the seat owners' reveals"))
            maybeSeed()
            return
        }
        round?.myNonce = nonce
        let commitment = JointSeed.commitment(for: nonce)
        let myself = me
        round?.commitments[myself] = commitment
        emit(.started(message: "seeding: committed to a nonce"))
        sendToTable(.commit(table: id, commitment: commitment))
        sendSealedKey()
        maybeReveal()
    }

    /// A node that asked for a seat and has not seen it granted yet: the offer that seats it, the start's, and the
    /// other participants' commitments and keys travel on different links, and the latter can be read first (§9.3).
    var awaitingSeat: Bool { info.phase == .open && !checks && seatRequestUnanswered }

    mutating func handleCommit(from: NodeID, commitment: String) {
        if info.phase == .open, !isHost, (checks && !info.participants.contains(from)) || awaitingSeat {
            guard commitment.utf8.count == 64, [UInt8](hexString: commitment) != nil,
                lobby?.unseatedCommits[from] != nil
                    || (lobby?.unseatedCommits.count ?? 0) < TableLobby.maxUnseatedCommits
            else { return dropped(.commit(table: id, commitment: commitment), from: from) }
            lobby?.unseatedCommits[from] = commitment
            return
        }
        guard info.participants.contains(from), !info.phase.isOver, checks else {
            return dropped(.commit(table: id, commitment: commitment), from: from)
        }
        if reseeds > 0 && info.phase == .open {
            guard commitment.utf8.count == 64, [UInt8](hexString: commitment) != nil else { return }
            lobby?.openCommits[from] = commitment
            return
        }
        if let earlier = commitments[from], round?.adoptedCommits.remove(from) != nil, reveals[from] == nil,
            earlier != commitment
        {
            round?.commitments[from] = commitment
            return
        }
        if let earlier = commitments[from] {
            if earlier != commitment { stop(.recommit, "\(ctx.name(from)) changed its commitment", broadcast: true) }
            return
        }
        guard commitment.utf8.count == 64, [UInt8](hexString: commitment) != nil else {
            stop(.badCommit, "\(ctx.name(from)) sent a malformed commitment", broadcast: true)
            return
        }
        round?.commitments[from] = commitment
        maybeReveal()
    }

    mutating func maybeReveal() {
        guard let nonce = myNonce, reveals[me] == nil, info.participants.allSatisfy({ commitments[$0] != nil }),
            hasSealedKeys()
        else { return }
        let myself = me
        round?.reveals[myself] = nonce
        sendSealedEscrow()
        sendToTable(.reveal(table: id, nonce: nonce.hexString))
        maybeSeed()
    }

    /// A participant's session came back while seeding: what this node sent the table for this round may not have
    /// reached it (a message is not sent while no session is up, and one in a session that broke is lost), and a
    /// reveal that reached it without its commitment stopped the table (§9.3). Its commitment goes to it again, its
    /// key at a sealed table, then its reveal once made; a receiver ignores the same ones twice. A sealed table of
    /// three or more does not send its reveal again: the escrow that must come before it is not kept to be resent.
    mutating func resendSeeding(to peer: NodeID) {
        guard case .seeding = stage, info.isMember(peer), let mine = commitments[me] else { return }
        send(.commit(table: id, commitment: mine), to: [peer])
        if let key = round?.sealedKeys[me] {
            send(.sealed(table: id, .key(table: id.rawValue, key: key.key, proof: key.proof)), to: [peer])
        }
        guard let nonce = reveals[me], !info.isSealed || info.participants.count < 3 else { return }
        send(.reveal(table: id, nonce: nonce.hexString), to: [peer])
    }

    mutating func handleReveal(from: NodeID, nonceHex: String) {
        // The same reveal again, sent when a session came back (`resendSeeding`): nothing new.
        if let known = reveals[from], known.hexString == nonceHex { return }
        guard info.participants.contains(from), reveals[from] == nil, info.phase.isActive || info.phase == .open,
            checks, reseeds == 0 || info.phase != .open
        else { return dropped(.reveal(table: id, nonce: nonceHex), from: from) }
        guard let commitment = commitments[from] else {
            stop(.earlyReveal, "\(ctx.name(from)) revealed before committing", broadcast: true)
            return
        }
        guard let nonce = [UInt8](hexString: nonceHex), nonce.count == JointSeed.nonceLength,
            JointSeed.commitment(for: nonce) == commitment
        else {
            stop(.badReveal, "\(ctx.name(from))'s nonce does not match its commitment", broadcast: true)
            return
        }
        round?.reveals[from] = nonce
        maybeSeed()
    }

    /// With every nonce verified: the joint seed, the game's first state, and play.
    mutating func maybeSeed() {
        // Seats are final only once this node has seen the table start.
        guard case .seeding(_, let round) = stage, info.phase == .seeding else { return }
        if isMember && info.participants.contains(me) && myNonce == nil { return }
        let order = info.participants
        let nonces = order.compactMap { round.reveals[$0] }
        guard nonces.count == order.count, let entry = ctx.catalog[info.game] else { return }
        // A sealed table's observer (its seatless host) reveals nothing, so nothing made it wait for the keys: a
        // reveal can overtake a member's key on another connection (§14.8 step 1). Checked once every reveal is in.
        if info.isSealed, isMember, !info.participants.contains(me), !hasSealedKeys() { return }
        let seed = JointSeed.seed(nonces: nonces)
        let game: any GameSession
        if info.isSealed {
            guard let sealed = makeSealedGame(seed: seed, round: round) else { return }
            game = sealed
        } else {
            do { game = try entry.session(players: info.players, seed: seed) } catch {
                stop(.setup, error.message, broadcast: true)
                return
            }
        }
        stage = .playing(TablePlay(seed: seed, sequencer: MoveSequencer(game: game), round: round))
        // What fast racers sent before the seed was known here: their results and finishing orders.
        let (results, orders) = (inbox.results, inbox.raceOrders)
        (inbox.results, inbox.raceOrders) = ([:], [:])
        play?.results = results
        play?.race.orders = orders
        // Moves that overtook the seed wait in their game's lanes; any other kind can never come due.
        inbox.pending.keepLanes { game.isSimultaneous ? $0 >= 0 : $0 == PendingMoves.turns }
        log.jointSeed = seed
        log.initialHash = game.stateHash.hex
        log.participants = order.map {
            GameLog.Participant(
                node: $0, name: ctx.name($0), commitment: commitments[$0] ?? "", nonce: reveals[$0]?.hexString)
        }
        journalSealedStart(round: round)
        announcePhase(.playing)
        persist()
        emit(.seeded(stateHash: game.stateHash))
        sealedPlayBegan()
        progress()
    }
}
