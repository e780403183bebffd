/// The table's joint key (§14.4): `H = Σ h_j` over the members' public keys, accepted only with each member's proof
/// of knowledge, so that no member can choose `H`.
public enum SealedJointKey {
    /// Nil when any proof fails; `keys[j]` and `proofs[j]` are member `j`'s.
    public static func combine(keys: [RistrettoPoint], proofs: [KeyProof], context: SealedContext) -> RistrettoPoint? {
        guard keys.count == proofs.count else { return nil }
        for (j, key) in keys.enumerated()
        where key.isIdentity || !proofs[j].verifies(publicKey: key, context: context, member: j) {
            return nil
        }
        return RistrettoPoint.sum(keys)
    }
}
