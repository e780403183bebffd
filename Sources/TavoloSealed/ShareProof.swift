/// A Chaum–Pedersen proof that a decryption share uses the member's own key (§14.6): the discrete log of the
/// member's public key `h` to base G equals that of the share `D` to base `A` (the ciphertext's first half).
/// `T1 = k·G`, `T2 = k·A`, `c = H("tavolo/sealed/share-proof/v1" ‖ table ‖ u32(deal) ‖ u16(position) ‖ u8(member)
/// ‖ h ‖ A ‖ D ‖ T1 ‖ T2)`, `s = k + c·x`; sent as `c ‖ s`. A wrong share cannot carry a proof that verifies.
public struct ShareProof: ChallengeResponseProof {
    public static let label = "tavolo/sealed/share-proof/v1"

    public let challenge: RistrettoScalar
    public let response: RistrettoScalar

    public init(challenge: RistrettoScalar, response: RistrettoScalar) {
        self.challenge = challenge
        self.response = response
    }

    /// What a share proof is about: which card of which deal, whose key, and the points themselves.
    public struct Statement: Sendable {
        public var context: SealedContext
        public var deal: Int
        public var position: Int
        public var member: Int
        public var publicKey: RistrettoPoint
        public var base: RistrettoPoint
        public var share: RistrettoPoint

        public init(
            context: SealedContext, deal: Int, position: Int, member: Int, publicKey: RistrettoPoint,
            base: RistrettoPoint, share: RistrettoPoint
        ) {
            self.context = context
            self.deal = deal
            self.position = position
            self.member = member
            self.publicKey = publicKey
            self.base = base
            self.share = share
        }
    }

    public static func prove(_ statement: Statement, secret x: RistrettoScalar, nonce k: RistrettoScalar) -> ShareProof
    {
        let c = challenge(statement, .base(times: k), statement.base.times(k))
        return ShareProof(challenge: c, response: k + c * x)
    }

    public func verifies(_ statement: Statement) -> Bool {
        let t1 = RistrettoPoint.base(times: response) - statement.publicKey.times(challenge)
        let t2 = statement.base.times(response) - statement.share.times(challenge)
        return Self.challenge(statement, t1, t2) == challenge
    }

    static func challenge(_ st: Statement, _ t1: RistrettoPoint, _ t2: RistrettoPoint) -> RistrettoScalar {
        var t = st.context.transcript(label)
        t.append(u32: UInt32(st.deal))
        t.append(u16: UInt16(st.position))
        t.append(u8: UInt8(st.member))
        for point in [st.publicKey, st.base, st.share, t1, t2] { t.append(point) }
        return t.scalar()
    }
}
