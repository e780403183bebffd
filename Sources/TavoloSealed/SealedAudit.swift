/// The end-of-game audit (PROTOCOL.md §14.10 steps 1–4): with every member's revealed secret, recompute every
/// member's shuffle of every deal, check every share kept, and open every card. Names each member whose secret or shuffle was false; the
/// game layer then replays the game with every hand known (step 5: a false `flee`).
public enum SealedAudit {
    public struct Outcome: Sendable {
        /// One fault per member named, in member order.
        public var faults: [SealedFault]
        /// For each deal (in the order given), the card number at every position; nil when a false shuffle leaves
        /// a deal that does not open to its deck.
        public var orders: [[Int]?]

        public var cheaters: [Int] { faults.compactMap(\.member) }
        public var verified: Bool { faults.isEmpty }
    }

    /// `secrets[j]` is member `j`'s revealed σ, nil when it sent none. `trusting` is the member the auditing node is
    /// itself: its own shuffles and shares are what it made, so they are not replayed (a sixth of a six-member audit).
    /// With every secret in and true, the cards are followed through every step at once (`chain`, the cheap path);
    /// when that finds a step that differs, or a secret is missing, each member's step is replayed on its own input.
    public static func run(secrets: [[UInt8]?], deals: [SealedDeal], trusting me: Int? = nil) -> Outcome {
        guard let first = deals.first else { return Outcome(faults: [], orders: []) }
        var faults: [Int: SealedFault] = [:]
        var members: [SealedMemberSecret?] = []
        for (j, key) in first.publicKeys.enumerated() {
            guard let seed = j < secrets.count ? secrets[j] : nil, seed.count == SealedMemberSecret.byteCount else {
                faults[j] = SealedFault(.noAudit, member: j, "no secret at the audit")
                members.append(nil)
                continue
            }
            let secret = SealedMemberSecret(seed: seed, context: first.context, member: j)
            guard secret.publicKey == key else {
                faults[j] = SealedFault(.badSecret, member: j, "the secret does not derive the member's key")
                members.append(nil)
                continue
            }
            members.append(secret)
        }
        let all = members.compactMap { $0 }
        // Every key checked against its member's public key: their sum's `·G` is the joint key every deal used.
        let jointSecret = all.count == first.members ? all.map(\.key).reduce(RistrettoScalar.zero, +) : nil
        if let y = jointSecret {
            let chains = deals.compactMap { chain($0, secrets: all, jointSecret: y, trusting: me) }
            if chains.count == deals.count {
                for (j, secret) in all.enumerated() where j != me {
                    guard let (deal, p) = falseShare(deals, chains: chains, member: j, secret: secret) else { continue }
                    faults[j] = SealedFault(.badShare, member: j, "deal \(deal): its share for position \(p) was false")
                }
                return Outcome(faults: faults.sorted { $0.key < $1.key }.map(\.value), orders: chains.map(\.cards))
            }
        }
        for (j, secret) in members.enumerated() where j != me {
            guard let secret else { continue }
            if let deal = deals.first(where: { !reproduces($0, member: j, secret: secret, jointSecret: jointSecret) }) {
                faults[j] = SealedFault(.badShuffle, member: j, "deal \(deal.number): the shuffle is not the secret's")
            } else if let (deal, p) = falseShare(deals, member: j, secret: secret) {
                faults[j] = SealedFault(.badShare, member: j, "deal \(deal): its share for position \(p) was false")
            }
        }
        let orders = deals.map { deal in jointSecret.flatMap { open(deal, withJointSecret: $0) } }
        return Outcome(faults: faults.sorted { $0.key < $1.key }.map(\.value), orders: orders)
    }

    /// Whether member `j`'s step of `deal` is the one its secret makes; with the joint secret known (every member's
    /// secret revealed and true), replayed with fixed-base multiplications only.
    static func reproduces(
        _ deal: SealedDeal, member j: Int, secret: SealedMemberSecret, jointSecret: RistrettoScalar? = nil
    ) -> Bool {
        guard j < deal.steps.count else { return false }
        let input = j == 0 ? SealedDeck.initial(deal.cards) : deal.steps[j - 1]
        let output =
            jointSecret.map { SealedShuffle.step(input, secret: secret, deal: deal.number, jointSecret: $0) }
            ?? SealedShuffle.step(input, secret: secret, deal: deal.number, jointKey: deal.jointKey)
        return output == deal.steps[j]
    }

    /// The first share member `j` sent that is not `x_j·a`: kept unchecked live (§14.6), it is checked here; one whose
    /// proof this node verified live is `x_j·a` already.
    static func falseShare(_ deals: [SealedDeal], member j: Int, secret: SealedMemberSecret) -> (Int, Int)? {
        for deal in deals {
            guard let deck = deal.finalDeck else { continue }
            for (p, byMember) in deal.shares.sorted(by: { $0.key < $1.key }) {
                if let s = byMember[j], !deal.isChecked(position: p, member: j), s.share != deck[p].a.times(secret.key)
                {
                    return (deal.number, p)
                }
            }
        }
        return nil
    }

    /// Every position of the deal with the joint secret; nil unless each card of the deck comes out exactly once.
    static func open(_ deal: SealedDeal, withJointSecret joint: RistrettoScalar) -> [Int]? {
        guard let deck = deal.finalDeck else { return nil }
        let order = deck.compactMap { deal.cards.card(of: $0.b - $0.a.times(joint)) }
        return order.count == deck.count && Set(order).count == deck.count ? order : nil
    }
}
