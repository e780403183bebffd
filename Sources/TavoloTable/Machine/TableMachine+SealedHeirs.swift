import TavoloCore
import TavoloProtocol
import TavoloSealed

/// A sealed table that outlives a member (PROTOCOL.md §14.11): each member's escrow sent with its reveal, and when a
/// member's seats pass (§9.12) the others release their pieces of its secret to the heir, which then acts for it.
/// The rules of the escrow are `TavoloSealed.SealedTable`'s (`SealedTable+Escrow.swift`); this file routes them.
extension TableMachine {
    /// With three members or more, this node's escrow goes out right before its reveal, on the same connections: a
    /// member that has a reveal has the escrow before it (§14.8 step 1).
    mutating func sendSealedEscrow() {
        guard info.isSealed, info.participants.count >= 3, let j = sealedMember(me), let seed = round?.sealedSecret
        else { return }
        let keys = round?.sealedKeys ?? [:]
        let holders = info.participants.indices.filter { $0 != j }
        let holderKeys = holders.compactMap { keys[info.participants[$0]]?.key }
        guard holderKeys.count == holders.count else { return }
        let secret = SealedMemberSecret(seed: seed, context: sealedContext, member: j)
        let pieces = SealedEscrow.seal(secret, holders: holders, holderKeys: holderKeys)
        sendToTable(.sealed(table: id, .escrow(table: id.rawValue, pieces: pieces)))
    }

    /// Play has begun and what came before it is handled: every member's escrow must be here (each came before its
    /// reveal), else the table stops naming the first member without one.
    mutating func checkSealedEscrows() {
        guard let game = sealedGame, !game.sealed.hasEveryEscrow, !info.phase.isOver else { return }
        let missing = (0..<game.sealed.members).first { $0 != game.sealed.me && game.sealed.escrows[$0] == nil }
        sealedStop(SealedFault(.badEscrow, member: missing, "no escrow came before its reveal"))
    }

    /// Pieces released to this node as an heir, and a member's step or shares sent by its heir: handled when this
    /// node has passed the seats they depend on, else kept until it has (a few at most).
    mutating func handleSealedHeir(
        from: NodeID, member j: Int, _ message: SealedMessage, _ game: SealedTableGame
    ) throws(SealedFault) -> Bool {
        let actsFor = { (member: Int) in game.sealed.actors.indices.contains(member) && game.sealed.actors[member] == j
        }
        let ready: Bool
        switch message {
        case .release(_, let owner, _), .reRelease(_, let owner, _): ready = game.sealed.awaitsSecret(of: owner)
        case .reEscrow(_, let owner, _): ready = actsFor(owner)
        case .acting(let member, .shares(_, let deal, let shares)) where !actsFor(member):
            // Another member's shares relayed with a catch-up (§14.12): each proof checked, a false one the relayer's.
            do { try game.sealed.acceptShares(from: member, deal: deal, shares, relayed: true) } catch {
                throw SealedFault(error.code, member: j, "relayed shares of member \(member): \(error.detail)")
            }
            return true
        case .acting(let member, _): ready = actsFor(member)
        default: ready = false
        }
        guard ready else {
            guard (play?.sealedWaiting.count ?? Self.maxPending) < Self.maxPending else {
                dropped(.sealed(table: id, message), from: from)
                return false
            }
            play?.sealedWaiting.append((from, message))
            return false
        }
        switch message {
        case .reEscrow(_, let owner, let pieces):
            try game.sealed.acceptReEscrow(from: j, of: owner, pieces: pieces)
            journalSealedReEscrow(actor: j, message)
        case .release(_, let owner, let pieces), .reRelease(_, let owner, let pieces):
            sendSealed(try game.sealed.acceptRelease(from: j, of: owner, pieces: pieces))
            stopIfUnrecoverable(game)
            // Recovered after this node's audit went out (the member was lost at the end): the others need it too.
            if play?.sealedAuditSent == true, game.sealed.inherited[owner] != nil {
                sendSealed(game.sealed.auditMessage.map { [$0] } ?? [])
            }
        case .acting(let member, .shuffle(_, let deal, let input, let deck)):
            sendSealed(try game.sealed.acceptShuffle(from: member, deal: deal, input: input, deck: deck))
        case .acting(let member, .shares(_, let deal, let shares)):
            try game.sealed.acceptShares(from: member, deal: deal, shares)
        default:
            dropped(.sealed(table: id, message), from: from)
            return false
        }
        return true
    }

    /// As the heir of members out together, each holding a piece of the other's secret: nothing can open their
    /// cards, and the table stops rather than wait for ever (§14.11, §14.14).
    mutating func stopIfUnrecoverable(_ game: SealedTableGame) {
        let lost = game.sealed.unrecoverable
        guard !lost.isEmpty, !info.phase.isOver else { return }
        let names = lost.compactMap { sealedMembers[safe: $0] }.map { ctx.name($0) }.joined(separator: ", ")
        stop(
            .sealedUnsupported,
            "\(names) are out together, each holding a piece of the other's secret: a sealed table cannot go on "
                + "without them yet", broadcast: true)
    }

    /// As an heir: each secret it recovered split again among the members it does not act for, whenever they change
    /// (§14.11's second escrow), so that the table outlives this node too.
    mutating func sendSealedReEscrows() {
        guard let game = sealedGame, !info.phase.isOver else { return }
        // Taken first: passed inline to `sendSealed`, the debug build crashed in the runtime's exclusivity checks.
        let messages = game.sealed.reEscrowMessages()
        sendSealed(messages)
    }

    /// A session with a member came back: what this node said of the deals under way goes to it again first (what
    /// was on its way when the session broke is lost), before the sync that may bring it moves, and its audit once
    /// sent: a member that comes back after the end needs every secret (§14.12).
    mutating func sealedResend(to peer: NodeID) {
        guard let game = sealedGame, !info.phase.isOver || info.phase == .finished else { return }
        for m in game.sealed.ownMessagesOfEveryDeal() + game.sealed.currentReEscrows() {
            send(.sealed(table: id, m), to: [peer])
        }
        if play?.sealedAuditSent == true, let audit = game.sealed.auditMessage {
            send(.sealed(table: id, audit), to: [peer])
        }
    }

    /// A member that forfeits at a sealed table of two sends the other its secret first, on the same connections
    /// (its `table.sealed-audit`): nobody holds an escrow there, and its hand is nobody's secret once it has lost.
    mutating func sendSealedForfeitSecret(to peers: [NodeID]) {
        guard let game = sealedGame, game.sealed.members == 2, let audit = game.sealed.auditMessage else { return }
        send(.sealed(table: id, audit), to: peers)
    }

    /// Whether a vote may never pass `member`'s seats: at a sealed table of two players, a player's secret leaves with
    /// it (no escrow with two, §14.11). A seatless host and the other player are a majority of three, yet they vote no
    /// such takeover: the table waits for the player, as a table of two does, and a leave ends it as abandoned.
    func sealedSeatsCannotPass(_ member: NodeID) -> Bool {
        info.isSealed && sealedMembers.count == 2 && sealedMember(member) != nil
    }

    /// Whether a player of a sealed table of two is away past its grace here (see `sealedSeatsCannotPass`).
    var waitsForASealedPlayer: Bool { graceOver.contains(where: sealedSeatsCannotPass) }

    /// Why the seats of the takeovers agreed here cannot pass at a sealed table yet, if they cannot: with two members
    /// only a forfeit whose secret came passes (§14.11), and an heir that leaves in turn would take a secret only it
    /// recovered.
    func sealedCannotPass() -> String? {
        guard let game = sealedGame else { return nil }
        for t in agreed {
            guard let j = sealedMember(t.member) else { continue }
            if game.sealed.members < 3, !t.forfeit || (j != game.sealed.me && game.sealed.auditSecrets[j] == nil) {
                return "a sealed table of two passes a seat only with its leaver's secret (§14.11)"
            }
            // Each holds the piece of the other's secret (§14.11): an heir out in turn, unless the secrets it recovered
            // were split again among the others (its second escrow).
            if !game.sealed.inheritedBy(j).isEmpty, !game.sealed.secondEscrowsCover(j) {
                return
                    "\(ctx.name(t.member)) is out with the secret of a member it played for, each holding a piece of "
                    + "the other's, and no second escrow of it came (a table of three has nobody to hold one, §14.11): "
                    + "a sealed table cannot go on without both"
            }
        }
        return nil
    }

    /// `leaver`'s seats passed to `heir` here: the heir acts for it from now on. This node releases its pieces of the
    /// leaver's secret to the heir (to the heir only), or, as the heir, recovers it; then what waited for it is handled.
    mutating func sealedPass(_ leaver: NodeID, to heir: NodeID) {
        guard let game = sealedGame, let l = sealedMember(leaver), let h = sealedMember(heir) else { return }
        do {
            let messages = try game.sealed.pass(l, to: h)
            if heir == me {
                sendSealed(messages)
            } else {
                for m in messages { send(.sealed(table: id, m), to: [heir]) }
            }
        } catch {
            return sealedStop(error)
        }
        stopIfUnrecoverable(game)
        journalSealedInherited()
        sendSealedReEscrows()
        let waiting = play?.sealedWaiting ?? []
        play?.sealedWaiting = []
        for (from, message) in waiting { handleSealed(from: from, message) }
    }
}
