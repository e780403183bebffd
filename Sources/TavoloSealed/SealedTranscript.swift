import Crypto

/// The bytes a sealed-deck hash is taken over (PROTOCOL.md §14.2): an ASCII domain label with no terminator, then
/// fixed-width big-endian integers, length-prefixed strings and 32-byte points and scalars. Every derived secret,
/// permutation key and Fiat–Shamir challenge is one of these, each under its own label.
public struct SealedTranscript: Sendable {
    public private(set) var bytes: [UInt8]

    public init(label: String) { bytes = Array(label.utf8) }

    public mutating func append(_ raw: [UInt8]) { bytes += raw }
    public mutating func append(_ point: RistrettoPoint) { bytes += point.bytes }
    public mutating func append(_ scalar: RistrettoScalar) { bytes += scalar.bytes }
    public mutating func append(u8 value: UInt8) { bytes.append(value) }
    public mutating func append(u16 value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xFF)] }

    public mutating func append(u32 value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// A `string` as §2 encodes it: a `u16` byte count, then the UTF-8 bytes.
    public mutating func append(string: String) {
        let utf8 = Array(string.utf8)
        append(u16: UInt16(utf8.count))
        bytes += utf8
    }

    /// SHA-512 of the bytes reduced modulo ℓ: a derived secret scalar or a challenge.
    public func scalar() -> RistrettoScalar { RistrettoScalar.reduce(wide: Array(SHA512.hash(data: bytes))) }

    /// SHA-512 of the bytes: the input of `RistrettoPoint.fromHash`.
    public func sha512() -> [UInt8] { Array(SHA512.hash(data: bytes)) }

    /// SHA-256 of the bytes: permutation keys, escrow pieces and commitments, deck hashes.
    public func sha256() -> [UInt8] { Array(SHA256.hash(data: bytes)) }
}
