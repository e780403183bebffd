/// Othello bitboards: one `UInt64` per colour, bit `row × 8 + column` with a1 = bit 0, h1 = bit 7, a8 = bit 56.
/// Move generation shifts a whole board one step in each of the 8 directions at once.
public enum OthelloBitboard {
    static let notFileA: UInt64 = 0xFEFE_FEFE_FEFE_FEFE
    static let notFileH: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

    /// The board shifted one square in direction `d` (0 east, 1 west, 2 north, 3 south, 4 north-east,
    /// 5 north-west, 6 south-east, 7 south-west); squares pushed off the board vanish.
    @inline(__always)
    static func shift(_ b: UInt64, _ d: Int) -> UInt64 {
        switch d {
        case 0: return (b << 1) & notFileA
        case 1: return (b >> 1) & notFileH
        case 2: return b << 8
        case 3: return b >> 8
        case 4: return (b << 9) & notFileA
        case 5: return (b << 7) & notFileH
        case 6: return (b >> 7) & notFileA
        default: return (b >> 9) & notFileH
        }
    }

    /// Squares where the player with discs `own` may place a disc against `opp`.
    @inline(__always)
    public static func moves(_ own: UInt64, _ opp: UInt64) -> UInt64 {
        let empty = ~(own | opp)
        var result: UInt64 = 0
        for d in 0..<8 {
            var x = shift(own, d) & opp
            x |= shift(x, d) & opp
            x |= shift(x, d) & opp
            x |= shift(x, d) & opp
            x |= shift(x, d) & opp
            x |= shift(x, d) & opp
            result |= shift(x, d) & empty
        }
        return result
    }

    /// Opponent discs flipped by placing on `square`; zero when the placement is illegal.
    @inline(__always)
    public static func flips(_ own: UInt64, _ opp: UInt64, square: Int) -> UInt64 {
        let start: UInt64 = 1 << UInt64(square)
        guard (own | opp) & start == 0 else { return 0 }
        var result: UInt64 = 0
        for d in 0..<8 {
            var line: UInt64 = 0
            var x = shift(start, d)
            while x & opp != 0 {
                line |= x
                x = shift(x, d)
            }
            if x & own != 0 { result |= line }
        }
        return result
    }

    /// Square name: `a1` … `h8`.
    public static func name(_ square: Int) -> String {
        let files = Array("abcdefgh")
        return "\(files[square % 8])\(square / 8 + 1)"
    }

    /// Square from its name; nil if malformed.
    public static func square(named s: String) -> Int? {
        let chars = Array(s.lowercased())
        guard chars.count == 2, let file = Array("abcdefgh").firstIndex(of: chars[0]),
            let rank = Int(String(chars[1])), (1...8).contains(rank)
        else { return nil }
        return (rank - 1) * 8 + file
    }
}
