/// A Schnorr proof that the sender knows `x` with `h = x·G` (§14.4), made non-interactive by Fiat–Shamir:
/// `R = k·G`, `c = H("tavolo/sealed/key-proof/v1" ‖ table ‖ u8(member) ‖ h ‖ R)`, `s = k + c·x`; sent as `c ‖ s`.
/// Without it the last member to publish a key could pick `h = X − Σ others` and hold the whole joint key alone.
public struct KeyProof: ChallengeResponseProof {
    public static let label = "tavolo/sealed/key-proof/v1"

    public let challenge: RistrettoScalar
    public let response: RistrettoScalar

    public init(challenge: RistrettoScalar, response: RistrettoScalar) {
        self.challenge = challenge
        self.response = response
    }

    /// The proof for secret `x` with the nonce `k` (derived by the member, §14.4).
    public static func prove(
        secret x: RistrettoScalar, nonce k: RistrettoScalar, context: SealedContext, member: Int
    ) -> KeyProof {
        let h = RistrettoPoint.base(times: x)
        let c = challenge(context: context, member: member, publicKey: h, commitment: .base(times: k))
        return KeyProof(challenge: c, response: k + c * x)
    }

    /// True when the proof shows knowledge of the secret of `publicKey` for this table and member.
    public func verifies(publicKey h: RistrettoPoint, context: SealedContext, member: Int) -> Bool {
        let commitment = RistrettoPoint.base(times: response) - h.times(challenge)
        return Self.challenge(context: context, member: member, publicKey: h, commitment: commitment) == challenge
    }

    static func challenge(
        context: SealedContext, member: Int, publicKey: RistrettoPoint, commitment: RistrettoPoint
    ) -> RistrettoScalar {
        var t = context.transcript(label)
        t.append(u8: UInt8(member))
        t.append(publicKey)
        t.append(commitment)
        return t.scalar()
    }
}
