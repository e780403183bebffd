import TavoloCore
import TavoloProtocol

/// Offers, seats, invitations, leaving and the local user's requests (PROTOCOL.md §9.1–9.2, §9.7).
extension TableMachine {
    // MARK: Offers

    mutating func handleOffer(_ offered: TableInfo, from: NodeID) {
        // Only the host speaks for its table; the id's host is bound at first sight.
        // A host never changes a table's game or player count; the seats and names stay within limits (§9.1).
        guard offered.id == id, offered.host == from, offered.host == info.host, !isHost,
            offered.game == info.game, offered.players == info.players, offered.isWithinLimits(ctx.catalog)
        else { return dropped(.offer(offered), from: from) }
        if !seen {
            seen = true
            info = offered
            log.table = offered
            emit(.offered(message: "\(offered.hostName) offers a \(offered.game) table for \(offered.players)"))
            if offered.phase == .seeding && (isMember || role == .auditor) { beginSeeding() }
            return
        }
        if offered.seats.contains(where: { $0.owner == me }) { lobby?.seatRequestUnanswered = false }
        // A table over here stays as it ended here: a member that left keeps its stopped copy, whatever the others'
        // game does after (its record is theirs to write, §11.1).
        guard offered.revision > info.revision, !info.phase.isOver else { return }
        // The host reopened the table: seeding was interrupted by a loss (§9.13).
        if isMember && info.phase == .seeding && offered.phase == .open && jointSeed == nil {
            resetSeeding()
            info = offered
            log.table = offered
            emit(.updated)
            return
        }
        // A member's seats are fixed from the start; later offers only tell other nodes how the table goes. A
        // spectator's seats change where the game says, never by an offer (§9.12).
        if (isMember || isSpectator) && info.phase != .open { return }
        let wasOpen = info.phase == .open
        if role == .auditor && info.phase != .open { return }
        info = offered
        log.table = offered
        emit(.updated)
        if wasOpen && offered.phase == .seeding && (isMember || role == .auditor) { beginSeeding() }
    }

    /// Host: tells every connected node the table's current state.
    mutating func announce() {
        guard isHost else { return }
        log.table = info
        send(.offer(info), to: offerRecipients)
        emit(.updated)
    }

    /// Who the host's offer goes to: every connected node, but once play began not the members (those voted out
    /// too), which ignore offers from the start of seeding on (§9.2). A stop still reaches them all.
    var offerRecipients: [NodeID] { ctx.connected.filter(getsOffers).sorted() }

    /// Whether `peer` gets the host's offers: once play began, not a member (it ignores them, §9.2), nor when it
    /// connects again.
    func getsOffers(_ peer: NodeID) -> Bool {
        switch info.phase {
        case .playing, .paused, .finished: !startMembers.contains(peer)
        default: true
        }
    }

    /// A phase change; the host's is one other nodes learn from the next offer.
    mutating func announcePhase(_ phase: TablePhase) {
        info.phase = phase
        // Every node's log says how its table ended, not only the host's: a member records its own game from it
        // (§11; before, only the host did, and every member had the record sent to it) and a restart reads it.
        log.table.phase = phase
        if phase.isOver { enterOver() }
        guard isHost else { return }
        info.revision += 1
        announce()
    }

    // MARK: Peers

    mutating func peerConnected(_ peer: NodeID) {
        if isHost && !info.phase.isOver && getsOffers(peer) { send(.offer(info), to: [peer]) }
        // This node left the game: a member that comes back gets its forfeit again (it may have been cut off when
        // it was sent), never its sync — that would tell it a member that no longer plays is back (§9.12). So does
        // one voted out meanwhile: it follows the game as a spectator, and would wait for this node for ever.
        if let number = forfeitedAt {
            if info.isMember(peer) || replaced.contains(peer) {
                let signature = play?.absence.forfeitSignature
                sendSealedForfeitSecret(to: [peer])
                send(.forfeit(table: id, number: number, signature: signature, seatMoves: raceSeatMoves), to: [peer])
            }
            return
        }
        // A table that stopped here (abandoned after the grace, say) while a member was away: the member learns it
        // when it comes back, instead of waiting for ever for a table nobody plays (§9.5).
        if info.phase == .stopped, let (code, reason) = stopReason, isMember, info.isMember(peer), session != nil {
            send(.stop(table: id, code: code, reason: reason), to: [peer])
            return
        }
        if (isMember || isSpectator) && session != nil && (info.isMember(peer) || replaced.contains(peer)) {
            sealedResend(to: peer)
            memberBack(peer)
        }
        resendSeeding(to: peer)
    }

    mutating func peerLost(_ peer: NodeID) {
        play?.absence.syncSent.remove(peer)
        if info.phase.isActive && info.isMember(peer) && isMember {
            // During play the table waits for the member (§9.10); while seeding, nothing is at stake yet.
            if session != nil {
                if !replaced.contains(peer) { memberLost(peer) }
            } else {
                seedingInterrupted(by: peer)
            }
        } else if isHost && info.phase == .open && info.seats.contains(where: { $0.owner == peer }) {
            freeSeats(of: peer)
        }
    }

    // MARK: Seats (host side)

    mutating func handleSeatRequest(from: NodeID, seat: Int?, bot: String?) {
        guard isHost else { return dropped(.seatRequest(table: id, seat: seat, bot: bot), from: from) }
        if let refusal = assignSeat(to: from, seat: seat, bot: bot, ignoringInvitations: false) {
            send(.seatRefused(table: id, reason: refusal), to: [from])
        }
    }

    /// Seats `node`; returns a refusal sentence instead.
    mutating func assignSeat(to node: NodeID, seat: Int?, bot: String?, ignoringInvitations: Bool) -> String? {
        guard info.phase == .open else { return "table \(id) has started" }
        guard !seedingDropouts.contains(node) else {
            return "\(ctx.name(node)) was lost while table \(id) was seeding: it cannot sit there again"
        }
        if let bot, let entry = ctx.catalog[info.game],
            !entry.bots.contains(where: { $0.kind == BotKindName(bot).kind })
        {
            return "unknown bot '\(bot)' for \(info.game)"
        }
        let name = ctx.name(node)
        let free = info.seats.filter {
            $0.owner == nil && (ignoringInvitations || $0.invited == nil || invitedNodes[$0.seat] == node)
        }
        let chosen: Int
        if let seat {
            guard (0..<info.players).contains(seat) else { return "no seat \(seat) at a table for \(info.players)" }
            guard free.contains(where: { $0.seat == seat }) else { return "seat \(seat) is taken or reserved" }
            chosen = seat
        } else {
            guard let first = free.first(where: { invitedNodes[$0.seat] == node }) ?? free.first else {
                return "no free seat"
            }
            chosen = first.seat
        }
        lobby?.invitedNodes[chosen] = nil
        info.seats[chosen] = SeatInfo(seat: chosen, owner: node, ownerName: name, bot: bot)
        info.revision += 1
        announce()
        return nil
    }

    mutating func freeSeats(of node: NodeID) {
        for i in info.seats.indices where info.seats[i].owner == node { info.seats[i] = SeatInfo(seat: i) }
        info.revision += 1
        announce()
    }

    mutating func handleLeave(from: NodeID) {
        if info.phase == .open {
            if isHost { freeSeats(of: from) }
        } else if info.phase.isActive && info.isMember(from) && checks {
            stop(.memberLeft, "\(ctx.name(from)) left the game", broadcast: false)
        }
    }

    // MARK: Local requests

    mutating func perform(_ r: TableRequest) throws(TableError) {
        switch r {
        case .join(let seat, let bot):
            guard info.phase == .open else { throw TableError(.started, "table \(id) has started") }
            if isHost {
                if let refusal = assignSeat(to: me, seat: seat, bot: bot, ignoringInvitations: false) {
                    throw TableError(.seatRefused, refusal)
                }
            } else {
                send(.seatRequest(table: id, seat: seat, bot: bot), to: [info.host])
                lobby?.seatRequestUnanswered = true
                startTimer(.seatRequest(id), after: ctx.seatRequestTimeout)
            }
        case .fill(let bot):
            try requireHostedOpen()
            // Every seat without an owner, reserved or not: the host decides (PROTOCOL.md §9.7).
            for s in info.freeSeats {
                if let refusal = assignSeat(to: me, seat: s, bot: bot, ignoringInvitations: true) {
                    throw TableError(.seatRefused, refusal)
                }
            }
        case .invite(let seat, let node, let name):
            try requireHostedOpen()
            guard (0..<info.players).contains(seat), info.seats[seat].owner == nil else {
                throw TableError(.seatTaken, "seat \(seat) is not free")
            }
            info.seats[seat].invited = name
            lobby?.invitedNodes[seat] = node
            info.revision += 1
            announce()
            send(.invite(table: id, seat: seat), to: [node])
        case .start:
            try requireHostedOpen()
            guard info.freeSeats.isEmpty else {
                let free = info.freeSeats.map(String.init).joined(separator: ", ")
                throw TableError(.notFull, "seats \(free) are free; fill them first")
            }
            announcePhase(.seeding)
            beginSeeding()
        case .move(let json): try playLocalMove(json)
        case .leave: leave()
        case .inject(let message): sendToTable(message)
        }
    }

    mutating func leave() {
        if info.phase == .open {
            if isHost {
                announcePhase(.stopped)
                out.append(.startTimer(.expire(id), after: ctx.overTableLifetime))
            } else {
                send(.leave(table: id), to: [info.host])
            }
        } else if isSpectator {
            // A spectator only stops following: it has no seat to forfeit and no say in the table.
            stop(.memberLeft, "\(ctx.myName) stopped following the game", broadcast: false)
        } else if info.phase.isActive && session != nil {
            leaveDuringPlay()
        } else if info.phase.isActive {
            sendToTable(.leave(table: id))
            stop(.memberLeft, "\(ctx.myName) left the game", broadcast: false)
        }
    }

    func requireHostedOpen() throws(TableError) {
        guard isHost else { throw TableError(.notHost, "only the host \(info.hostName) can do that") }
        guard info.phase == .open else { throw TableError(.started, "table \(id) has started") }
    }
}
