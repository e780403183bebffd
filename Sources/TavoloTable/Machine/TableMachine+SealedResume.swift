import TavoloCore
import TavoloProtocol
import TavoloSealed

/// A member of a sealed table restarted with its state directory (PROTOCOL.md §14.12). Its moves cannot be replayed
/// from its log alone: each card opens only with the other members' shares, which it kept in memory. So it keeps
/// what nobody else can give it back — its secret σ, the members' keys, the escrows it took — in its journal's
/// header, and on restart begins the game again from the seed with nothing played: the members send again their
/// steps and shares of every deal when its session comes back (§14.12), its own steps and shares are made again from
/// σ exactly as before, and the moves come in the catch-up its sync asks for, each with its relayed opening.
extension TableMachine {
    /// The journal's part of a sealed table, once its game is made: σ and every participant's key.
    mutating func journalSealedStart(round: SeedRound) {
        guard info.isSealed, round.sealedSecret != nil || !info.participants.contains(me) else { return }
        let keys = round.sealedKeys.sorted { $0.key.hex < $1.key.hex }.map { node, claim in
            SealedResume.Key(node: node, message: .key(table: id.rawValue, key: claim.key, proof: claim.proof))
        }
        log.sealedResume = SealedResume(secret: round.sealedSecret?.hexString, keys: keys)
    }

    /// An escrow this node took: into the journal, since nobody sends it again (§14.11).
    mutating func journalSealedEscrow(member: Int, _ message: SealedMessage) {
        guard log.sealedResume?.escrows.contains(where: { $0.member == member }) == false else { return }
        log.sealedResume?.escrows.append(SealedResume.Escrow(member: member, message: message))
        persist()
    }

    /// A second escrow this node took (§14.11), with the heir that made it: into the journal, since it is sent again
    /// only while that heir acts for the secret.
    mutating func journalSealedReEscrow(actor: Int, _ message: SealedMessage) {
        guard var resume = log.sealedResume, resume.reEscrows?.contains(where: { $0.message == message }) != true
        else { return }
        resume.reEscrows = (resume.reEscrows ?? []) + [.init(member: actor, message: message)]
        log.sealedResume = resume
        persist()
    }

    /// A secret this node recovered as an heir: into the journal, since nobody releases it again.
    mutating func journalSealedInherited() {
        guard let game = sealedGame, let known = log.sealedResume?.inherited,
            known.count != game.sealed.inherited.count
        else { return }
        log.sealedResume?.inherited = game.sealed.inherited.sorted { $0.key < $1.key }.map {
            SealedResume.Inherited(member: $0.key, secret: $0.value.seed.hexString)
        }
        persist()
    }

    /// Why a sealed log cannot be resumed, or nil when it can: it must hold the journal's part and the joint seed.
    static func sealedResumeProblem(_ saved: GameLog) -> String? {
        guard saved.sealedResume != nil else { return "its journal holds no secret (written by an older version)" }
        return saved.jointSeed == nil ? "it has no joint seed" : nil
    }

    /// Rebuilds a sealed table from its journal: the game from its seed, the keys and escrows as they came, nothing
    /// played (the log's moves go: the catch-up brings them again), paused until every member is back.
    init(resumingSealed saved: GameLog, _ ctx: TableContext) throws(TableError) {
        self.init(offered: saved.table, role: .node, ctx)
        let fail = { (why: String) in TableError(.badRequest, "table \(saved.table.id) was dealt sealed and \(why)") }
        if let problem = Self.sealedResumeProblem(saved) { throw fail(problem) }
        // An observer's journal holds no secret (a member's without one cannot make its game: `makeSealedGame`).
        guard let resume = saved.sealedResume, let seed = saved.jointSeed else {
            throw fail("its journal does not decode")
        }
        let secret = resume.secret.flatMap { [UInt8](hexString: $0) }
        guard resume.secret == nil || secret?.count == SealedMemberSecret.byteCount else {
            throw fail("its journal does not decode")
        }
        var round = Self.restoredRound(saved)
        round.sealedSecret = secret
        for k in resume.keys {
            guard case .key(_, let key, let proof) = k.message else { throw fail("a journaled key is not a key") }
            round.sealedKeys[k.node] = SealedKeyClaim(key: key, proof: proof)
        }
        log = saved
        (log.moves, log.deals, log.stopped, log.finalHash) = ([], [], nil, nil)
        // The journal's moves: those it holds, then those a restart before this one kept and this one had not yet
        // played again (the moves of a replay cut short by a second power cut).
        let journaled = saved.moves + (resume.replay ?? []).filter { $0.number >= saved.moves.count }
        log.sealedResume?.replay = secret == nil || journaled.isEmpty ? nil : journaled
        seen = true
        guard let game = makeSealedGame(seed: seed, round: round), info.phase != .stopped else {
            throw fail("its game cannot be made again: \(log.stopped ?? "")")
        }
        guard game.stateHash.hex == saved.initialHash else { throw fail("starts from another state than it did") }
        for e in resume.escrows {
            guard case .escrow(_, let pieces) = e.message else { throw fail("a journaled escrow is not an escrow") }
            do { try game.sealed.acceptEscrow(from: e.member, pieces: pieces) } catch {
                throw fail("a journaled escrow is refused: \(error.detail)")
            }
        }
        // The seats that passed, as they passed: who acts for whom, and the secrets this node recovered as an heir.
        var secrets: [Int: [UInt8]] = [:]
        for i in resume.inherited { secrets[i.member] = [UInt8](hexString: i.secret) }
        for t in saved.takeovers ?? [] {
            guard let l = sealedMember(t.member), let h = sealedMember(t.heir) else { continue }
            do { try game.sealed.resumePass(l, to: h, secrets: secrets) } catch {
                throw fail("a journaled secret is refused: \(error.detail)")
            }
        }
        for e in resume.reEscrows ?? [] {
            guard case .reEscrow(_, let owner, let pieces) = e.message else {
                throw fail("a journaled second escrow is not one")
            }
            do { try game.sealed.acceptReEscrow(from: e.member, of: owner, pieces: pieces, journaled: true) } catch {
                throw fail("a journaled second escrow is refused: \(error.detail)")
            }
        }
        var restored = Self.restoredPlay(
            saved, seed: seed, MoveSequencer(game: game), verifiedDeal: 0, me: ctx.me, round: round)
        // A member whose table has nobody to catch it up (alone at it, or every member restarted) plays its own seats'
        // journaled moves again, each card opened as when it was first played; the others' moves come from them,
        // played again the same way, or in a catch-up from a member that kept them (§14.12).
        if secret != nil { restored.sealedJournalMoves = journaled }
        stage = .playing(restored)
        do { try beginFirstDeal(game) } catch { throw fail("its first deal cannot begin again: \(error.detail)") }
        info.phase = .paused
    }

    /// What this node's seat `seat` does at move `number` after a restart, from its journal (§14.12).
    enum JournalTurn {
        /// Its journaled move, played again (a bot's stream moved on as if it chose it again).
        case play(AnyGameMove)
        /// Nothing yet: a member's sync said it holds this move, which its catch-up brings.
        case wait
        /// No journaled move: the seat plays as it would have.
        case none
    }

    /// Entries before `number` were caught up or are the others'. A journaled move that no longer fits the game
    /// (another seat, another state) ends the replay, said once: the seats play on as they would have.
    mutating func sealedJournalTurn(_ number: Int, seat: Int, _ s: any GameSession) -> JournalTurn {
        guard play?.sealedJournalMoves.isEmpty == false else { return .none }
        play?.sealedJournalMoves.removeAll { $0.number < number }
        guard let logged = play?.sealedJournalMoves.first else { return .none }
        // Played again to a member that holds it, it would only be refused as stale (and shown as refused).
        if number < play?.sealedJournalAhead ?? 0 { return .wait }
        guard logged.number == number, logged.seat == seat, logged.before == (hashes.last ?? s.stateHash).hex,
            let move = try? s.decodeMove(logged.move)
        else {
            play?.sealedJournalMoves = []
            log.sealedResume?.replay = nil
            out.append(
                .log(
                    .warning,
                    "table \(id): its journal's move \(logged.number) does not replay; the game goes on from move \(number)"
                ))
            return .none
        }
        play?.sealedJournalMoves.removeFirst()
        // The seat's bot moves on as if it chose the move again: an inherited seat's own stream (§9.12), else its bot's.
        if let kind = inheritedBot(seat) {
            _ = try? heirMove(seat: seat, number: number, kind: kind)
        } else if let bot = info.seats[safe: seat]?.bot {
            _ = try? s.botMove(kind: bot)
        }
        return .play(move)
    }

    /// The journal's header keeps the moves to play again until the game has passed the last of them (§14.12).
    mutating func dropPassedJournalReplay() {
        guard let last = log.sealedResume?.replay?.last, log.moves.count > last.number else { return }
        log.sealedResume?.replay = nil
    }

    /// A member's sync while this node still has journaled moves to play again: how far the table is elsewhere. Counted
    /// no further than the journal's end (beyond it there is nothing to play again), so a sync claiming any number
    /// holds back no more than the journal.
    mutating func noteSyncForJournal(moves: Int) {
        guard let last = play?.sealedJournalMoves.last?.number, let ahead = play?.sealedJournalAhead else { return }
        let counted = min(moves, last + 1)
        if counted > ahead { play?.sealedJournalAhead = counted }
    }

    /// Moves played apart at a sealed table (§9.12): they cannot be taken back one by one (each card opened with
    /// shares this node kept in memory), so the node begins its sealed game again as a restart does — nothing played,
    /// the deals' steps and shares it held taken again — keeps who is away and the votes, and catches the table's moves
    /// up from the members. False (said) when it cannot.
    mutating func restartSealedGame(notice: String) -> Bool {
        guard let old = sealedGame?.sealed, let current = play else { return false }
        var saved = log
        saved.table = info
        do {
            let fresh = try TableMachine(resumingSealed: saved, ctx)
            guard var play = fresh.play, let game = play.sequencer.game as? SealedTableGame else {
                throw TableError(.unknown, "no sealed game")
            }
            let messages = try game.sealed.takeDeals(of: old)
            play.absence = current.absence
            play.yourTurnAnnounced = current.yourTurnAnnounced
            // The moves played apart go: the table's come in the catch-up.
            play.sealedJournalMoves = []
            log.sealedResume?.replay = nil
            stage = .playing(play)
            (log.moves, log.deals) = ([], [])
            (log.winners, log.scores, log.finalHash, log.sealedCheaters) = (nil, nil, nil, nil)
            log.finalHashes = [:]
            inbox = TableInbox()
            out.append(.log(.notice, notice))
            sendSealed(messages + game.takeOutbox())
            return true
        } catch {
            out.append(.log(.error, "table \(id): cannot begin the sealed game again: \(error)"))
            return false
        }
    }
}
