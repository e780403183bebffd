import TavoloCore
import TavoloProtocol
import TavoloSealed

/// A sealed table's moves and its end (PROTOCOL.md §14.8 steps 4–6): a card is opened before its move is applied, a
/// move's draws answered with shares, this node's seats wait for their cards, and the audit comes before the result.
extension TableMachine {
    /// Whether move `number` of `pending` must wait (its card cannot be opened yet) or was a lie (the table stopped).
    /// False when it may be applied: its card is open and public now. A move that fails a check the sequencer makes
    /// without the card (its number, seat or hash) is left to the sequencer to refuse, nothing opened.
    mutating func sealedHolds(_ pending: PendingMoves.Move, number: Int, _ s: any GameSession) -> Bool {
        guard info.isSealed, let game = s as? SealedTableGame else { return false }
        guard let move = try? s.decodeMove(pending.move), s.turn.seat == pending.seat,
            pending.stateHash.agrees(with: hashes.last ?? s.stateHash)
        else { return false }
        // The mover's opening, or, for a move relayed in a catch-up (§14.12), its relayer's or another relayer's.
        let openings = play?.sealedOpenings[number] ?? [:]
        let chosen =
            openings[pending.from].map { (from: pending.from, opening: $0) }
            ?? openings.sorted { $0.key.hex < $1.key.hex }.first.map { (from: $0.key, opening: $0.value) }
        let actor = game.sealed.seatMembers[safe: pending.seat].map { game.sealed.actors[$0] }
        let actorNode = actor.flatMap { sealedMembers[safe: $0] }
        let relayed = pending.from != actorNode || (chosen != nil && chosen?.from != actorNode)
        // A card move whose opening has not come yet waits: no lie yet. Relayed, its opening comes with the relayer's
        // catch-up; the mover's own may have gone out just before this node's session with it came up (the move,
        // held for the mover's journal, went after), and comes with the mover's catch-up (§14.7, §14.12).
        if chosen == nil, game.sealed.common.sealedCardsPlayed(by: move) != nil { return true }
        do {
            guard try game.sealed.openPlay(seat: pending.seat, move: move, opening: chosen?.opening) else {
                return true
            }
        } catch {
            // Relayed, the move and its opening are the word of nodes that did not play it: which one lied cannot
            // be told here, so this node, unable to follow, stops its own copy and names nobody.
            guard relayed else {
                sealedStop(error)
                return true
            }
            stop(
                StopCode(rawValue: error.code.rawValue) ?? .sealedWrongCard,
                "a relayed move or its opening does not hold: \(error.detail)", broadcast: false)
            return true
        }
        play?.sealedOpenings[number] = nil
        return false
    }

    /// This node's own card move: its opening goes out first (the move follows on the same connections), and the card
    /// is public here before the move is applied. False (the table stopped) when this node cannot open it.
    mutating func sealedOpenOwn(_ number: Int, seat: Int, move: AnyGameMove) -> Bool {
        guard let game = sealedGame else { return true }
        do {
            let opening = try game.sealed.opening(seat: seat, move: move)
            guard try game.sealed.openPlay(seat: seat, move: move, opening: opening) else {
                stop(.sealedBadCard, "this node's own card at seat \(seat) could not be opened", broadcast: false)
                return false
            }
            if let honest = opening {
                let opening = game.sealed.falseOpening(seat: seat, true: honest) ?? honest
                let deal = game.sealed.deals.count
                sendSealed([
                    .open(
                        table: id.rawValue, deal: deal, number: number, position: opening.position,
                        share: opening.share)
                ])
            }
            return true
        } catch {
            sealedStop(error)
            return false
        }
    }

    /// After a move was applied: the shares its draws need and a new deal's shuffle go out; a lie seen stops the table.
    mutating func sealedAfterApply() {
        guard let game = sealedGame else { return }
        sendSealed(game.takeOutbox())
        if let fault = game.faults.first { sealedStop(fault) }
    }

    /// Whether this node's seats may play: their cards are open here (§14.8 steps 3 and 5). Always at an open deck.
    var sealedReady: Bool { sealedGame?.sealed.isReady ?? true }

    /// At the end: this node's audit out once, and whether every member's is in (the result waits for it, §14.8 step
    /// 6). Then the verdict is logged and told; the game's result is the same whatever it says.
    mutating func sealedAuditDone() -> Bool {
        guard let game = sealedGame else { return true }
        if play?.sealedAuditSent == false {
            play?.sealedAuditSent = true
            // An observer has no secret to open: it only waits for the members' (§14.10).
            sendSealed(game.sealed.auditMessage.map { [$0] } ?? [])
            startTimer(.results(id), after: ctx.peerReplyTimeout)
        }
        guard game.sealed.hasEveryAudit || play?.sealedAuditExpired == true else { return false }
        let verdict = game.sealed.verdict()
        if game.sealed.cheats.contains(.peek) {
            let (tried, opened) = (game.sealed.peekAttempts, game.sealed.peeked)
            out.append(
                .log(.warning, "table \(id): peek: tried \(tried) openings of other seats' cards, opened \(opened)"))
        }
        let names = verdict.cheaters.compactMap { sealedMembers[safe: $0] }.map { ctx.name($0) }
        log.sealedCheaters = verdict.cheaters.compactMap { sealedMembers[safe: $0] }
        if let secrets = game.sealed.everySecret {
            log.sealedSecrets = secrets.map(\.hexString)
            log.sealedDeckHashes = game.sealed.deals.compactMap {
                $0.deal.finalDeck.map { SealedDeck.hash($0).hexString }
            }
        }
        if verdict.verified {
            out.append(.log(.notice, "table \(id): deck verified"))
        } else {
            let faults = verdict.faults.map(\.description).joined(separator: "; ")
            out.append(.log(.warning, "table \(id): the audit names \(names.joined(separator: ", ")): \(faults)"))
        }
        return true
    }
}
