/// A member's one secret at a sealed table (§14.4): 32 random bytes σ from which every value it ever uses is
/// derived: its key, its permutations, its re-randomisers and its proofs' nonces. Revealing σ at the end (the audit,
/// §14.9) lets every node recompute all the member did; keeping it until then keeps its cards and shuffles hidden.
public struct SealedMemberSecret: Sendable {
    public static let byteCount = 32

    public let seed: [UInt8]
    public let context: SealedContext
    /// The member's index among the participants (participant order, §9).
    public let member: Int
    /// `x_j`: the secret key.
    public let key: RistrettoScalar
    /// `h_j = x_j·G`.
    public let publicKey: RistrettoPoint

    public init(seed: [UInt8], context: SealedContext, member: Int) {
        precondition(seed.count == Self.byteCount && (0..<256).contains(member))
        self.seed = seed
        self.context = context
        self.member = member
        key = Self.derive("tavolo/sealed/key/v1", seed, context).scalar()
        publicKey = .base(times: key)
    }

    /// A transcript under `label` over σ and the table id: the start of every derivation from σ.
    static func derive(_ label: String, _ seed: [UInt8], _ context: SealedContext) -> SealedTranscript {
        var t = SealedTranscript(label: label)
        t.append(seed)
        t.append(string: context.tableId)
        return t
    }

    /// The key and its proof of knowledge, as `table.sealed-key` carries them.
    public func keyProof() -> KeyProof {
        var t = Self.derive("tavolo/sealed/key-nonce/v1", seed, context)
        t.append(u8: UInt8(member))
        return KeyProof.prove(secret: key, nonce: t.scalar(), context: context, member: member)
    }

    /// The permutation key of input position `p` in deal `deal` (§14.5).
    func permutationKey(deal: Int, position p: Int) -> [UInt8] {
        var t = Self.derive("tavolo/sealed/perm/v1", seed, context)
        t.append(u32: UInt32(deal))
        t.append(u16: UInt16(p))
        return t.sha256()
    }

    /// The re-randomiser of output position `q` in deal `deal` (§14.5).
    func rerandomiser(deal: Int, position q: Int) -> RistrettoScalar {
        var t = Self.derive("tavolo/sealed/rerandomise/v1", seed, context)
        t.append(u32: UInt32(deal))
        t.append(u16: UInt16(q))
        return t.scalar()
    }

    /// The nonce of the share proof for position `p` of deal `deal`, whose first half is `a`. `a` is in it so that two
    /// different decks can never make one nonce answer two challenges (which would give the key away).
    func shareNonce(deal: Int, position p: Int, base a: RistrettoPoint) -> RistrettoScalar {
        var t = Self.derive("tavolo/sealed/share-nonce/v1", seed, context)
        t.append(u32: UInt32(deal))
        t.append(u16: UInt16(p))
        t.append(a)
        return t.scalar()
    }
}
