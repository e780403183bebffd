/// A member's part in opening one sealed card (§14.6): `D = x_j·a` for the card's ciphertext `(a, b)`, with a proof
/// that it used its own key. The card opens only when every member's share is in: `M = b − Σ D_j`.
public struct DecryptionShare: Hashable, Sendable {
    public static let byteCount = RistrettoPoint.byteCount + ShareProof.byteCount

    public let share: RistrettoPoint
    public let proof: ShareProof

    public init(share: RistrettoPoint, proof: ShareProof) {
        self.share = share
        self.proof = proof
    }

    /// The share of `secret`'s member for position `position` of deal `deal`, whose ciphertext is `card`.
    public static func make(
        secret: SealedMemberSecret, deal: Int, position: Int, card: SealedCiphertext
    ) -> DecryptionShare {
        let d = card.a.times(secret.key)
        let statement = ShareProof.Statement(
            context: secret.context, deal: deal, position: position, member: secret.member,
            publicKey: secret.publicKey, base: card.a, share: d)
        let nonce = secret.shareNonce(deal: deal, position: position, base: card.a)
        return DecryptionShare(share: d, proof: ShareProof.prove(statement, secret: secret.key, nonce: nonce))
    }

    /// True when the proof shows that `share` is member `member`'s key (public key `publicKey`) times `card.a`.
    public func verifies(
        context: SealedContext, deal: Int, position: Int, member: Int, publicKey: RistrettoPoint,
        card: SealedCiphertext
    ) -> Bool {
        proof.verifies(
            ShareProof.Statement(
                context: context, deal: deal, position: position, member: member, publicKey: publicKey,
                base: card.a, share: share))
    }

    /// The card under `card` once `shares` holds every member's share (verified): nil if the point is no card of
    /// the deck, which means some member's shuffle or share was false (the audit names it, §14.9).
    public static func open(
        _ card: SealedCiphertext, shares: [RistrettoPoint], cards: SealedCardPoints
    ) -> Int? {
        cards.card(of: card.b - RistrettoPoint.sum(shares))
    }
}
