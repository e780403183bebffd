/// The portable seeded random number generator every node uses (PROTOCOL.md §1).
///
/// xoshiro256** whose 256-bit state is filled by four successive SplitMix64 outputs from a 64-bit seed.
/// Pure integer arithmetic, so every implementation on every machine gives the same stream.
public struct TavoloRNG: RandomNumberGenerator, Sendable, Hashable, Codable {
    public private(set) var s0: UInt64
    public private(set) var s1: UInt64
    public private(set) var s2: UInt64
    public private(set) var s3: UInt64

    /// Expands `seed` into xoshiro256** state with SplitMix64.
    public init(seed: UInt64) {
        var sm = SplitMix64(state: seed)
        s0 = sm.next()
        s1 = sm.next()
        s2 = sm.next()
        s3 = sm.next()
    }

    /// An independent stream for one purpose (a bot's choices, a round's deal): seeded with
    /// SplitMix64's first output from `seed XOR (stream * 0x9E3779B97F4A7C15)`.
    public init(seed: UInt64, stream: UInt64) {
        var sm = SplitMix64(state: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
        self.init(seed: sm.next())
    }

    @inline(__always)
    private static func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 &- k)) }

    /// The next 64-bit output of xoshiro256**.
    @inline(__always)
    public mutating func next() -> UInt64 {
        let result = Self.rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = Self.rotl(s3, 45)
        return result
    }

    /// An unbiased integer in `0..<bound` (Lemire's multiply-and-reject; PROTOCOL.md §1.3).
    /// `bound` must be at least 1.
    @inline(__always)
    public mutating func bounded(_ bound: UInt64) -> UInt64 {
        precondition(bound > 0, "bound must be positive")
        var m = next().multipliedFullWidth(by: bound)
        if m.low < bound {
            let threshold = (0 &- bound) % bound
            while m.low < threshold {
                m = next().multipliedFullWidth(by: bound)
            }
        }
        return m.high
    }

    /// An unbiased `Int` in `0..<bound`.
    @inline(__always)
    public mutating func below(_ bound: Int) -> Int { Int(truncatingIfNeeded: bounded(UInt64(bound))) }

    /// Fisher–Yates shuffle from the last index down (PROTOCOL.md §1.4).
    public mutating func shuffle<C: MutableCollection & RandomAccessCollection>(_ items: inout C)
    where C.Index == Int {
        guard items.count > 1 else { return }
        var i = items.endIndex - 1
        while i > items.startIndex {
            let j = items.startIndex + below(i - items.startIndex + 1)
            items.swapAt(i, j)
            i -= 1
        }
    }
}

/// SplitMix64, used only to expand seeds (PROTOCOL.md §1.1).
public struct SplitMix64: Sendable {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }

    @inline(__always)
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
