import TavoloCore
import TavoloGames
import TavoloSealed
import XCTest

/// The members of one sealed table, each its own `SealedTable`, passing the messages of §14.8 over one FIFO queue per
/// directed link, the links served in a seeded random order: a shuffle, a share or a move may overtake another sent
/// on another link, as on a real mesh. Each member applies moves to its public game as a table's sequencer does
/// (the hash a move was made for must be the one this member stored after the move before it) and plays its seats
/// with bots from its own game. `cheat` lets a test change what one member sends.
struct SealedTableHarness {
    enum Envelope {
        case sealed(SealedMessage)
        case move(number: Int, seat: Int, move: AnyGameMove, opening: SealedTable.CardOpening?, before: StateHash)
    }

    struct Member {
        var table: SealedTable
        /// The public game's hash after each move, from the start: what a sequencer stores.
        var hashes: [StateHash]
        var pending: [Int: (seat: Int, move: AnyGameMove, opening: SealedTable.CardOpening?, before: StateHash)] = [:]
        var auditSent = false
        /// What this member caught, if anything (the table would stop).
        var fault: SealedFault?
    }

    var members: [Member] = []
    var links: [[[Envelope]]]
    var rng: TavoloRNG
    let bot: String
    /// A test's hook on every message a member sends: (member, message) → the message sent instead.
    var cheat: (Int, Envelope) -> Envelope = { $1 }
    /// A test's hook on a member's own move: (member, the bot's move, its game) → the move it plays instead.
    var chooseMove: (Int, AnyGameMove, any SealedGameSession) -> AnyGameMove = { _, move, _ in move }
    /// A member that names one card of its hand but opens the position of another (with its true share of that one).
    var opensAnotherCard: Int?

    init(game: String, seatMembers: [Int], seed: UInt64, bot: String = "random") throws {
        let count = (seatMembers.max() ?? 0) + 1
        let entry = try XCTUnwrap(GameCatalog.standard[game])
        let context = SealedContext(tableId: "5eed\(seed)-\(game)")
        for j in 0..<count {
            let secret = SealedMemberSecret(
                seed: (0..<32).map { UInt8(truncatingIfNeeded: Int(seed) &* 31 &+ j &* 7 &+ $0) }, context: context,
                member: j)
            let local = try XCTUnwrap(try entry.sealedSession(players: seatMembers.count, seed: seed))
            let common = try XCTUnwrap(try entry.sealedSession(players: seatMembers.count, seed: seed))
            let table = SealedTable(
                context: context, secret: secret, seatMembers: seatMembers, members: count, local: local,
                common: common)
            members.append(Member(table: table, hashes: [common.stateHash]))
        }
        links = Array(repeating: Array(repeating: [], count: count), count: count)
        rng = TavoloRNG(seed: seed ^ 0x5ea1)
        self.bot = bot
    }

    mutating func send(_ from: Int, _ envelope: Envelope) {
        let sent = cheat(from, envelope)
        for to in members.indices where to != from { links[from][to].append(sent) }
    }

    mutating func send(_ from: Int, _ messages: [SealedMessage]) { for m in messages { send(from, .sealed(m)) } }

    /// Runs the table until nothing is left to deliver: every member sends its key, then the game plays out.
    mutating func run(maxSteps: Int = 200_000) {
        for j in members.indices { send(j, .sealed(members[j].table.keyMessage!)) }
        for _ in 0..<maxSteps {
            let busy = links.indices.flatMap { f in links[f].indices.filter { !links[f][$0].isEmpty }.map { (f, $0) } }
            guard !busy.isEmpty else { return }
            let (from, to) = busy[rng.below(busy.count)]
            let envelope = links[from][to].removeFirst()
            guard members[to].fault == nil else { continue }
            do {
                try receive(envelope, at: to, from: from)
                try advance(to)
            } catch { members[to].fault = error }
        }
    }

    mutating func receive(_ envelope: Envelope, at j: Int, from: Int) throws(SealedFault) {
        switch envelope {
        case .move(let number, let seat, let move, let opening, let before):
            members[j].pending[number] = (seat, move, opening, before)
        case .sealed(.key(_, let key, let proof)):
            try members[j].table.acceptKey(from: from, key: key, proof: proof)
        case .sealed(.shuffle(_, let deal, let input, let deck)):
            send(j, try members[j].table.acceptShuffle(from: from, deal: deal, input: input, deck: deck))
        case .sealed(.shares(_, let deal, let shares)):
            try members[j].table.acceptShares(from: from, deal: deal, shares)
        case .sealed(.audit(_, let secrets)):
            try members[j].table.acceptAudit(from: from, secrets: secrets)
        case .sealed: break
        }
    }

    /// Applies every move whose turn has come, plays this member's seats when its cards are open, and sends its audit
    /// at the end.
    mutating func advance(_ j: Int) throws(SealedFault) {
        if members[j].table.hasAllKeys && members[j].table.deals.isEmpty {
            send(j, try members[j].table.beginDealIfDue())
        }
        while true {
            let common = members[j].table.common
            if common.turn == .terminal {
                if !members[j].auditSent {
                    members[j].auditSent = true
                    send(j, .sealed(members[j].table.auditMessage!))
                }
                return
            }
            let number = members[j].hashes.count - 1
            if let p = members[j].pending[number] {
                guard try members[j].table.openPlay(seat: p.seat, move: p.move, opening: p.opening) else { return }
                members[j].pending[number] = nil
                guard p.before == members[j].hashes.last else {
                    throw SealedFault(.badCard, member: nil, "move \(number) was made for another state")
                }
                try apply(j, p.move)
                continue
            }
            guard let seat = common.turn.seat, members[j].table.owns(seat: seat), members[j].table.isReady else {
                return
            }
            let local = members[j].table.local
            guard let chosen = try? local.botMove(kind: bot) else { return }
            let move = chooseMove(j, chosen, local)
            if j == opensAnotherCard, let other = local.legalMoves().first(where: { $0 != move }),
                let wrong = try members[j].table.opening(seat: seat, move: other)
            {
                let before = members[j].hashes.last ?? common.stateHash
                send(j, .move(number: number, seat: seat, move: move, opening: wrong, before: before))
                members[j].fault = SealedFault(.wrongCard, member: j, "the cheater stops after its lie")
                return
            }
            let opening = try members[j].table.opening(seat: seat, move: move)
            guard try members[j].table.openPlay(seat: seat, move: move, opening: opening) else { return }
            let before = members[j].hashes.last ?? common.stateHash
            send(j, .move(number: number, seat: seat, move: move, opening: opening, before: before))
            try apply(j, move)
        }
    }

    mutating func apply(_ j: Int, _ move: AnyGameMove) throws(SealedFault) {
        let common = members[j].table.common
        do { try common.apply(move) } catch {
            throw SealedFault(.wrongCard, member: nil, "move refused by the public game: \(error)")
        }
        members[j].hashes.append(common.stateHash)
        send(j, try members[j].table.applied(move))
    }
}
