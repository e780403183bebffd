import Foundation
import TavoloCore
import TavoloProtocol

extension TableManager {
    // MARK: Joint seed

    /// Seeding starts at every member when it sees the table started; only seat owners commit a nonce, a host
    /// without a seat just waits for the reveals.
    func beginSeeding(_ t: TableRuntime) {
        guard t.startedAt == nil else { return }
        t.startedAt = .now
        guard t.info.participants.contains(me) else {
            event(.started, t) { $0.message = "seeding: waiting for the seat owners' reveals" }
            maybeSeed(t)
            return
        }
        let nonce: [UInt8]
        if let seed = options.nonceSeed {
            nonce = JointSeed.testNonce(seed: seed, nodeIndex: options.nodeIndex, counter: seededTables)
        } else {
            nonce = JointSeed.randomNonce()
        }
        seededTables += 1
        t.myNonce = nonce
        let commitment = JointSeed.commitment(for: nonce)
        t.commitments[me] = commitment
        event(.started, t) { $0.message = "seeding: committed to a nonce" }
        sendToTable(.commit(table: t.info.id, commitment: commitment), t)
        maybeReveal(t)
    }

    func handleCommit(_ t: TableRuntime, from: NodeID, commitment: String) {
        guard t.info.participants.contains(from), t.info.phase != .finished, t.info.phase != .stopped else { return }
        guard t.commitments[from] == nil else {
            if t.commitments[from] != commitment {
                stopTable(
                    t, code: "seed/recommit", reason: "\(names[from] ?? from.short) changed its commitment",
                    broadcast: true)
            }
            return
        }
        guard commitment.count == 64, [UInt8](hexString: commitment) != nil else {
            stopTable(
                t, code: "seed/bad-commit", reason: "\(names[from] ?? from.short) sent a malformed commitment",
                broadcast: true)
            return
        }
        t.commitments[from] = commitment
        maybeReveal(t)
    }

    func maybeReveal(_ t: TableRuntime) {
        guard let nonce = t.myNonce, t.reveals[me] == nil,
            t.info.participants.allSatisfy({ t.commitments[$0] != nil })
        else { return }
        t.reveals[me] = nonce
        sendToTable(.reveal(table: t.info.id, nonce: nonce.hexString), t)
        maybeSeed(t)
    }

    func handleReveal(_ t: TableRuntime, from: NodeID, nonceHex: String) {
        guard t.info.participants.contains(from), t.reveals[from] == nil, t.isActive || t.info.phase == .open else {
            return
        }
        guard let commitment = t.commitments[from] else {
            stopTable(
                t, code: "seed/early-reveal", reason: "\(names[from] ?? from.short) revealed before committing",
                broadcast: true)
            return
        }
        guard let nonce = [UInt8](hexString: nonceHex), nonce.count == JointSeed.nonceLength,
            JointSeed.commitment(for: nonce) == commitment
        else {
            stopTable(
                t, code: "seed/bad-reveal",
                reason: "\(names[from] ?? from.short)'s nonce does not match its commitment", broadcast: true)
            return
        }
        t.reveals[from] = nonce
        maybeSeed(t)
    }

    func maybeSeed(_ t: TableRuntime) {
        // Seats are final only once this node has seen the table start.
        guard t.jointSeed == nil, t.info.phase == .seeding else { return }
        if t.info.participants.contains(me) && t.myNonce == nil { return }
        let order = t.info.participants
        let nonces = order.compactMap { t.reveals[$0] }
        guard nonces.count == order.count, let entry = catalog[t.info.game] else { return }
        let seed = JointSeed.seed(nonces: nonces)
        t.jointSeed = seed
        let session: any GameSession
        do { session = try entry.session(players: t.info.players, seed: seed) } catch {
            stopTable(t, code: "table/setup", reason: error.message, broadcast: true)
            return
        }
        t.session = session
        t.hashes = [session.stateHash]
        t.info.phase = .playing
        t.log.jointSeed = seed
        t.log.initialHash = session.stateHash.hex
        t.log.participants = order.map {
            GameLog.Participant(
                node: $0, name: names[$0] ?? $0.short, commitment: t.commitments[$0] ?? "",
                nonce: t.reveals[$0]?.hexString)
        }
        event(.seeded, t) {
            $0.jointSeed = seed
            $0.stateHash = session.stateHash.hex
        }
        progress(t)
    }

    // MARK: Host-dealt decks

    /// Host: deals the current deal if it has not yet (the deck order the joint seed gives).
    func dealIfHost(_ t: TableRuntime) {
        guard t.isHost, let s = t.session, let cards = s.currentDeal, t.dealsSent < s.dealNumber else { return }
        t.dealsSent = s.dealNumber
        var dealt = cards
        if options.cheatDeal, dealt.count > 1 { dealt.swapAt(0, dealt.count - 1) }
        t.pendingDeals[s.dealNumber] = dealt
        sendToTable(.deal(table: t.info.id, number: s.dealNumber, cards: dealt), t)
    }

    func handleDeal(_ t: TableRuntime, from: NodeID, number: Int, cards: [UInt8]) {
        guard from == t.info.host else {
            stopTable(
                t, code: "deal/not-host", reason: "\(names[from] ?? from.short) dealt but is not the host",
                broadcast: true)
            return
        }
        guard t.pendingDeals[number] == nil, number > t.verifiedDeal else { return }
        t.pendingDeals[number] = cards
        progress(t)
    }

    // MARK: Moves

    func handleMove(_ t: TableRuntime, from: NodeID, number: Int, seat: Int, move: JSONValue, stateHash: String) {
        guard t.isActive else { return }
        // Checks that do not depend on timing happen at once; the rest when the move's turn comes.
        guard (0..<t.info.players).contains(seat), t.info.seats[seat].owner == from else {
            reject(
                t, number: number, code: MoveErrorCode.notYourTurn.rawValue,
                reason: "\(names[from] ?? from.short) does not own seat \(seat)", from: from)
            return
        }
        let current = t.session?.moveNumber ?? 0
        guard number >= current else {
            reject(
                t, number: number, code: MoveErrorCode.stale.rawValue, reason: "move \(number) was already played",
                from: from)
            return
        }
        guard t.pendingMoves[number] == nil, t.pendingMoves.count < TableRuntime.maxPending else {
            reject(
                t, number: number, code: MoveErrorCode.stale.rawValue, reason: "a move \(number) is already pending",
                from: from)
            return
        }
        t.pendingMoves[number] = (from, seat, move, stateHash)
        // A move is its sender's word on the state after the move before it (PROTOCOL.md §9.4).
        if number > 0 { recordConfirm(t, from: from, number: number - 1, hash: stateHash) }
        progress(t)
    }

    func reject(_ t: TableRuntime, number: Int, code: String, reason: String, from: NodeID) {
        logger.warning(
            "table \(t.info.id): rejected move \(number) from \(names[from] ?? from.short): \(code): \(reason)")
        sendToTable(.reject(table: t.info.id, number: number, code: code, reason: reason), t)
        event(.rejected, t) {
            $0.moveNumber = number
            $0.code = code
            $0.message = "rejected move \(number) from \(self.names[from] ?? from.short): \(reason)"
        }
    }

    /// Advances the table as far as it can: check the deal, apply pending moves, play this node's bots.
    func progress(_ t: TableRuntime) {
        while t.info.phase == .playing, let s = t.session {
            if s.currentDeal != nil && t.verifiedDeal < s.dealNumber {
                dealIfHost(t)
                guard let cards = t.pendingDeals[s.dealNumber] else { return }
                guard cards == s.currentDeal else {
                    stopTable(
                        t, code: "deal/mismatch",
                        reason: "the host's deal \(s.dealNumber) is not the shuffle of joint seed \(t.jointSeed ?? 0)",
                        broadcast: true)
                    return
                }
                t.verifiedDeal = s.dealNumber
                t.log.deals.append(GameLog.LoggedDeal(number: s.dealNumber, cards: cards))
                event(.dealt, t) { $0.message = "deal \(s.dealNumber) checked against the joint seed" }
            }
            if s.turn == .terminal {
                finish(t)
                return
            }
            let number = s.moveNumber
            if let pending = t.pendingMoves.removeValue(forKey: number) {
                apply(
                    t, number: number, seat: pending.seat, move: pending.move, claimedHash: pending.stateHash,
                    from: pending.from)
                continue
            }
            guard let seat = s.turn.seat, t.info.seats[seat].owner == me else { return }
            if let bot = t.info.seats[seat].bot {
                let json: [UInt8]
                do { json = try s.botMove(kind: bot) } catch {
                    stopTable(t, code: "table/bot-failed", reason: "\(error)", broadcast: true)
                    return
                }
                guard let move = try? JSONValue(json: json) else { return }
                sendMove(t, number: number, seat: seat, move: move)
                continue
            }
            if t.yourTurnAnnounced != number {
                t.yourTurnAnnounced = number
                event(.yourTurn, t) {
                    $0.seat = seat
                    $0.moveNumber = number
                }
            }
            return
        }
    }

    /// Sends this node's move to the table and applies it here.
    func sendMove(_ t: TableRuntime, number: Int, seat: Int, move: JSONValue) {
        guard let s = t.session else { return }
        let hash = (t.hashes.last ?? s.stateHash).hex
        t.moveSentAt[number] = .now
        sendToTable(.move(table: t.info.id, number: number, seat: seat, move: move, stateHash: hash), t)
        apply(t, number: number, seat: seat, move: move, claimedHash: hash, from: me)
    }

    /// Checks and applies move `number`; every node runs exactly these checks.
    func apply(_ t: TableRuntime, number: Int, seat: Int, move: JSONValue, claimedHash: String, from: NodeID) {
        guard let s = t.session else { return }
        guard s.turn.seat == seat else {
            reject(
                t, number: number, code: MoveErrorCode.notYourTurn.rawValue,
                reason: "seat \(seat) moved but seat \(s.turn.seat.map(String.init) ?? "none") is to play", from: from)
            return
        }
        // The hash after the last applied move is already known: no need to hash the state again.
        let before = t.hashes.last ?? s.stateHash
        guard claimedHash == before.hex else {
            reject(
                t, number: number, code: MoveErrorCode.stale.rawValue,
                reason: "made for state \(claimedHash.prefix(12))…, this node is at \(before.hex.prefix(12))…",
                from: from)
            return
        }
        let json = move.jsonBytes
        let text: String
        do { text = try s.applyDescribed(json: json) } catch {
            reject(t, number: number, code: error.code.rawValue, reason: error.message, from: from)
            return
        }
        let after = s.stateHash
        t.hashes.append(after)
        t.log.moves.append(
            GameLog.LoggedMove(number: number, seat: seat, move: move, text: text, before: before.hex, after: after.hex)
        )
        // Confirmations go to the host, which checks every member, and to the mover, which times the move;
        // the host's own goes to everyone, so every member checks the host (PROTOCOL.md §9.4).
        // When this node's bot plays next, its move follows at once and carries this hash: it is the confirmation.
        let botPlaysNext = s.turn.seat.map { t.info.seats[$0].owner == me && t.info.seats[$0].bot != nil } ?? false
        if !botPlaysNext {
            let confirmTo = t.isHost ? t.info.members : [t.info.host, from]
            send(.confirm(table: t.info.id, number: number, stateHash: after.hex), to: confirmTo)
        }
        recordConfirm(t, from: me, number: number, hash: after.hex)
        event(.moved, t) {
            $0.moveNumber = number
            $0.seat = seat
            $0.move = move
            $0.stateHash = after.hex
            $0.message = text
        }
    }

    func handleConfirm(_ t: TableRuntime, from: NodeID, number: Int, hash: String) {
        guard t.info.members.contains(from), t.isActive || t.info.phase == .finished else { return }
        recordConfirm(t, from: from, number: number, hash: hash)
    }

    /// Compares every confirmation with this node's own hash after that move; the first difference stops the table.
    /// A confirmation that arrives before this node applied the move waits for it.
    func recordConfirm(_ t: TableRuntime, from: NodeID, number: Int, hash: String) {
        guard number >= 0, number <= t.hashes.count + TableRuntime.maxPending else { return }
        t.confirms[number, default: [:]][from] = hash
        guard number + 1 < t.hashes.count, let received = t.confirms[number] else { return }
        let mine = t.hashes[number + 1].hex
        if let (node, theirs) = received.first(where: { $0.value != mine }) {
            stopTable(
                t, code: "hash/mismatch",
                reason: "first diverging move \(number): \(names[node] ?? node.short) has \(theirs.prefix(16))…, "
                    + "\(myName) has \(mine.prefix(16))…", broadcast: true)
            return
        }
        // The mover keeps the move's confirmations until every member's is in, to time it; others need none kept.
        guard let sent = t.moveSentAt[number] else {
            t.confirms[number] = nil
            return
        }
        if received.count == t.info.members.count {
            t.confirmLatencies.append((ContinuousClock.now - sent).milliseconds)
            t.moveSentAt[number] = nil
            t.confirms[number] = nil
        }
    }

    // MARK: End

    func finish(_ t: TableRuntime) {
        guard let s = t.session, let outcome = s.outcome, !t.resultSent else { return }
        t.resultSent = true
        let hash = s.stateHash.hex
        t.log.winners = outcome.winners
        t.log.scores = outcome.scores
        t.log.finalHash = hash
        sendToTable(.result(table: t.info.id, winners: outcome.winners, scores: outcome.scores, finalHash: hash), t)
        handleResult(t, from: me, finalHash: hash)
    }

    func handleResult(_ t: TableRuntime, from: NodeID, finalHash: String) {
        guard t.info.members.contains(from), t.isActive else { return }
        t.results[from] = finalHash
        guard t.resultSent, let mine = t.log.finalHash, t.info.members.allSatisfy({ t.results[$0] != nil }) else {
            return
        }
        var byName: [String: String] = [:]
        for (node, h) in t.results { byName[names[node] ?? node.short] = h }
        t.log.finalHashes = byName
        if let (node, theirs) = t.results.first(where: { $0.value != mine }) {
            stopTable(
                t, code: "hash/final-mismatch",
                reason: "\(names[node] ?? node.short) ended at \(theirs.prefix(16))…, \(myName) at \(mine.prefix(16))…",
                broadcast: true)
            return
        }
        t.info.phase = .finished
        t.finishedAt = .now
        saveLog(t)
        event(.finished, t) {
            $0.winners = t.log.winners
            $0.scores = t.log.scores
            $0.stateHash = mine
            $0.finalHashes = byName
            $0.jointSeed = t.jointSeed
            $0.moveNumber = t.session?.moveNumber
        }
    }

    /// Stops a table with a report; tells the other members when this node found the fault.
    func stopTable(_ t: TableRuntime, code: String, reason: String, broadcast: Bool) {
        guard t.info.phase != .stopped, t.info.phase != .finished else { return }
        logger.error("table \(t.info.id) stopped: \(code): \(reason)")
        if broadcast { sendToTable(.stop(table: t.info.id, code: code, reason: reason), t) }
        t.info.phase = .stopped
        t.log.stopped = "\(code): \(reason)"
        saveLog(t)
        event(.stopped, t) {
            $0.code = code
            $0.message = reason
        }
    }

    func saveLog(_ t: TableRuntime) {
        guard let dir = options.stateDirectory, t.session != nil || t.isHost else { return }
        if let problem = t.log.save(stateDirectory: dir) { logger.error("\(problem)") }
    }

    // MARK: Control API for play

    /// Plays `move` (the game's move as JSON) for this node's human seat that is to play.
    public func move(table: String, move: JSONValue) throws(TableError) {
        guard let t = tables[table] else { throw TableError("table/unknown", "no table '\(table)' is known") }
        guard t.info.phase == .playing, let s = t.session else {
            throw TableError("table/not-playing", "table \(table) is \(t.info.phase.rawValue)")
        }
        guard let seat = s.turn.seat, t.info.seats[seat].owner == me, t.info.seats[seat].bot == nil else {
            throw TableError(MoveErrorCode.notYourTurn.rawValue, "it is not a seat of yours to play")
        }
        let legal = s.legalMoves()
        let json = move.jsonBytes
        guard legal.contains(json) else {
            let options = legal.compactMap { String(bytes: $0, encoding: .utf8) }.joined(separator: " ")
            throw TableError(MoveErrorCode.illegal.rawValue, "not a legal move; legal: \(options)")
        }
        sendMove(t, number: s.moveNumber, seat: seat, move: move)
        progress(t)
    }

    /// What this node can see of a table: its info, whose turn, its seats' observations and legal moves.
    public func state(table: String) throws(TableError) -> TableState {
        guard let t = tables[table] else { throw TableError("table/unknown", "no table '\(table)' is known") }
        var st = TableState(info: t.info)
        guard let s = t.session else { return st }
        st.jointSeed = t.jointSeed
        st.moveNumber = s.moveNumber
        st.turn = s.turn.seat
        st.stateHash = s.stateHash.hex
        st.mySeats = t.info.seats.filter { $0.owner == me }.map(\.seat)
        st.observations = st.mySeats.map { (try? JSONValue(json: s.observation(for: $0))) ?? .null }
        if let seat = s.turn.seat, st.mySeats.contains(seat) {
            st.legalMoves = s.legalMoves().compactMap { try? JSONValue(json: $0) }
        }
        st.lastMoves = t.log.moves.suffix(8).map { "\($0.number + 1). seat \($0.seat): \($0.text)" }
        st.winners = t.log.winners
        st.scores = t.log.scores
        st.confirmLatencyMs = t.confirmLatencies
        if let a = t.startedAt { st.wallMs = ((t.finishedAt ?? .now) - a).milliseconds }
        return st
    }

    /// Test-only: sends a raw table message from this node, as a misbehaving peer would.
    public func inject(_ message: TableMessage) {
        guard let t = tables[message.table] else { return }
        sendToTable(message, t)
    }
}

/// A table as one node sees it (the control socket's `state` result).
public struct TableState: Codable, Sendable {
    public var info: TableInfo
    public var jointSeed: UInt64?
    public var moveNumber: Int?
    public var turn: Int?
    public var stateHash: String?
    public var mySeats: [Int] = []
    public var observations: [JSONValue] = []
    public var legalMoves: [JSONValue] = []
    public var lastMoves: [String] = []
    public var winners: [Int]?
    public var scores: [Int]?
    public var wallMs: Double?
    /// Per move this node sent: milliseconds from sending to the last member's confirmation.
    public var confirmLatencyMs: [Double] = []

    public init(info: TableInfo) { self.info = info }
}

extension Duration {
    var milliseconds: Double {
        let (s, atto) = components
        return Double(s) * 1_000 + Double(atto) / 1e15
    }
}
