import TavoloCore
import TavoloProtocol

/// A node restarted with its state directory picks its unfinished games up again (PROTOCOL.md §9.11): the table
/// is rebuilt from the game log alone, every logged deal checked against the joint seed and every logged move
/// replayed through the game with its hashes checked, then paused until the other members are back.
extension TableMachine {
    /// Rebuilds a table from this node's log of it; throws when the log does not replay exactly.
    public init(restoring saved: GameLog, _ ctx: TableContext) throws(TableError) {
        self.init(offered: saved.table, role: .node, ctx)
        let fail = { (why: String) in TableError(.badRequest, "the log of table \(saved.table.id) \(why)") }
        guard let seed = saved.jointSeed, let entry = ctx.catalog[saved.table.game] else {
            throw fail("has no joint seed or an unknown game")
        }
        // A member voted out follows the game as a spectator (§9.12): its log is picked up like a member's.
        let votedOut = (saved.takeovers ?? []).contains { $0.member == ctx.me && !$0.forfeit }
        guard saved.table.members.contains(ctx.me) || votedOut else {
            throw fail("is of a table this node takes no part in")
        }
        let game: any GameSession
        do { game = try entry.session(players: saved.table.players, seed: seed) } catch {
            throw fail("cannot set its game up: \(error.message)")
        }
        guard saved.initialHash == nil || saved.initialHash == game.stateHash.hex else {
            throw fail("starts from another state than its joint seed gives")
        }
        var hashes = [game.stateHash]
        var verified = 0
        func checkDeal() throws(TableError) {
            guard game.currentDeal != nil, verified < game.dealNumber else { return }
            // The deal the next move needs may not have come before the node stopped: the host deals it again.
            guard let logged = saved.deals.first(where: { $0.number == game.dealNumber }) else { return }
            guard logged.cards == game.currentDeal else { throw fail("has a deal that is not its seed's shuffle") }
            verified = game.dealNumber
        }
        let takeovers = saved.takeovers ?? []
        // The bot this node played `seat` with at move `n`, if any: bots draw from their own random stream,
        // which must stand where it stood, so the restored game goes on as the uninterrupted one would.
        func myBot(seat: Int, at n: Int) -> String? {
            if let t = takeovers.last(where: { $0.seats.contains(seat) && $0.appliedAt <= n }) {
                return t.heir == ctx.me ? t.bot : nil
            }
            if let t = takeovers.first(where: { $0.seats.contains(seat) }) {
                return t.member == ctx.me ? saved.table.seats[safe: seat]?.bot : nil
            }
            let s = saved.table.seats[safe: seat]
            return s?.owner == ctx.me ? s?.bot : nil
        }
        for m in saved.moves {
            try checkDeal()
            if let kind = myBot(seat: m.seat, at: m.number) { _ = try? game.botMove(kind: kind) }
            guard m.number == game.moveNumber, game.turn.seat == m.seat, m.before == hashes.last?.hex,
                verified == game.dealNumber || game.currentDeal == nil
            else { throw fail("does not replay at move \(m.number)") }
            do { try game.apply(try game.decodeMove(m.move)) } catch {
                throw fail("has a move \(m.number) the game refuses: \(error.message)")
            }
            guard game.stateHash.hex == m.after else { throw fail("ends move \(m.number) at another hash") }
            hashes.append(game.stateHash)
        }
        try checkDeal()
        seen = true
        seedingBegun = true
        jointSeed = seed
        session = game
        self.hashes = hashes
        verifiedDeal = verified
        dealsSent = verified
        for d in saved.deals where d.number <= verified { pendingDeals[d.number] = nil }
        log = saved
        log.stopped = nil
        // The results are sent again when the game is over here (every member may not have had them).
        log.finalHash = nil
        for p in saved.participants {
            commitments[p.node] = p.commitment
            if let hex = p.nonce, let nonce = [UInt8](hexString: hex) { reveals[p.node] = nonce }
        }
        for t in saved.takeovers ?? [] {
            replaced.insert(t.member)
            if !t.forfeit { spectators.insert(t.member) }
        }
        info.phase = .paused
    }

    /// Effects of a restored table: it is paused until every other member is back.
    mutating func restored(_ ctx: TableContext) -> [TableEffect] {
        self.ctx = ctx
        out = []
        for peer in activeMembers where peer != me { memberLost(peer) }
        for peer in activeMembers where peer != me && ctx.connected.contains(peer) { memberBack(peer) }
        let effects = out
        out = []
        return effects
    }
}
