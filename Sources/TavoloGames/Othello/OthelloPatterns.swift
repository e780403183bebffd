/// Pattern features of an Othello position, the inputs of the trained evaluation (`OthelloPatternWeights`).
///
/// A pattern is a fixed set of squares (an edge with its two X squares, a corner's 3×3 block, a row, a diagonal);
/// its feature is the colour of each of those squares, one of 3^k configurations. The evaluation adds one learned
/// weight per pattern and configuration, read on each of the board's eight symmetric images, so a configuration is
/// worth the same wherever on the board it stands (the classic design of Logistello and Edax). Every pattern is read
/// in one orientation from the image (`images`), which keeps the reading a few shifts and one table look-up.
public enum OthelloPatterns {
    /// The patterns, each with its square count (bit `row × 8 + column`, a1 = 0, on the image it is read from).
    static let sizes = [10, 9, 8, 8, 8, 8, 7, 6, 5, 4]
    /// Names, for a trainer's report.
    public static let names = [
        "edge+2X", "corner 3x3", "row 2", "row 3", "row 4", "diagonal 8", "diagonal 7", "diagonal 6",
        "diagonal 5", "diagonal 4",
    ]
    static let count = sizes.count
    /// Where each pattern's weights start in a stage's table, and the size of that table.
    static let offsets: [Int] = {
        var o = [0]
        var at = 0
        for s in sizes {
            at += pow3(s)
            o.append(at)
        }
        return o
    }()
    public static var weightsPerStage: Int { offsets[count] }

    static func pow3(_ k: Int) -> Int { (0..<k).reduce(1) { r, _ in r * 3 } }

    /// A k-bit mask of squares as its base-3 number with digit i = bit i (own discs count 1, the other side's 2).
    static let ternary: [Int32] = (0..<1024).map { bits in
        var v: Int32 = 0
        var p: Int32 = 1
        for i in 0..<10 {
            if bits >> i & 1 == 1 { v += p }
            p *= 3
        }
        return v
    }

    /// The eight symmetric images of a bitboard (the identity first).
    @inline(__always)
    static func images(_ b: UInt64) -> (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) {
        let v = b.byteSwapped
        let h = mirrorFiles(b)
        let vh = h.byteSwapped
        let t = transpose(b)
        let tv = t.byteSwapped
        let th = mirrorFiles(t)
        let tvh = th.byteSwapped
        return (b, v, h, vh, t, tv, th, tvh)
    }

    /// Column a ↔ h within every rank.
    @inline(__always)
    static func mirrorFiles(_ x: UInt64) -> UInt64 {
        var x = x
        x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1)
        x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2)
        x = ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4)
        return x
    }

    /// The mirror in the a1–h8 diagonal.
    @inline(__always)
    static func transpose(_ x: UInt64) -> UInt64 {
        var x = x
        var t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28))
        x ^= t ^ (t >> 28)
        t = 0x3333_0000_3333_0000 & (x ^ (x << 14))
        x ^= t ^ (t >> 14)
        t = 0x5500_5500_5500_5500 & (x ^ (x << 7))
        x ^= t ^ (t >> 7)
        return x
    }

    /// The squares of pattern `p` in one image, as a k-bit mask in the pattern's order.
    @inline(__always)
    static func bits(_ b: UInt64, _ p: Int) -> Int {
        let diagonalMagic: UInt64 = 0x0101_0101_0101_0101
        switch p {
        case 0: return Int(b & 0xFF | (b >> 1) & 0x100 | (b >> 5) & 0x200)  // a1–h1, b2, g2
        case 1: return Int(b & 7 | (b >> 5) & 0x38 | (b >> 10) & 0x1C0)  // a1–c3
        case 2: return Int((b >> 8) & 0xFF)
        case 3: return Int((b >> 16) & 0xFF)
        case 4: return Int((b >> 24) & 0xFF)
        case 5: return Int(((b & 0x8040_2010_0804_0201) &* diagonalMagic) >> 56)  // a1–h8
        case 6: return Int(((b & 0x0080_4020_1008_0402) &* diagonalMagic) >> 57)  // b1–h7
        case 7: return Int(((b & 0x0000_8040_2010_0804) &* diagonalMagic) >> 58)  // c1–h6
        case 8: return Int(((b & 0x0000_0080_4020_1008) &* diagonalMagic) >> 59)  // d1–h5
        default: return Int(((b & 0x0000_0000_8040_2010) &* diagonalMagic) >> 60)  // e1–h4
        }
    }

    /// Calls `body(offset)` for every pattern of every image of (`own`, `opp`): `offset` is the weight's index in a
    /// stage's table (the trainer's features and the evaluation's sum read the same indices).
    @inline(__always)
    static func forEachFeature(_ own: UInt64, _ opp: UInt64, _ body: (Int) -> Void) {
        let o = images(own)
        let x = images(opp)
        @inline(__always) func image(_ a: UInt64, _ b: UInt64) {
            for p in 0..<count {
                body(offsets[p] + Int(ternary[bits(a, p)] + 2 * ternary[bits(b, p)]))
            }
        }
        image(o.0, x.0)
        image(o.1, x.1)
        image(o.2, x.2)
        image(o.3, x.3)
        image(o.4, x.4)
        image(o.5, x.5)
        image(o.6, x.6)
        image(o.7, x.7)
    }

    /// The sum of the weights (`w`, one stage's table) of every feature of (`own`, `opp`): `forEachFeature` unrolled,
    /// with the tables read through pointers (the evaluation's hot path; `OthelloPatternTests` checks they agree).
    @inline(__always)
    static func sum(_ own: UInt64, _ opp: UInt64, _ w: UnsafePointer<Int16>) -> Int {
        let t = ternaryTable
        let o = images(own)
        let x = images(opp)
        @inline(__always) func at(_ offset: Int, _ a: Int, _ b: Int) -> Int {
            Int(w[offset + Int(t[a]) + 2 * Int(t[b])])
        }
        @inline(__always) func image(_ a: UInt64, _ b: UInt64) -> Int {
            var s = at(0, bits(a, 0), bits(b, 0))
            s += at(59_049, bits(a, 1), bits(b, 1))
            s += at(78_732, Int((a >> 8) & 0xFF), Int((b >> 8) & 0xFF))
            s += at(85_293, Int((a >> 16) & 0xFF), Int((b >> 16) & 0xFF))
            s += at(91_854, Int((a >> 24) & 0xFF), Int((b >> 24) & 0xFF))
            s += at(98_415, bits(a, 5), bits(b, 5))
            s += at(104_976, bits(a, 6), bits(b, 6))
            s += at(107_163, bits(a, 7), bits(b, 7))
            s += at(107_892, bits(a, 8), bits(b, 8))
            s += at(108_135, bits(a, 9), bits(b, 9))
            return s
        }
        return image(o.0, x.0) + image(o.1, x.1) + image(o.2, x.2) + image(o.3, x.3) + image(o.4, x.4)
            + image(o.5, x.5) + image(o.6, x.6) + image(o.7, x.7)
    }

    /// `ternary` behind a pointer that lives as long as the process (written once, then only read).
    nonisolated(unsafe) static let ternaryTable: UnsafePointer<Int32> = {
        let p = UnsafeMutablePointer<Int32>.allocate(capacity: ternary.count)
        p.initialize(from: ternary, count: ternary.count)
        return UnsafePointer(p)
    }()

    /// The feature indices of a position, for a trainer.
    public static func features(_ own: UInt64, _ opp: UInt64) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(8 * count)
        forEachFeature(own, opp) { out.append(Int32($0)) }
        return out
    }
}
