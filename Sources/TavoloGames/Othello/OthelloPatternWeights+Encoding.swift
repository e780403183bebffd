/// How the trained weights are kept in the source: most configurations never occur in a game (and keep weight 0),
/// so the table is stored as runs: for each non-zero weight, the count of zeros before it and the weight itself,
/// both as LEB128 varints (the weight zigzag-coded), the bytes in base64 split over string literals (a string
/// literal compiles in no time, where an array literal of a million numbers would not).
extension OthelloPatternWeights {
    /// The bytes of `values` as runs of zeros and weights.
    public static func encode(_ values: [Int16]) -> [UInt8] {
        var out: [UInt8] = []
        var zeros = 0
        func varint(_ v: UInt64) {
            var v = v
            while v >= 0x80 {
                out.append(UInt8(v & 0x7F) | 0x80)
                v >>= 7
            }
            out.append(UInt8(v))
        }
        for v in values {
            if v == 0 {
                zeros += 1
                continue
            }
            varint(UInt64(zeros))
            varint(UInt64(bitPattern: Int64(v) << 1 ^ Int64(v) >> 63))
            zeros = 0
        }
        return out
    }

    /// The weights `encode` wrote, `count` in all; nil if the bytes do not make that many.
    public static func decode(_ bytes: [UInt8], count: Int) -> [Int16]? {
        var values = [Int16](repeating: 0, count: count)
        var i = 0
        var at = 0
        func varint() -> UInt64? {
            var v: UInt64 = 0
            var shift: UInt64 = 0
            while i < bytes.count, shift < 64 {
                let b = bytes[i]
                i += 1
                v |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { return v }
                shift += 7
            }
            return nil
        }
        while i < bytes.count {
            guard let zeros = varint(), let z = varint() else { return nil }
            at += Int(zeros)
            let v = Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1)
            guard at < count, let value = Int16(exactly: v) else { return nil }
            values[at] = value
            at += 1
        }
        return values
    }

    /// Base64 text to bytes (the standard alphabet, `=` padding); nil on any other character.
    public static func base64Bytes(_ text: String) -> [UInt8]? {
        var table = [Int8](repeating: -1, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(c)] = Int8(i)
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var acc: UInt32 = 0
        var bits = 0
        for c in text.utf8 where c != UInt8(ascii: "=") {
            let v = table[Int(c)]
            guard v >= 0 else { return nil }
            acc = acc << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
            }
        }
        return out
    }

    /// The weights trained into this build (`OthelloPatternWeights+Trained.swift`); nil if that file holds none.
    public static let trained: OthelloPatternWeights? = {
        let text = trainedBase64.joined()
        guard !text.isEmpty, let bytes = base64Bytes(text),
            let values = decode(bytes, count: stages * perStage)
        else { return nil }
        return OthelloPatternWeights(values: values)
    }()
}
