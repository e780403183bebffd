/// A Fiat–Shamir proof sent as `c ‖ s`: a challenge and a response, two canonical scalars (§14.4, §14.6). The key
/// and share proofs differ in what they prove, not in how they travel.
public protocol ChallengeResponseProof: Hashable, Sendable {
    var challenge: RistrettoScalar { get }
    var response: RistrettoScalar { get }
    init(challenge: RistrettoScalar, response: RistrettoScalar)
}

extension ChallengeResponseProof {
    public static var byteCount: Int { 64 }

    /// Nil unless 64 bytes of two canonical scalars.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount, let c = RistrettoScalar(bytes: Array(bytes[0..<32])),
            let s = RistrettoScalar(bytes: Array(bytes[32..<64]))
        else { return nil }
        self.init(challenge: c, response: s)
    }

    public var bytes: [UInt8] { challenge.bytes + response.bytes }
}
