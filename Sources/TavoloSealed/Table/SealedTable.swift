import TavoloCore

/// A sealed table's game at one member (PROTOCOL.md §14.8): the keys, each deal's shuffles and shares, the cards
/// this node may see, and the two games it runs — `local`, on the cards its seats saw (what its user and bots play
/// from), and `common`, on the public completion (the same at every node: what the state hash covers, §14.9). Pure:
/// messages in, checks, messages out; every lie seen live throws a `SealedFault` naming its member, and the rest is
/// the audit's (`SealedTable+Audit.swift`).
///
/// The table layer keeps the order: a move that plays a card is first opened here (`acceptPlay`, which rebuilds
/// `common` with the card public), then applied by its sequencer to `common`, then told here (`applied`), which
/// rebuilds `local`, notes the draws and answers with the shares the draws need.
public struct SealedTable {
    public let context: SealedContext
    /// This node's σ as member `me`; nil at an **observer**: a member of the table with no seat (a seatless host),
    /// which is no member of the deck (§14.1). It shuffles nothing and shares nothing, sees a card only once it is
    /// played or open to everyone, and checks every move and share it relies on as any member does.
    public let secret: SealedMemberSecret?
    /// The member that owns each seat (member `j` is the `j`-th participant, §14.1).
    public let seatMembers: [Int]
    public let members: Int
    public let cards: SealedCardPoints
    /// Each member's public key once it is in and its proof verified.
    public internal(set) var keys: [RistrettoPoint?]
    /// Deal `d` is `deals[d − 1]`.
    public internal(set) var deals: [SealedDealView] = []
    /// Every move applied so far, in order.
    public internal(set) var moves: [AnyGameMove] = []
    /// Messages that came before their turn, by deal number (up to `maxDealsAhead` deals ahead, bounded).
    var early: [Int: SealedEarlyMessages] = [:]
    /// The secrets members opened at the audit, by member.
    public internal(set) var auditSecrets: [Int: [UInt8]] = [:]
    /// The member that acts for each member: itself, until its seats pass to an heir (§14.11).
    public internal(set) var actors: [Int]
    /// The secrets this node recovered as an heir, by member.
    public internal(set) var inherited: [Int: SealedMemberSecret] = [:]
    /// Every member's escrow as it came (`table.sealed-escrow`), by owner: kept, since an heir that recovers a holder's
    /// secret opens the pieces sealed to that holder too.
    public internal(set) var escrows: [Int: [SealedEscrow.SealedPiece]] = [:]
    /// Second escrows (§14.11): the secret of member `owner` split again by the heir acting for it, for the members that
    /// heir did not act for, by owner; every one accepted, in the order they came.
    public internal(set) var reEscrows: [Int: [SealedReEscrow]] = [:]
    /// At the heir: the pieces released to it, by the leaver whose secret they give, then by the commitment each
    /// matches (a holder's piece of the first escrow and of a second may differ).
    var released: [Int: [[UInt8]: [UInt8]]] = [:]
    /// The members an heir out in turn took along when its seats passed (§14.11): those it acted for, by that heir.
    public internal(set) var carried: [Int: [Int]] = [:]
    /// At an heir: the holders each secret it acts for was split among again (`reEscrowMessages`), by owner.
    var reEscrowedFor: [Int: [Int]] = [:]
    /// The card each move played, by move number: its deal, position and mover (to relay its opening, §14.12).
    var playedCards: [Int: PlayedCard] = [:]
    /// Lies this node tells, for tests only (`tavolod --test-sealed-cheat`): every other node must catch each.
    public var cheats: Set<SealedCheat> = []
    /// `peek`: the openings of other seats' cards this node tried, and those that gave a card.
    public internal(set) var peekAttempts = 0
    public internal(set) var peeked = 0
    /// This node's game: its seats' cards where they lie, every other card a stand-in.
    public private(set) var local: any SealedGameSession
    /// The game on the public completion: identical at every member.
    public private(set) var common: any SealedGameSession

    /// This node's member index; at an observer `members`, which names no member, so that nothing is its own.
    public let me: Int

    public var isObserver: Bool { secret == nil }

    /// `secret` nil makes an observer (a node at the table without a seat).
    public init(
        context: SealedContext, secret: SealedMemberSecret?, seatMembers: [Int], members: Int,
        local: any SealedGameSession, common: any SealedGameSession
    ) {
        precondition(seatMembers.allSatisfy { (0..<members).contains($0) } && (secret?.member ?? 0) < members)
        self.context = context
        self.secret = secret
        me = secret?.member ?? members
        self.seatMembers = seatMembers
        self.members = members
        cards = SealedCardPoints(numbers: common.sealedCardNumbers)
        self.local = local
        self.common = common
        keys = Array(repeating: nil, count: members)
        if let secret { keys[secret.member] = secret.publicKey }
        actors = Array(0..<members)
    }

    // MARK: Keys (§14.4, §14.8 step 1)

    /// `table.sealed-key`: this node's key and its proof (none at an observer).
    public var keyMessage: SealedMessage? {
        secret.map { .key(table: context.tableId, key: $0.publicKey, proof: $0.keyProof()) }
    }

    /// Member `member`'s key: its proof must verify, and a second key must be the same.
    public mutating func acceptKey(from member: Int, key: RistrettoPoint, proof: KeyProof) throws(SealedFault) {
        guard keys.indices.contains(member), member != me else { return }
        guard proof.verifies(publicKey: key, context: context, member: member) else {
            throw SealedFault(.badKey, member: member, "the key's proof does not verify")
        }
        if let known = keys[member], known != key {
            throw SealedFault(.badKey, member: member, "a second, different key")
        }
        keys[member] = key
    }

    public var hasAllKeys: Bool { keys.allSatisfy { $0 != nil } }

    /// Whether `seat` is one of this node's: of its member, or of a member it acts for as an heir.
    public func owns(seat: Int) -> Bool { seatMembers.indices.contains(seat) && actors[seatMembers[seat]] == me }

    /// The secrets this node acts with: its own, then those it recovered, in member order.
    public var actingSecrets: [SealedMemberSecret] {
        (secret.map { [$0] } ?? []) + inherited.filter { actors[$0.key] == me }.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The secret of member `member`, when this node acts for it and holds it.
    func actingSecret(_ member: Int) -> SealedMemberSecret? {
        member == me ? secret : actors[member] == me ? inherited[member] : nil
    }

    /// The current deal, once begun.
    public var current: SealedDealView? { deals.last }

    // MARK: Games

    /// The same table on copies of its games (sessions are references: a copied table must not move the original's).
    mutating func replaceGames(local: any GameSession, common: any GameSession) {
        guard let local = local as? any SealedGameSession, let common = common as? any SealedGameSession else { return }
        self.local = local
        self.common = common
    }

    /// Each begun deal's order as this node knows it (public only, or with its own cards), for a rebuild. A deal whose
    /// deck is not final yet is left out: the game keeps the seed's order there, a stand-in nobody plays from.
    func completions(withPrivate: Bool) -> [[Int]] {
        deals.filter { $0.deal.finalDeck != nil }.map { view in
            SealedCompletion.order(
                cardNumbers: cards.numbers, known: withPrivate ? view.knownCards : view.publicCards)
        }
    }

    /// Builds `common` again from the public knowledge, at the moves applied so far.
    mutating func rebuildCommon() throws(SealedFault) {
        do { try common.sealedRebuild(deals: completions(withPrivate: false), moves: moves) } catch {
            throw SealedFault(.badCard, member: nil, "the public game does not replay: \(error)")
        }
    }

    /// Builds `local` again from what this node knows, at the moves applied so far.
    mutating func rebuildLocal() throws(SealedFault) {
        do { try local.sealedRebuild(deals: completions(withPrivate: true), moves: moves) } catch {
            throw SealedFault(.badCard, member: nil, "this node's game does not replay: \(error)")
        }
    }
}

/// A card a move played: where it lay, and the member whose seat played it.
struct PlayedCard: Sendable {
    var deal: Int
    var position: Int
    var mover: Int
}

/// A lie a test node tells at a sealed table (`tavolod --test-sealed-cheat`, never in a user's node): the issue's
/// list of what a modified node tries, each of which the others must catch and pin on it.
public enum SealedCheat: String, CaseIterable, Sendable {
    /// Its shuffle of each deal is not the one its secret makes (two cards swapped): named by the audit.
    case falseShuffle = "false-shuffle"
    /// The first share of each of its deal's `table.sealed-shares` is false: named by the seat it opens, live.
    case falseShare = "false-share"
    /// Its first card played opens another card it holds (a true share of that position): named by every node, live.
    case wrongCard = "wrong-card"
    /// Its bot flees whenever the public rules let it while it could follow (Spirits!): named by the audit.
    case falseFlee = "false-flee"
    /// It tries to open every card of another seat with every share it holds, and counts what it could read
    /// (`peekAttempts`, `peeked`): nothing, unless every other member gave it its share.
    case peek
}
