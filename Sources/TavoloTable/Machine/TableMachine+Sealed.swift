import TavoloCore
import TavoloProtocol
import TavoloSealed

/// A table dealt from a sealed deck (PROTOCOL.md §14): the members' keys while seeding, the game as a
/// `SealedTableGame` (the sequencer hashes its public completion, the seats play from this node's cards), each card
/// move opened before it is applied, and the audit before the result. The rules of the deck itself are
/// `TavoloSealed.SealedTable`'s; this file routes the table's messages to it and its answers to the table.
extension TableMachine {
    /// The sealed game, at a sealed table (an open deck's hot path pays one flag test, no cast).
    var sealedGame: SealedTableGame? { info.isSealed ? session as? SealedTableGame : nil }

    /// Member `j` of a sealed deck is the `j`-th participant at the seed (§14.1): the log's list once there is one,
    /// which a takeover leaves as it is (the table's own list follows the seats' owners).
    var sealedMembers: [NodeID] { log.participants.isEmpty ? info.participants : log.participants.map(\.node) }
    func sealedMember(_ node: NodeID) -> Int? { sealedMembers.firstIndex(of: node) }

    var sealedContext: SealedContext { SealedContext(tableId: id.rawValue) }

    /// Openings kept for one move number: its mover's and every relayer's (six members at most, §9).
    static let maxOpenings = 8

    mutating func sendSealed(_ messages: [SealedMessage]) {
        for m in messages { sendToTable(.sealed(table: id, m)) }
    }

    /// Stops the table on a lie, naming its member when the fault does (§14.9).
    mutating func sealedStop(_ fault: SealedFault) {
        if fault.code == .behind {
            return stop(.sealedUnsupported, "this node missed a whole deal: \(fault.detail)", broadcast: false)
        }
        let code = StopCode(rawValue: fault.code.rawValue) ?? .sealedBadCard
        let who = fault.member.flatMap { sealedMembers[safe: $0] }.map { ctx.name($0) + ": " } ?? ""
        stop(code, who + fault.detail, broadcast: true)
    }

    // MARK: Seeding (§14.8 step 1)

    /// With its commitment a participant sends its key; its secret σ is its nonce source's next draw (§14.4).
    mutating func sendSealedKey() {
        guard info.isSealed, let j = sealedMember(me), round?.sealedSecret == nil, let seed = nonces?.next() else {
            return
        }
        let secret = SealedMemberSecret(seed: seed, context: sealedContext, member: j)
        let myself = me
        round?.sealedSecret = seed
        round?.sealedKeys[myself] = .init(key: secret.publicKey, proof: secret.keyProof())
        sendToTable(.sealed(table: id, .key(table: id.rawValue, key: secret.publicKey, proof: secret.keyProof())))
    }

    /// Whether every participant's key is in and verified: before that nobody reveals (always true, open deck).
    mutating func hasSealedKeys() -> Bool {
        guard info.isSealed else { return true }
        let keys = round?.sealedKeys ?? [:]
        guard info.participants.allSatisfy({ keys[$0] != nil }) else { return false }
        for (j, node) in info.participants.enumerated() where node != me {
            guard let key = keys[node], key.proof.verifies(publicKey: key.key, context: sealedContext, member: j)
            else {
                stop(.sealedBadKey, "\(ctx.name(node)): the key's proof does not verify", broadcast: true)
                return false
            }
        }
        return true
    }

    /// The sealed game at the seed: this node's table of the deck, its keys, and the first deal begun. Nil (and the
    /// table stopped) when it cannot be made; messages that came early are handled once play has begun.
    mutating func makeSealedGame(seed: UInt64, round: SeedRound) -> SealedTableGame? {
        guard role == .node else {
            stop(
                .sealedUnsupported, "an auditor runs no sealed table: its capture is checked from its audit (§14.12)",
                broadcast: false)
            return nil
        }
        // Each seat's member at the start of play: its owner then, whoever it passed to since (a restarted member, §14.12).
        let startOwners = info.seats.map { s in
            (log.takeovers ?? []).first { $0.seats.contains(s.seat) }?.member ?? s.owner
        }
        // A member of the table without a seat (a seatless host, even once voted out or its host jobs passed on) is no
        // member of the deck: it follows as an observer, with no secret (§14.1).
        let mine = sealedMember(me)
        guard let entry = ctx.catalog[info.game], mine == nil || round.sealedSecret != nil,
            let owners = Optional(startOwners.compactMap { $0.flatMap(sealedMember) }),
            owners.count == info.players
        else {
            stop(
                .sealedUnsupported, "a sealed table needs every seat taken and its secret at each player",
                broadcast: false)
            return nil
        }
        do {
            guard let local = try entry.sealedSession(players: info.players, seed: seed),
                let common = try entry.sealedSession(players: info.players, seed: seed)
            else {
                stop(.setup, "\(info.game) cannot be dealt sealed", broadcast: true)
                return nil
            }
            let secret = mine.flatMap { j in
                round.sealedSecret.map { SealedMemberSecret(seed: $0, context: sealedContext, member: j) }
            }
            var table = SealedTable(
                context: sealedContext, secret: secret, seatMembers: owners, members: sealedMembers.count,
                local: local, common: common)
            for (node, key) in round.sealedKeys where node != me {
                guard let j = sealedMember(node) else { continue }
                try table.acceptKey(from: j, key: key.key, proof: key.proof)
            }
            table.cheats = ctx.sealedCheats
            // Its first deal begins once the sequencer holds the hash before any card is known (`beginFirstDeal`).
            return SealedTableGame(table)
        } catch let error as SealedFault {
            sealedStop(error)
        } catch {
            stop(.setup, "\(error)", broadcast: true)
        }
        return nil
    }

    /// The first deal begins (member 0 shuffles at once) after the sequencer stored the hash before move 0: the game
    /// at the seed with no card known, at every node (§14.9). Begun earlier, a table whose one member holds every seat
    /// would open Briscola's trump before that hash was taken, and an observer, which opens it later, would differ.
    func beginFirstDeal(_ game: SealedTableGame) throws(SealedFault) {
        game.outbox += try game.sealed.beginDealIfDue()
    }

    /// Play has begun: the first deal's messages out, then what came before the seed.
    mutating func sealedPlayBegan() {
        guard let game = sealedGame else { return }
        do { try beginFirstDeal(game) } catch { return sealedStop(error) }
        sendSealed(game.takeOutbox())
        let early = inbox.sealed
        inbox.sealed = []
        for (from, message) in early { handleSealed(from: from, message) }
        checkSealedEscrows()
    }

    // MARK: Messages (§14.7)

    mutating func handleSealed(from: NodeID, _ message: SealedMessage) {
        let wire = TableMessage.sealed(table: id, message)
        // A node still waiting for the offer that seats it keeps keys as a member does (§9.3), nothing else.
        let isKey = if case .key = message { true } else { false }
        guard info.isSealed, message.table == id.rawValue, checks || (isKey && awaitingSeat) else {
            return dropped(wire, from: from)
        }
        if case .key(_, let key, let proof) = message { return handleSealedKey(from: from, key: key, proof: proof) }
        guard !info.phase.isOver || info.phase == .finished else { return dropped(wire, from: from) }
        guard let j = sealedMember(from) else { return handleObserverRelay(from: from, message) }
        guard let game = sealedGame else {
            guard inbox.sealed.count < Self.maxPending else { return dropped(wire, from: from) }
            inbox.sealed.append((from, message))
            return
        }
        // A client shows nothing of this node's cards until they are open (`view`): it is told when they are.
        let wasReady = sealedReady
        defer { if !wasReady && sealedReady { emit(.updated) } }
        do {
            switch message {
            case .shuffle(_, let deal, let input, let deck):
                sendSealed(try game.sealed.acceptShuffle(from: j, deal: deal, input: input, deck: deck))
            case .shares(_, let deal, let shares):
                try game.sealed.acceptShares(from: j, deal: deal, shares)
            case .escrow(_, let pieces):
                try game.sealed.acceptEscrow(from: j, pieces: pieces)
                journalSealedEscrow(member: j, message)
            case .release, .reRelease, .reEscrow, .acting:
                guard try handleSealedHeir(from: from, member: j, message, game) else { return }
            case .open(_, let deal, let number, let position, let share):
                return keepOpening(
                    from: from, deal: deal, number: number, .init(position: position, share: share), dropping: wire)
            case .audit(_, let secrets):
                try game.sealed.acceptAudit(from: j, secrets: secrets)
            case .key:
                return dropped(wire, from: from)
            }
        } catch {
            return sealedStop(error)
        }
        journalSealedInherited()
        sendSealedReEscrows()
        progress()
    }
}

extension TableMachine {
    /// A card move's opening, from its mover or a relayer (§14.12), kept by its move number until the move comes. One of
    /// a later deal comes with a catch-up that crosses into it.
    mutating func keepOpening(
        from: NodeID, deal: Int, number: Int, _ opening: SealedTable.CardOpening, dropping wire: TableMessage
    ) {
        let kept = play?.sealedOpenings[number] ?? [:]
        guard let game = sealedGame, deal >= game.sealed.deals.count,
            deal <= game.sealed.deals.count + SealedTable.maxDealsAhead, number >= game.moveNumber,
            number <= game.moveNumber + Self.maxPending, kept[from] == nil, kept.count < Self.maxOpenings
        else { return dropped(wire, from: from) }
        play?.sealedOpenings[number, default: [:]][from] = opening
    }

    /// A member of the table that is no member of the deck (an observer: a seatless host, §14.1) sends sealed messages
    /// only as a relayer, with a catch-up (§14.12): openings, and members' shares, each checked against its proof.
    mutating func handleObserverRelay(from: NodeID, _ message: SealedMessage) {
        let wire = TableMessage.sealed(table: id, message)
        guard info.isMember(from) || replaced.contains(from), let game = sealedGame else {
            return dropped(wire, from: from)
        }
        let wasReady = sealedReady
        defer { if !wasReady && sealedReady { emit(.updated) } }
        switch message {
        case .open(_, let deal, let number, let position, let share):
            keepOpening(
                from: from, deal: deal, number: number, .init(position: position, share: share), dropping: wire)
        case .acting(let member, .shares(_, let deal, let shares)):
            do { try game.sealed.acceptShares(from: member, deal: deal, shares, relayed: true) } catch {
                return stop(
                    .sealedBadShare, "\(ctx.name(from)): relayed shares of member \(member): \(error.detail)",
                    broadcast: true)
            }
            progress()
        default:
            dropped(wire, from: from)
        }
    }

    /// A member's key, while open or seeding. It goes with the member's commitment, which can overtake the host's
    /// offer that seats it (a seat taken just before the start): a key from a node not seated here yet is kept too,
    /// a few at most, like its commitment (§9.3); only the participants' keys count.
    mutating func handleSealedKey(from: NodeID, key: RistrettoPoint, proof: KeyProof) {
        guard round != nil, !info.phase.isOver else { return }
        let keys = round?.sealedKeys ?? [:]
        if let known = keys[from] {
            guard known.key == key else {
                return stop(.sealedBadKey, "\(ctx.name(from)) sent a second, different key", broadcast: true)
            }
            return
        }
        guard info.participants.contains(from) || keys.count < TableLobby.maxUnseatedCommits + info.players else {
            return dropped(.sealed(table: id, .key(table: id.rawValue, key: key, proof: proof)), from: from)
        }
        round?.sealedKeys[from] = .init(key: key, proof: proof)
        maybeReveal()
        maybeSeed()
    }
}

/// A member's key as it came while seeding (its proof is checked once every participant is known, §14.8 step 1).
struct SealedKeyClaim {
    var key: RistrettoPoint
    var proof: KeyProof
}
