import TavoloCore
import TavoloProtocol

/// The parts of the stage the rule files read and change. Each is nil in a stage that has no such part, so a rule
/// that writes one where it cannot be (`play?.results[…] = …` before the seed) does nothing; debug builds trap on it
/// (`stageFault`). Changes go through `_modify` with the stage emptied meanwhile, so the part's collections are
/// changed in place, never copied.
extension TableMachine {
    /// Play, from the joint seed on (also once the game is over).
    var play: TablePlay? {
        get {
            switch stage {
            case .playing(let p): p
            case .over(let p): p
            case .open, .seeding: nil
            }
        }
        _modify {
            var part: TablePlay?
            var over = false
            switch stage {
            case .playing(let p): part = p
            case .over(let p): (part, over) = (p, true)
            case .open, .seeding: part = nil
            }
            guard part != nil else {
                yield &part
                if part != nil { stageFault("play set before the seed") }
                return
            }
            stage = .open(TableLobby())
            yield &part
            guard let changed = part else { preconditionFailure("play removed by a rule") }
            stage = over ? .over(changed) : .playing(changed)
        }
    }

    /// The lobby, while the table is open or seeding.
    var lobby: TableLobby? {
        get {
            switch stage {
            case .open(let l), .seeding(let l, _): l
            case .playing, .over: nil
            }
        }
        _modify {
            var part: TableLobby?
            var round: SeedRound?
            switch stage {
            case .open(let l): part = l
            case .seeding(let l, let r): (part, round) = (l, r)
            case .playing, .over: part = nil
            }
            guard part != nil else {
                yield &part
                if part != nil { stageFault("lobby set after the seed") }
                return
            }
            stage = .open(TableLobby())
            yield &part
            let changed = part ?? TableLobby()
            stage = round.map { .seeding(changed, $0) } ?? .open(changed)
        }
    }

    /// The round of commit–reveal this node takes part in, while seeding; while open, what came of it early.
    var round: SeedRound? {
        get {
            switch stage {
            case .open(let l): l.early
            case .seeding(_, let r): r
            case .playing, .over: nil
            }
        }
        _modify {
            switch stage {
            case .open(var l):
                var part: SeedRound? = l.early
                l.early = SeedRound()
                stage = .open(TableLobby())
                yield &part
                l.early = part ?? SeedRound()
                stage = .open(l)
            case .seeding(let l, let r):
                var part: SeedRound? = r
                stage = .open(l)
                yield &part
                stage = .seeding(l, part ?? SeedRound())
            case .playing, .over:
                var none: SeedRound?
                yield &none
                if none != nil { stageFault("a seed round set after the seed") }
            }
        }
    }

    /// The commit–reveal round as far as it went: the current one while seeding, the one that gave the seed after.
    public var reveals: [NodeID: [UInt8]] { (round ?? play?.round)?.reveals ?? [:] }
    public var commitments: [NodeID: String] { (round ?? play?.round)?.commitments ?? [:] }

    public var jointSeed: UInt64? { play?.seed }
    public var sequencer: MoveSequencer? { play?.sequencer }
    public var session: (any GameSession)? { play?.sequencer.game }
    /// Turn-based: the state hash after k moves, k = 0 … moveNumber.
    var hashes: [StateHash] { play?.sequencer.hashes ?? [] }
    /// Whether this node began the seeding round (or is past it).
    var seedingBegun: Bool {
        switch stage {
        case .open: false
        case .seeding, .playing: true
        case .over(let p): p != nil
        }
    }

    /// Members whose seats passed, or will pass, to a bot: nobody waits for them any more.
    public var replaced: Set<NodeID> { play?.absence.replaced ?? [] }
    /// Members voted out (not those that forfeited), following the game as spectators (§9.12).
    public var spectators: Set<NodeID> { play?.absence.spectators ?? [] }
    var absent: Set<NodeID> { play?.absence.absent ?? [] }
    var agreed: [AgreedTakeover] { play?.absence.agreed ?? [] }
    var results: [NodeID: StateHash] { play?.results ?? [:] }
    var relayedResults: [NodeID: (hash: StateHash, takeovers: Int)] { play?.relayedResults ?? [:] }
    var resultSent: Bool { play?.resultSent ?? false }
    var verifiedDeal: Int { play?.verifiedDeal ?? 0 }
    /// The move count this node's user forfeited at, if it did.
    public var forfeitedAt: Int? { play?.absence.forfeitedAt }

    // Reads of the parts' fields, with what a stage without the part means (nothing agreed, nobody absent, …).
    // Writes name the part (`play?.absence.votes[…] = …`), so it is plain where each lives.
    var graceOver: Set<NodeID> { play?.absence.graceOver ?? [] }
    var syncSent: Set<NodeID> { play?.absence.syncSent ?? [] }
    var votes: [NodeID: [Int: Set<NodeID>]] { play?.absence.votes ?? [:] }
    var votedAboutSinceResume: Bool { play?.absence.votedAboutSinceResume ?? false }
    var myVote: [NodeID: Int] { play?.absence.myVote ?? [:] }
    var dealsSent: Int { play?.dealsSent ?? 0 }
    var confirmedBy: [Int: Set<NodeID>] { play?.confirmedBy ?? [:] }
    var yourTurnAnnounced: Int { play?.yourTurnAnnounced ?? -1 }
    var race: RaceState { play?.race ?? RaceState() }
    var seatRequestUnanswered: Bool { lobby?.seatRequestUnanswered ?? false }
    var invitedNodes: [Int: NodeID] { lobby?.invitedNodes ?? [:] }
    var seedingDropouts: Set<NodeID> { lobby?.seedingDropouts ?? [] }
    var reseeds: Int { lobby?.reseeds ?? 0 }
    var openCommits: [NodeID: String] { lobby?.openCommits ?? [:] }
    var myNonce: [UInt8]? { round?.myNonce }
    var adoptedCommits: Set<NodeID> { round?.adoptedCommits ?? [] }

    /// The table is over: what was played stays, nothing more is played.
    mutating func enterOver() {
        switch stage {
        case .playing(let p): stage = .over(p)
        case .open, .seeding: stage = .over(nil)
        case .over: break
        }
    }

    /// A write to a part the stage does not have: a bug in a rule, never a peer's doing (rules check the stage
    /// before they act on a message).
    func stageFault(_ what: String) {
        assertionFailure("table \(id): \(what)")
    }
}
