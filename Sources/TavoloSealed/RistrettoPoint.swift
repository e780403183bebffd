import CSodium

/// A point of the ristretto255 group (RFC 9496) in its canonical 32-byte encoding. Every operation is libsodium's
/// (`crypto_core_ristretto255_*`, `crypto_scalarmult_ristretto255*`): no field arithmetic is written here.
public struct RistrettoPoint: Hashable, Sendable {
    public static let byteCount = 32

    /// The canonical encoding: every value of this type decodes, so operations never meet an invalid input.
    public let bytes: [UInt8]

    /// libsodium picks its implementations in `sodium_init`, which is thread-safe and idempotent.
    static let initialised: Bool = sodium_init() >= 0

    private init(valid bytes: [UInt8]) { self.bytes = bytes }

    /// Nil unless `bytes` is the canonical encoding of a group element (anything from the network goes through here).
    public init?(bytes: [UInt8]) {
        precondition(Self.initialised)
        guard bytes.count == Self.byteCount, crypto_core_ristretto255_is_valid_point(bytes) == 1 else { return nil }
        self.bytes = bytes
    }

    /// The neutral element (encoded as 32 zero bytes).
    public static let identity = RistrettoPoint(valid: [UInt8](repeating: 0, count: byteCount))

    /// The group's conventional generator G.
    public static let generator = base(times: RistrettoScalar.one)

    public var isIdentity: Bool { self == Self.identity }

    /// The one-way map of RFC 9496 §4.3.4 from 64 uniform bytes (e.g. a SHA-512 output) to a point.
    public static func fromHash(_ digest: [UInt8]) -> RistrettoPoint {
        precondition(initialised && digest.count == 64)
        var out = [UInt8](repeating: 0, count: byteCount)
        _ = crypto_core_ristretto255_from_hash(&out, digest)
        return RistrettoPoint(valid: out)
    }

    /// `s·G`. libsodium reports an identity result as an error but still writes its (all-zero) encoding, which is
    /// the right answer: the status is ignored on purpose.
    public static func base(times s: RistrettoScalar) -> RistrettoPoint {
        precondition(initialised)
        var out = [UInt8](repeating: 0, count: byteCount)
        _ = crypto_scalarmult_ristretto255_base(&out, s.bytes)
        return RistrettoPoint(valid: out)
    }

    /// `s·P` (same note on an identity result as `base(times:)`).
    public func times(_ s: RistrettoScalar) -> RistrettoPoint {
        var out = [UInt8](repeating: 0, count: Self.byteCount)
        _ = crypto_scalarmult_ristretto255(&out, s.bytes, bytes)
        return RistrettoPoint(valid: out)
    }

    public static func + (p: RistrettoPoint, q: RistrettoPoint) -> RistrettoPoint {
        var out = [UInt8](repeating: 0, count: byteCount)
        _ = crypto_core_ristretto255_add(&out, p.bytes, q.bytes)
        return RistrettoPoint(valid: out)
    }

    public static func - (p: RistrettoPoint, q: RistrettoPoint) -> RistrettoPoint {
        var out = [UInt8](repeating: 0, count: byteCount)
        _ = crypto_core_ristretto255_sub(&out, p.bytes, q.bytes)
        return RistrettoPoint(valid: out)
    }

    /// The sum of `points` (the identity for none): the joint key, the sum of decryption shares.
    public static func sum<S: Sequence>(_ points: S) -> RistrettoPoint where S.Element == RistrettoPoint {
        points.reduce(identity, +)
    }
}
