/// One member's turn at shuffling a deal (§14.5): it permutes the deck with a permutation only it knows and
/// re-randomises every card, so no one can follow a card through its turn. Pure: the same secret and input deck
/// always give the same output, which is how the audit checks a member's shuffle once σ is revealed.
public enum SealedShuffle {
    /// `order[q]` is the input position whose card goes to output position `q`: input positions sorted by their
    /// permutation keys (32-byte strings, ascending; equal keys by position, which never happens in practice).
    public static func order(secret: SealedMemberSecret, deal: Int, count: Int) -> [Int] {
        let keys = (0..<count).map { secret.permutationKey(deal: deal, position: $0) }
        return (0..<count).sorted { p, q in
            keys[p] == keys[q] ? p < q : keys[p].lexicographicallyPrecedes(keys[q])
        }
    }

    /// The member's output deck for `deal` from `input`, under the table's joint key.
    public static func step(
        _ input: [SealedCiphertext], secret: SealedMemberSecret, deal: Int, jointKey: RistrettoPoint
    ) -> [SealedCiphertext] {
        step(input, secret: secret, deal: deal) { $0.rerandomised(by: $1, jointKey: jointKey) }
    }

    /// The same output, computed from the joint secret (the sum of every member's key, whose `·G` is the joint key):
    /// how the audit replays a member's shuffle once every secret is revealed, at about 60% of the cost.
    public static func step(
        _ input: [SealedCiphertext], secret: SealedMemberSecret, deal: Int, jointSecret: RistrettoScalar
    ) -> [SealedCiphertext] {
        step(input, secret: secret, deal: deal) { $0.rerandomised(by: $1, jointSecret: jointSecret) }
    }

    private static func step(
        _ input: [SealedCiphertext], secret: SealedMemberSecret, deal: Int,
        rerandomise: (SealedCiphertext, RistrettoScalar) -> SealedCiphertext
    ) -> [SealedCiphertext] {
        let order = order(secret: secret, deal: deal, count: input.count)
        return order.enumerated().map { q, p in rerandomise(input[p], secret.rerandomiser(deal: deal, position: q)) }
    }
}
