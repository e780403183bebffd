import TavoloCore
import TavoloProtocol

/// Simultaneous games (PROTOCOL.md §10): every seat still in the game moves when its owner likes, in its own
/// sequence of moves numbered from 0, each move carrying the hash of that seat's part of the state before it.
/// Every member applies each seat's moves in that seat's order and checks them as lockstep checks turns; moves
/// of different seats commute (§10.1), so every member reaches the same state whatever the interleaving. At the
/// end each member reports the order in which it saw seats complete, and the ranking combines every report.
extension TableMachine {
    var isRace: Bool { session?.isSimultaneous == true }

    public func raceNext(_ seat: Int) -> Int { sequencer?.next(of: seat) ?? 0 }

    mutating func handleRaceMove(from: NodeID, seat: Int, number: Int, move: JSONValue, seatHash: StateHash) {
        let message = TableMessage.raceMove(table: id, seat: seat, number: number, move: move, seatHash: seatHash)
        guard info.isMember(from), checks, isRace || session == nil else { return dropped(message, from: from) }
        // A racer's move can overtake the last reveal on another link: before the seed is known here it waits.
        let seeding = info.phase == .seeding && session == nil
        guard seeding || (info.phase.isActive && session != nil && session?.turn != .terminal) else {
            if info.phase == .finished || session?.turn == .terminal {
                reject(number, .gameOver, "the race is over", from: from)
            } else {
                dropped(message, from: from)
            }
            return
        }
        guard (0..<info.players).contains(seat), info.seats[seat].owner == from || isHeir(from, of: seat) else {
            return reject(number, .notYourTurn, "\(ctx.name(from)) does not own seat \(seat)", from: from)
        }
        // A spectator that slid its former seat on alone takes the heir's move in place of its own (§10.6).
        _ = dropRaceMovesApart(seat: seat, from: number, after: nil)
        guard number >= raceNext(seat) else {
            return reject(number, .stale, "seat \(seat)'s move \(number) was already played", from: from)
        }
        let pending = PendingMoves.Move(from: from, seat: seat, move: move, stateHash: seatHash)
        guard inbox.pending.add(pending, lane: seat, number: number, limit: Self.maxPending) else {
            return reject(number, .stale, "a move \(number) of seat \(seat) is already pending", from: from)
        }
        raceProgress()
        askForGap(seat: seat, after: number, from: from)
    }

    /// A seat's move (`number`) that waits for an earlier one this node lacks: the sender applied that one, so this node sends
    /// it its sync, which it answers with every move it holds (§10.6). Once per member and missing move. Without it, a
    /// move nobody sends again (played by a racer voted out, relayed to the heir alone) would hold the seat for ever.
    mutating func askForGap(seat: Int, after number: Int, from: NodeID) {
        let next = raceNext(seat)
        guard from != me, number > next, inbox.pending[seat, next] == nil else { return }
        var gap = play?.race.gapsAsked[seat].flatMap { $0.next == next ? $0 : nil } ?? (next: next, asked: [])
        guard gap.asked.insert(from).inserted else { return }
        play?.race.gapsAsked[seat] = gap
        sendSync(to: from)
    }

    /// Applies every move whose turn in its seat's sequence has come, ends the game when no seat may move, and
    /// schedules this node's bots and tells its users they may move.
    mutating func raceProgress() {
        // A paused race applies moves already played (a catch-up) but plays none, as lockstep does (§9.10).
        guard info.phase == .playing || info.phase == .paused, let s = session else { return }
        var applied = true
        while applied {
            // Before each pass over the lanes: moves just applied (a catch-up) may bring a takeover's count, and
            // with nothing else to come (its member left, the others' bots wait for its seats) nothing would ask again.
            applyDueTakeovers()
            applied = false
            // A race's lanes are its seats; a turn-based move sent to a race never comes due.
            for seat in inbox.pending.laneIDs where seat >= 0 {
                let number = raceNext(seat)
                guard let p = inbox.pending.take(lane: seat, number: number) else { continue }
                applied = true
                let decoded: AnyGameMove
                do { decoded = try s.decodeMove(p.move) } catch {
                    reject(number, error.code, error.message, from: p.from)
                    continue
                }
                applyRaceMove(
                    seat: seat, number: number, move: decoded, json: p.move, claimed: p.stateHash, from: p.from)
            }
        }
        if s.turn == .terminal { return raceFinish() }
        guard role == .node, info.phase == .playing, isMember, !replaced.contains(me) else { return }
        for seat in s.activeSeats where info.seats[seat].owner == me {
            if let bot = info.seats[seat].bot {
                if play?.race.botTimers.insert(seat).inserted == true {
                    startTimer(.raceBot(id, seat: seat), after: racePace(bot))
                }
            } else if play?.race.announced.insert(seat).inserted == true {
                emit(.yourTurn(seat: seat, moveNumber: raceNext(seat)))
            }
        }
    }

    /// The wait between two moves of a bot: its `@pace` in moves per second, or the node's default pace.
    func racePace(_ bot: String) -> Duration {
        let pace = BotKindName(bot).pace ?? ctx.raceBotPace
        return .nanoseconds(Int64(1e9 / max(pace, 0.01)))
    }

    mutating func raceBotFired(seat: Int) {
        play?.race.botTimers.remove(seat)
        guard info.phase == .playing, isMember, let s = session, s.activeSeats.contains(seat),
            info.seats[seat].owner == me, let bot = info.seats[seat].bot
        else { return }
        let move: AnyGameMove
        do {
            move =
                try inheritedBot(seat) == nil
                ? s.botMove(kind: bot, seat: seat) : heirMove(seat: seat, number: raceNext(seat), kind: bot)
        } catch {
            stop(.botFailed, "\(error)", broadcast: true)
            return
        }
        sendRaceMove(seat: seat, move: move)
        raceProgress()
    }

    /// The local user's move for this node's human seat still in the game.
    mutating func playLocalRaceMove(_ json: JSONValue) throws(TableError) {
        guard info.phase == .playing, let s = session else {
            throw TableError(.notPlaying, "table \(id) is \(info.phase.rawValue)")
        }
        guard
            let seat = s.activeSeats.first(where: { info.seats[$0].owner == me && info.seats[$0].bot == nil })
        else { throw TableError(.notYourTurn, "no seat of yours is still in the race") }
        let move: AnyGameMove
        do { move = try s.decodeMove(json) } catch { throw TableError(TableErrorCode(error.code), error.message) }
        let legal = s.legalMoves(seat: seat)
        guard legal.contains(move) else {
            let options = legal.map(\.json.jsonText).joined(separator: " ")
            throw TableError(.illegal, "\(move) is not a legal move; legal: \(options)")
        }
        sendRaceMove(seat: seat, move: move)
        raceProgress()
    }

    mutating func sendRaceMove(seat: Int, move: AnyGameMove) {
        let number = raceNext(seat)
        guard let hash = sequencer?.hashBefore(seat: seat) else { return }
        let json = move.json
        // Applied, and so journaled, before it leaves: a racer killed between the two restarts where the others
        // know it to be, never behind its own moves (§9.9).
        guard applyRaceMove(seat: seat, number: number, move: move, json: json, claimed: hash, from: me) else {
            return
        }
        sendToTable(.raceMove(table: id, seat: seat, number: number, move: json, seatHash: hash))
    }

    /// Checks and applies move `number` of `seat` through the sequencer: every member runs exactly these checks.
    /// Journaled like a lockstep move (§9.9); no confirmation is sent (§10.2).
    @discardableResult
    mutating func applyRaceMove(
        seat: Int, number: Int, move: AnyGameMove, json: JSONValue, claimed: StateHash, from: NodeID
    ) -> Bool {
        let due = number == raceNext(seat) && session?.activeSeats.contains(seat) == true
        guard heirBotAgrees(seat: seat, number: number, move: move, from: from, due: due) else { return false }
        guard let result = play?.sequencer.apply(seat: seat, number: number, move: move, claimed: claimed) else {
            return false
        }
        if from != me { hashesChecked += 1 }
        switch result {
        case .failure(let r):
            reject(number, r.code, r.reason, from: from)
            return false
        case .success(let done):
            log.moves.append(
                GameLog.LoggedMove(
                    number: number, seat: seat, move: json, text: done.text, before: done.before.hex,
                    after: done.after.hex))
            persist()
            emit(.moved(moveNumber: number, seat: seat, move: json, stateHash: done.after, text: done.text))
            return true
        }
    }

    /// The game is over here: report the order this node saw, then the result (§10.3, §9.5).
    mutating func raceFinish() {
        if isMember, !race.orderSent {
            play?.race.orderSent = true
            let seen = sequencer?.finishingOrder ?? []
            let mine = me
            if race.orders[mine] == nil { play?.race.orders[mine] = seen }
            sendToTable(.raceOrder(table: id, order: seen))
        }
        finish()
    }

    mutating func handleRaceOrder(from: NodeID, order: [Int]) {
        guard info.isMember(from), checks, info.phase.isActive || info.phase == .finished else {
            return dropped(.raceOrder(table: id, order: order), from: from)
        }
        // The first report counts: a node cannot take its vote back.
        guard race.orders[from] == nil, order.count <= info.players else { return }
        guard play != nil else {
            // Before the seed here (a racer finished while this node waited for the last reveal): it waits.
            if inbox.raceOrders[from] == nil { inbox.raceOrders[from] = order }
            return
        }
        play?.race.orders[from] = order
    }

    /// The agreed ranking once every result is in (nil for a turn-based game); sets the log's winners.
    mutating func raceRanking() -> [Int]? {
        guard isRace, let s = session else { return nil }
        let completed = Set((0..<info.players).filter { s.seatCompleted($0) })
        // The members that raced to the end, as `finalHashes` lists them: not one agreed out after the last move,
        // whose seats kept their owner (§9.12), nor its own order at its own node.
        let voters = activeMembers.filter { race.orders[$0] != nil }
        let (ranking, ignored) = RaceRanking.rank(
            orders: voters.compactMap { race.orders[$0] }, completed: completed, moves: log.scores ?? [])
        for i in ignored {
            out.append(.log(.warning, "table \(id): \(ctx.name(voters[i]))'s finishing order is not a valid vote"))
        }
        log.winners = Array(ranking.prefix(1))
        log.ranking = ranking
        log.raceVotes = voters.compactMap { race.orders[$0] }
        return ranking
    }
}
