import TavoloCore
import TavoloProtocol

/// A node restarted with its state directory picks its unfinished games up again (PROTOCOL.md §9.11): the table
/// is rebuilt from the game log alone, every logged deal checked against the joint seed and every logged move
/// replayed through the game with its hashes checked, then paused until the other members are back.
extension TableMachine {
    /// Rebuilds a table from this node's log of it; throws when the log does not replay exactly.
    public init(restoring saved: GameLog, _ ctx: TableContext) throws(TableError) {
        // A member voted out follows the game as a spectator (§9.12): its log is picked up like a member's.
        let votedOut = (saved.takeovers ?? []).contains { $0.member == ctx.me && !$0.forfeit }
        guard saved.table.members.contains(ctx.me) || votedOut else {
            throw TableError(.badRequest, "the log of table \(saved.table.id) is of a table this node takes no part in")
        }
        // A sealed game begins again with nothing played, and the catch-up brings its moves (§14.12).
        if saved.table.isSealed {
            try self.init(resumingSealed: saved, ctx)
        } else {
            try self.init(replaying: saved, ctx)
        }
    }

    /// Rebuilds a table from a log, whoever this node is at it now: a restart checks first that it takes part; a
    /// member voted out that drops the moves it played apart (`rebuild(keeping:)`) may hold no seat and no longer
    /// be the host, its own takeover agreed and not yet logged.
    init(replaying saved: GameLog, _ ctx: TableContext) throws(TableError) {
        var unchecked: Int?
        try self.init(replaying: saved, ctx, firstMoveNotTheBots: &unchecked)
    }

    /// Rebuilds a table from a log as above, and names the first logged move of an inherited seat that is not the
    /// one the seat's bot plays there (`firstMoveNotTheBots`, the move's number): a node that passed seats behind
    /// their point had those moves relayed before the seats' bot existed here (§9.12).
    init(replaying saved: GameLog, _ ctx: TableContext, firstMoveNotTheBots: inout Int?) throws(TableError) {
        self.init(offered: saved.table, role: .node, ctx)
        let fail = { (why: String) in TableError(.badRequest, "the log of table \(saved.table.id) \(why)") }
        guard let seed = saved.jointSeed, ctx.catalog[saved.table.game] != nil else {
            throw fail("has no joint seed or an unknown game")
        }
        var replayer: LogReplayer
        do {
            replayer = try LogReplayer(
                catalog: ctx.catalog, game: saved.table.game, players: saved.table.players, seed: seed,
                deals: saved.deals)
        } catch { throw fail("cannot set its game up: \(error.message)") }
        guard saved.initialHash == nil || saved.initialHash == replayer.game.stateHash.hex else {
            throw fail("starts from another state than its joint seed gives")
        }
        for m in saved.moves {
            let step = LogReplayer.Step(seat: m.seat, number: m.number, move: m.move, before: m.before, after: m.after)
            var heirs: AnyGameMove?
            do {
                try replayer.apply(step) { step, game in
                    heirs = Self.moveBotsOn(saved, me: ctx.me, seat: step.seat, game)
                }
            } catch { throw fail("does not replay at move \(m.number) of seat \(m.seat): \(error.message)") }
            if firstMoveNotTheBots == nil, let heirs, (try? replayer.game.decodeMove(m.move)) != heirs {
                firstMoveNotTheBots = m.number
            }
        }
        do { try replayer.checkDeal() } catch { throw fail("has \(error.message)") }
        seen = true
        stage = .playing(
            Self.restoredPlay(
                saved, seed: seed, replayer.sequencer, verifiedDeal: replayer.verifiedDeal, me: ctx.me))
        log = saved
        log.stopped = nil
        // The results are sent again when the game is over here (every member may not have had them).
        log.finalHash = nil
        info.phase = .paused
    }

    /// Play as the log left it: the round that gave the seed, the deals checked, the members replaced.
    static func restoredPlay(
        _ saved: GameLog, seed: UInt64, _ sequencer: MoveSequencer, verifiedDeal: Int, me: NodeID,
        round: SeedRound? = nil
    ) -> TablePlay {
        var play = TablePlay(seed: seed, sequencer: sequencer, round: round ?? restoredRound(saved))
        play.verifiedDeal = verifiedDeal
        play.dealsSent = verifiedDeal
        for t in saved.takeovers ?? [] {
            play.absence.replaced.insert(t.member)
            if !t.forfeit { play.absence.spectators.insert(t.member) }
        }
        // This node's own votes count again, as the others counted them (§9.11), and are sent again on reconnection
        // as a node that ran on sends them: those about a member replaced since too. A member that missed this node's
        // vote before the restart would otherwise never count a majority for a takeover this node agreed.
        for v in saved.ownVotes ?? [] {
            play.absence.myVote[v.member] = v.number
            play.absence.votes[v.member, default: [:]][v.number, default: []].insert(me)
        }
        return play
    }

    /// The round that gave the seed: every participant's commitment and nonce.
    static func restoredRound(_ saved: GameLog) -> SeedRound {
        var round = SeedRound()
        for p in saved.participants {
            round.commitments[p.node] = p.commitment
            if let hex = p.nonce, let nonce = [UInt8](hexString: hex) { round.reveals[p.node] = nonce }
        }
        return round
    }

    /// Before a logged move of `seat` is replayed: the bot that chose it draws from its random stream as it did, so the
    /// restored game goes on as the uninterrupted one would. That is this node's own bot, or an inherited seat's
    /// bot, which every member runs (§9.12, `TableMachine+HeirBots.swift`).
    /// Returns an inherited seat's bot's move (nil for any other seat, or a bot kind this node does not know).
    @discardableResult
    static func moveBotsOn(_ saved: GameLog, me: NodeID, seat: Int, _ game: any GameSession) -> AnyGameMove? {
        let n = game.moveNumber
        if !game.isSimultaneous,
            let t = (saved.takeovers ?? []).last(where: { $0.seats.contains(seat) && $0.appliedAt <= n })
        {
            return try? game.heirBotMove(kind: t.bot, seat: seat)
        }
        guard let kind = botOfThisNode(in: saved, me: me, seat: seat, at: n) else { return nil }
        _ = try? game.isSimultaneous ? game.botMove(kind: kind, seat: seat) : game.botMove(kind: kind)
        return nil
    }

    /// The bot this node played `seat` with at move count `n`, if any (a turn-based game's inherited seats are
    /// every member's to run: `moveBotsOn`).
    static func botOfThisNode(in saved: GameLog, me: NodeID, seat: Int, at n: Int) -> String? {
        let takeovers = saved.takeovers ?? []
        if let t = takeovers.last(where: { $0.seats.contains(seat) && $0.appliedAt <= n }) {
            return t.heir == me ? t.bot : nil
        }
        if let t = takeovers.first(where: { $0.seats.contains(seat) }) {
            return t.member == me ? saved.table.seats[safe: seat]?.bot : nil
        }
        let s = saved.table.seats[safe: seat]
        return s?.owner == me ? s?.bot : nil
    }

    /// Effects of a restored table: it is paused until every other member is back.
    mutating func restored(_ ctx: TableContext) -> [TableEffect] {
        self.ctx = ctx
        out = []
        for peer in activeMembers where peer != me { memberLost(peer) }
        for peer in activeMembers where peer != me && ctx.connected.contains(peer) { memberBack(peer) }
        // A sealed game's own first messages, made again from σ (the members keep one copy of each).
        sealedPlayBegan()
        // Nobody else to wait for (this node's own bots hold every other seat): play goes on at once.
        maybeResume()
        let effects = out
        out = []
        return effects
    }
}
