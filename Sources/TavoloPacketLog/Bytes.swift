extension Array where Element == UInt8 {
    mutating func appendBE16(_ v: UInt16) {
        append(UInt8(v >> 8))
        append(UInt8(truncatingIfNeeded: v))
    }

    mutating func appendBE32(_ v: UInt32) {
        for s in stride(from: 24, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: v >> UInt32(s))) }
    }

    mutating func appendLE16(_ v: UInt16) {
        append(UInt8(truncatingIfNeeded: v))
        append(UInt8(v >> 8))
    }

    mutating func appendLE32(_ v: UInt32) {
        for s in stride(from: 0, through: 24, by: 8) { append(UInt8(truncatingIfNeeded: v >> UInt32(s))) }
    }

    mutating func padTo4() {
        while count % 4 != 0 { append(0) }
    }
}

/// Bounds-checked big-endian reads from a slice of bytes; every read returns nil past the end.
struct ByteView {
    let bytes: [UInt8]
    let start: Int
    let end: Int

    init(_ bytes: [UInt8], start: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.start = start
        self.end = Swift.min(end ?? bytes.count, bytes.count)
    }

    var count: Int { Swift.max(0, end - start) }

    func u8(_ at: Int) -> UInt8? {
        let i = start + at
        guard at >= 0, i < end else { return nil }
        return bytes[i]
    }

    func be16(_ at: Int) -> UInt16? {
        guard let a = u8(at), let b = u8(at + 1) else { return nil }
        return UInt16(a) << 8 | UInt16(b)
    }

    func be32(_ at: Int) -> UInt32? {
        guard let a = be16(at), let b = be16(at + 2) else { return nil }
        return UInt32(a) << 16 | UInt32(b)
    }

    func slice(_ from: Int, _ length: Int) -> [UInt8]? {
        guard from >= 0, length >= 0, start + from + length <= end else { return nil }
        return Array(bytes[(start + from)..<(start + from + length)])
    }

    func sub(_ from: Int, _ length: Int? = nil) -> ByteView? {
        let len = length ?? (count - from)
        guard from >= 0, len >= 0, from + len <= count else { return nil }
        return ByteView(bytes, start: start + from, end: start + from + len)
    }
}

/// The Internet checksum (RFC 1071) over several byte ranges taken as one.
struct InternetChecksum {
    private var sum: UInt32 = 0
    private var odd: UInt8?

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for b in bytes {
            if let high = odd {
                sum &+= UInt32(high) << 8 | UInt32(b)
                odd = nil
            } else {
                odd = b
            }
        }
    }

    var value: UInt16 {
        var s = sum
        if let high = odd { s &+= UInt32(high) << 8 }
        while s >> 16 != 0 { s = (s & 0xFFFF) &+ (s >> 16) }
        return ~UInt16(s)
    }
}
