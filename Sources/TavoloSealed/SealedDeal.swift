/// One deal of a sealed deck as one node holds it (PROTOCOL.md §14.8 steps 2–5): the members' shuffles in turn, the
/// shares received, and the cards this node opened. Pure: messages in, checks, cards out; every lie it can see at
/// once throws a `SealedFault` naming the sender. What it cannot see live (a false shuffle) is `SealedAudit`'s job.
///
/// Proofs cost four scalar multiplications each, so a node checks only the ones it relies on (§14.6): the shares of
/// a card of its own seats, and the mover's share of a card played. The rest it keeps unchecked; when a card does not
/// open to what is claimed it checks them all and names the first false one, and the audit checks every share
/// against the revealed keys.
public struct SealedDeal: Sendable {
    public let context: SealedContext
    public let number: Int
    public let cards: SealedCardPoints
    public let publicKeys: [RistrettoPoint]
    public let jointKey: RistrettoPoint
    /// Each member's output deck, in member order, as far as they have arrived.
    public private(set) var steps: [[SealedCiphertext]] = []
    /// Shares received: `shares[position][member]`, proofs kept for a later check and the audit.
    public private(set) var shares: [Int: [Int: DecryptionShare]] = [:]
    /// The shares whose proofs this node has checked: `checked[position]` holds members.
    private var checked: [Int: Set<Int>] = [:]
    /// The cards opened here: `opened[position]` is a card number.
    public private(set) var opened: [Int: Int] = [:]

    public init(context: SealedContext, number: Int, cards: SealedCardPoints, publicKeys: [RistrettoPoint]) {
        self.context = context
        self.number = number
        self.cards = cards
        self.publicKeys = publicKeys
        jointKey = RistrettoPoint.sum(publicKeys)
    }

    public var members: Int { publicKeys.count }
    /// The member whose shuffle comes next; nil once the deck is final.
    public var nextShuffler: Int? { steps.count < members ? steps.count : nil }
    public var finalDeck: [SealedCiphertext]? { steps.count == members ? steps.last : nil }
    /// The deck the next shuffler takes.
    public var inputDeck: [SealedCiphertext] { steps.last ?? SealedDeck.initial(cards) }

    /// Whether `bytes` is the step of `member` this node holds already: a copy, from the leaver or from its heir
    /// (§14.11), both made from the same secret.
    public func holdsStep(of member: Int, input: [UInt8], deck bytes: [UInt8]) -> Bool {
        guard steps.indices.contains(member) else { return false }
        let before = member == 0 ? SealedDeck.initial(cards) : steps[member - 1]
        return SealedDeck.hash(before) == input && SealedDeck.encode(steps[member]) == bytes
    }

    /// This node's own step, as `table.sealed-shuffle` carries it (`input` hash, output deck).
    public func shuffle(with secret: SealedMemberSecret) -> (input: [UInt8], deck: [SealedCiphertext]) {
        (SealedDeck.hash(inputDeck), SealedShuffle.step(inputDeck, secret: secret, deal: number, jointKey: jointKey))
    }

    /// Takes member `member`'s step: it must be that member's turn, on the deck this node holds, well formed.
    public mutating func acceptShuffle(from member: Int, input: [UInt8], deck bytes: [UInt8]) throws(SealedFault) {
        guard member == nextShuffler else { throw SealedFault(.badDeck, member: member, "shuffle out of turn") }
        guard input == SealedDeck.hash(inputDeck) else {
            throw SealedFault(.badDeck, member: member, "shuffled another deck than the one before it")
        }
        guard let deck = SealedDeck.decode(bytes, count: cards.count) else {
            throw SealedFault(.badDeck, member: member, "malformed deck")
        }
        steps.append(deck)
    }

    /// This node's shares for `positions` of the final deck (`table.sealed-shares`, or a move's `open`).
    public func shares(of secret: SealedMemberSecret, positions: [Int]) -> [(position: Int, share: DecryptionShare)] {
        guard let deck = finalDeck else { return [] }
        return positions.map { ($0, DecryptionShare.make(secret: secret, deal: number, position: $0, card: deck[$0])) }
    }

    /// Takes member `member`'s shares; with `verify` each proof must verify against its key and the position's
    /// ciphertext now (a card of this node's seats), else it is kept for a later check.
    public mutating func acceptShares(
        from member: Int, _ list: [(position: Int, share: DecryptionShare)], verify: Bool = true
    ) throws(SealedFault) {
        guard let deck = finalDeck, publicKeys.indices.contains(member) else {
            throw SealedFault(.badShare, member: member, "shares before the deck is final")
        }
        for (p, s) in list {
            guard deck.indices.contains(p) else {
                throw SealedFault(.badShare, member: member, "a share for position \(p), outside the deck")
            }
            if let known = shares[p]?[member], known != s {
                throw SealedFault(.badShare, member: member, "a second share for position \(p)")
            }
            shares[p, default: [:]][member] = s
            if verify { try check(position: p, member: member) }
        }
    }

    /// Whether member `member`'s share for position `p` was checked here against its proof (so it is `x·a`).
    public func isChecked(position p: Int, member: Int) -> Bool { checked[p]?.contains(member) == true }

    /// Checks one kept share's proof (once), naming its sender when it fails.
    mutating func check(position p: Int, member: Int) throws(SealedFault) {
        guard let s = shares[p]?[member], checked[p]?.contains(member) != true, let deck = finalDeck else { return }
        guard
            s.verifies(
                context: context, deal: number, position: p, member: member, publicKey: publicKeys[member],
                card: deck[p])
        else { throw SealedFault(.badShare, member: member, "share for position \(p) does not verify") }
        checked[p, default: []].insert(member)
    }

    /// A card that did not open to what it should: the first false share at `position` is to blame, if any.
    mutating func checkAll(position p: Int) throws(SealedFault) {
        for member in (shares[p] ?? [:]).keys.sorted() { try check(position: p, member: member) }
    }

    /// The card at `position` once every member's share is here (this node's own computed with `secret` when it
    /// kept it back: a card of its seats); nil while one is missing.
    public mutating func open(_ position: Int, with secret: SealedMemberSecret? = nil) throws(SealedFault) -> Int? {
        try open(position, with: secret.map { [$0] } ?? [])
    }

    /// The same, with the secrets of every member this node acts for (its own, and an heir's, §14.11).
    public mutating func open(_ position: Int, with secrets: [SealedMemberSecret]) throws(SealedFault) -> Int? {
        if let card = opened[position] { return card }
        guard let deck = finalDeck, deck.indices.contains(position) else { return nil }
        var held = (shares[position] ?? [:]).mapValues(\.share)
        for secret in secrets where held[secret.member] == nil {
            held[secret.member] = deck[position].a.times(secret.key)
        }
        guard held.count == members else { return nil }
        guard let card = DecryptionShare.open(deck[position], shares: Array(held.values), cards: cards) else {
            try checkAll(position: position)
            throw SealedFault(.badCard, member: nil, "position \(position) opens to no card of the deck")
        }
        guard !opened.values.contains(card) else {
            try checkAll(position: position)
            throw SealedFault(.badCard, member: nil, "position \(position) opens to a card already opened")
        }
        opened[position] = card
        return card
    }

    /// A card played by member `member` from `position`, claimed to be `card`: its share opens it to everyone here.
    public mutating func acceptPlay(
        from member: Int, position: Int, card: Int, share: DecryptionShare
    ) throws(SealedFault) {
        do { try acceptShares(from: member, [(position, share)]) } catch {
            throw SealedFault(.wrongCard, member: member, "the card's share does not verify: \(error.detail)")
        }
        guard let shown = try open(position) else {
            throw SealedFault(.wrongCard, member: member, "position \(position) cannot be opened yet")
        }
        guard shown == card else {
            opened[position] = nil
            try checkAll(position: position)
            throw SealedFault(
                .wrongCard, member: member, "played \(card) from position \(position), which holds \(shown)")
        }
    }
}
