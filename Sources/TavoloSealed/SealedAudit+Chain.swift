/// The audit's fast path, for when every member's secret is revealed and true (PROTOCOL.md §14.10 steps 2–4 with the
/// same verdict, at about a third of the cost).
///
/// With every secret known, every rerandomiser is known, so each card can be followed through the members' steps
/// with scalars alone: the card at a position has had `ρ` (the sum of the rerandomisers applied to it) added, so its
/// ciphertext must be `(ρ·G, M + (ρ·y)·G)`, `y` being the joint secret. Checking each step against that takes
/// fixed-base multiplications only, where replaying it takes a variable-base one per card (24 against 77 µs here);
/// a share must be `x_j·a = (x_j·ρ)·G`, again fixed-base; and the deck's order is known without opening a card.
/// A step that differs makes the path give up: `SealedAudit.run` then checks each member's step on its own input
/// deck, which is what names the member who lied (a lie upstream would otherwise make every later step differ too).
extension SealedAudit {
    struct Chain {
        /// The card number at each position of the final deck.
        var cards: [Int]
        /// `ρ` of each position of the final deck: its first half is `ρ·G`.
        var rho: [RistrettoScalar]
    }

    /// Each member's step of `deal` followed from the open deck with `secrets` (in member order, all of them); nil when
    /// a step is missing or is not what its member's secret makes. The step of `me` is this node's own, not checked.
    static func chain(
        _ deal: SealedDeal, secrets: [SealedMemberSecret], jointSecret y: RistrettoScalar, trusting me: Int?
    ) -> Chain? {
        let n = deal.cards.count
        guard deal.steps.count == deal.members, secrets.count == deal.members else { return nil }
        // The open deck: position p holds card p as `(identity, M_p)`, so `ρ = 0`.
        var cards = Array(0..<n)
        var rho = [RistrettoScalar](repeating: .zero, count: n)
        for (j, secret) in secrets.enumerated() {
            let step = deal.steps[j]
            guard step.count == n else { return nil }
            let order = SealedShuffle.order(secret: secret, deal: deal.number, count: n)
            var nextCards = cards
            var nextRho = rho
            for (q, p) in order.enumerated() {
                nextCards[q] = cards[p]
                nextRho[q] = rho[p] + secret.rerandomiser(deal: deal.number, position: q)
                guard j != me else { continue }
                guard step[q].a == .base(times: nextRho[q]),
                    step[q].b == deal.cards.points[nextCards[q]] + .base(times: nextRho[q] * y)
                else { return nil }
            }
            cards = nextCards
            rho = nextRho
        }
        return Chain(cards: cards.map { deal.cards.numbers[$0] }, rho: rho)
    }

    /// The first share member `j` sent that is not `x_j·a`, checked as `(x_j·ρ)·G` (see `falseShare`).
    static func falseShare(
        _ deals: [SealedDeal], chains: [Chain], member j: Int, secret: SealedMemberSecret
    ) -> (Int, Int)? {
        for (deal, chain) in zip(deals, chains) {
            for (p, byMember) in deal.shares.sorted(by: { $0.key < $1.key }) {
                if let s = byMember[j], !deal.isChecked(position: p, member: j),
                    s.share != .base(times: secret.key * chain.rho[p])
                {
                    return (deal.number, p)
                }
            }
        }
        return nil
    }
}
