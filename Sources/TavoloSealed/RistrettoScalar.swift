import CSodium

/// An integer modulo ℓ, the order of ristretto255, as 32 little-endian bytes in canonical form (below ℓ).
/// The arithmetic is libsodium's `crypto_core_ristretto255_scalar_*`.
public struct RistrettoScalar: Hashable, Sendable {
    public static let byteCount = 32

    public let bytes: [UInt8]

    private init(reduced bytes: [UInt8]) { self.bytes = bytes }

    /// Nil unless `bytes` is a canonical scalar: a proof's response from the network must not have a second encoding.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        let reduced = Self.reduce(wide: bytes + [UInt8](repeating: 0, count: 32))
        guard reduced.bytes == bytes else { return nil }
        self.bytes = bytes
    }

    /// A 64-byte little-endian integer (a SHA-512 output) reduced modulo ℓ: how every scalar here is derived.
    public static func reduce(wide: [UInt8]) -> RistrettoScalar {
        precondition(RistrettoPoint.initialised && wide.count == 64)
        var out = [UInt8](repeating: 0, count: byteCount)
        crypto_core_ristretto255_scalar_reduce(&out, wide)
        return RistrettoScalar(reduced: out)
    }

    public static let zero = RistrettoScalar(reduced: [UInt8](repeating: 0, count: byteCount))
    public static let one = RistrettoScalar(reduced: [1] + [UInt8](repeating: 0, count: byteCount - 1))

    public static func + (x: RistrettoScalar, y: RistrettoScalar) -> RistrettoScalar {
        var out = [UInt8](repeating: 0, count: byteCount)
        crypto_core_ristretto255_scalar_add(&out, x.bytes, y.bytes)
        return RistrettoScalar(reduced: out)
    }

    public static func - (x: RistrettoScalar, y: RistrettoScalar) -> RistrettoScalar {
        var out = [UInt8](repeating: 0, count: byteCount)
        crypto_core_ristretto255_scalar_sub(&out, x.bytes, y.bytes)
        return RistrettoScalar(reduced: out)
    }

    public static func * (x: RistrettoScalar, y: RistrettoScalar) -> RistrettoScalar {
        var out = [UInt8](repeating: 0, count: byteCount)
        crypto_core_ristretto255_scalar_mul(&out, x.bytes, y.bytes)
        return RistrettoScalar(reduced: out)
    }
}
