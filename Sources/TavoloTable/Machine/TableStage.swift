import TavoloCore
import TavoloProtocol
import TavoloSealed

/// Where a table is in its life, each stage with only the state it can have (the shape of swift-nio-ssh's
/// `SSHConnectionStateMachine`): no nonce once the seed is known, no pending confirmation before a game exists, no
/// vote about a lost member before play. `info.phase` is what the wire says (§9.2: a paused table is `.playing` here,
/// with its absent members in `Play.absence`); the stage is what the machine holds.
enum TableStage {
    /// Seats being taken; also a table reopened after its seeding was interrupted (§9.13).
    case open(TableLobby)
    /// The joint seed being agreed (§9.3): this node saw the table start.
    case seeding(TableLobby, SeedRound)
    /// From the joint seed on: playing, or paused while a member is away.
    case playing(TablePlay)
    /// Finished or stopped. A game that had begun keeps its play: a late result, a returning member's sync and its
    /// catch-up are still answered.
    case over(TablePlay?)
}

/// The lobby of an open table: seat requests, invitations, and what an interrupted seeding left behind.
struct TableLobby {
    /// A seat request sent to the host that neither an offer nor a refusal has answered yet.
    var seatRequestUnanswered = false
    /// Host: the identity each invited seat is reserved for. The offer shows the invitee's name (`invited`), but a
    /// seat goes to an identity, never to a name: another node taking the invitee's name does not get it.
    var invitedNodes: [Int: NodeID] = [:]
    /// Host: nodes lost while this table was seeding; they may not sit at it again (§9.13).
    var seedingDropouts: Set<NodeID> = []
    /// Times seeding was interrupted and the table reopened; after that, commitments that come while the table is
    /// open may be stale (sent before the reopening): each sender's latest is kept aside until seeding begins.
    var reseeds = 0
    var openCommits: [NodeID: String] = [:]
    /// Commitments and reveals of the first round that came before this node saw the table start (a participant's
    /// can overtake the host's offer on another link): the round begins with them.
    var early = SeedRound()
    /// Commitments from nodes not seated in this node's view of the open table: a member that took its seat just
    /// before the start commits as soon as it sees the start, and its commitment can overtake the host's offers (the
    /// seat's and the start's) on another link. Kept, at most `maxUnseatedCommits`, until seeding begins here.
    var unseatedCommits: [NodeID: String] = [:]
    static let maxUnseatedCommits = 16
}

/// One round of commit–reveal (§9.3).
struct SeedRound {
    var myNonce: [UInt8]?
    var commitments: [NodeID: String] = [:]
    var reveals: [NodeID: [UInt8]] = [:]
    /// Commitments taken from `openCommits`: one may still be replaced once by its sender's next (that one was stale).
    var adoptedCommits: Set<NodeID> = []
    /// A sealed table (§14.4): this node's secret σ, drawn with its nonce, and the members' keys as they came, each
    /// proof verified.
    var sealedSecret: [UInt8]?
    var sealedKeys: [NodeID: SealedKeyClaim] = [:]
}

/// Messages that came before their turn. They may come in any stage: the host's deal or a racer's move can
/// overtake the last reveal on another link, so they wait here until the game exists and their turn comes.
struct TableInbox {
    var deals: [Int: [UInt8]] = [:]
    /// Moves of every lane before their turn (`PendingMoves`).
    var pending = PendingMoves()
    /// Confirmations of moves not yet applied here, kept until they are.
    var confirms: [Int: [NodeID: StateHash]] = [:]
    /// Deals from a member that is not the host while the host is away (§9.13): where a takeover of the host is
    /// agreed first, its successor deals before this node agrees it. Taken once the sender is the host here.
    var dealsFromSuccessor: [Int: (from: NodeID, cards: [UInt8])] = [:]
    /// Members' results that came before the seed here: a fast racer can finish its race before this node has the
    /// last reveal (§10.2). Taken into play at the seed, checked when this node ends (one per member, so bounded).
    var results: [NodeID: StateHash] = [:]
    /// Members' race finishing orders (`table.race-order`, §10.3) that came before the seed here, likewise.
    var raceOrders: [NodeID: [Int]] = [:]
    /// A sealed table's shuffles and shares that came before the seed here (member 0 shuffles as soon as it has the
    /// seed), at most `TableMachine.maxPending`.
    var sealed: [(from: NodeID, message: SealedMessage)] = []
}

/// Play, from the joint seed on: what `TablePlay` keeps in its box.
struct TablePlayState {
    let seed: UInt64
    /// The game and every move applied to it (§9.4, §10.2).
    var sequencer: MoveSequencer
    /// The round that gave the seed, kept for reports and the log.
    var round: SeedRound
    var verifiedDeal = 0
    var dealsSent = 0
    /// For each move this node sent: the members that confirmed it so far.
    var confirmedBy: [Int: Set<NodeID>] = [:]
    var results: [NodeID: StateHash] = [:]
    /// Other members' results that a finished member relayed (§9.5), with the relayer's count of takeovers, kept
    /// until this node ends: one per member, so bounded.
    var relayedResults: [NodeID: (hash: StateHash, takeovers: Int)] = [:]
    var resultSent = false
    var yourTurnAnnounced = -1
    /// Simultaneous play (§10, `TableMachine+Race.swift`).
    var race = RaceState()
    /// A game that survives a lost member (§9.10–9.13).
    var absence = MemberAbsence()
    /// The move the bot of each inherited seat plays next, by seat, once worked out (`TableMachine+HeirBots.swift`).
    var heirMoves: [Int: TableMachine.HeirMove] = [:]
    /// A sealed table: each card move's opening (`table.sealed-open`), by move number and sender (the mover, or a
    /// member relaying the move in a catch-up, §14.12), until the move is applied.
    var sealedOpenings: [Int: [NodeID: SealedTable.CardOpening]] = [:]
    var sealedAuditSent = false
    /// The audits' deadline passed (§9.8's reply time from this node's own audit): the audit runs with what came, and
    /// names each member whose secret is missing (`sealed/no-audit`).
    var sealedAuditExpired = false
    /// An heir's messages, and pieces released to this node as an heir, that came before this node passed the seats
    /// they depend on (§14.11): tried again after each pass, a few at most.
    var sealedWaiting: [(from: NodeID, message: SealedMessage)] = []
    /// A sealed table's member restarted: its journal's moves, its own seats' played again in order
    /// (`TableMachine+SealedResume.swift`), since nobody may be left that holds them (alone, or all restarted).
    var sealedJournalMoves: [GameLog.LoggedMove] = []
    /// The most moves a member's sync said it holds while those are played again: its catch-up brings them.
    var sealedJournalAhead = 0
}

/// Lost members, votes and takeovers (§9.10–9.13): `TableMachine+Pause.swift`, `+Takeover.swift`, `+Spectator.swift`.
struct MemberAbsence {
    /// Members lost during play that are not back yet (the table is paused while there is one).
    var absent: Set<NodeID> = []
    /// Absent members whose grace period ended here.
    var graceOver: Set<NodeID> = []
    /// The move count each absent member was lost at here, this time (votes below it are from an earlier absence).
    var lostAt: [NodeID: Int] = [:]
    /// Peers this node sent its `table.sync` to since they (re)connected.
    var syncSent: Set<NodeID> = []
    /// Takeover votes seen: member voted out → move number → voters.
    var votes: [NodeID: [Int: Set<NodeID>]] = [:]
    /// A vote about this node came since it last resumed: paused, it applies no move of its own seats (§9.12).
    var votedAboutSinceResume = false
    /// This node's own vote, per member.
    var myVote: [NodeID: Int] = [:]
    /// The move count this node's user left the game at (its `table.forfeit`), sent again to each member whose
    /// session comes back while this copy of the table lasts: one cut off when it left would otherwise never learn
    /// it (§9.12).
    var forfeitedAt: Int?
    /// This node's signature of that forfeit, sent with it each time (§11.7).
    var forfeitSignature: SignatureObject?
    /// Takeovers agreed (or forfeits), waiting for their move: they apply before the member's seats' first move
    /// numbered at least `number`, or at the end.
    var agreed: [TableMachine.AgreedTakeover] = []
    /// Members whose seats passed, or will pass, to a bot: nobody waits for them any more.
    var replaced: Set<NodeID> = []
    /// Members voted out (not those that forfeited): they follow the rest of the game as spectators of their former
    /// seats, so the table's messages still go to them (§9.12).
    var spectators: Set<NodeID> = []
}
