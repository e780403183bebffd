/// A table id of the form a host makes, `<h>-<e>-<n>` (PROTOCOL.md §9): `<h>` exactly 8 lower-case hex digits,
/// `<e>` and `<n>` decimal numbers from 0 to 2³¹ − 1 without leading zeros. The short kinds of §13.2 write it as
/// `0x00`, the 4 bytes of `<h>` and two varints: 7 bytes for the ids hosts make today, where the text takes 13–14,
/// on every move.
/// Any other id has one text form only; requiring the exact shape keeps one encoding per id.
struct HostTableID: Equatable {
    /// The marker byte that starts this form where the text form has its length (1–64).
    static let marker: UInt8 = 0x00

    var host: [UInt8]
    var start: Int
    var count: Int

    /// Parses `id` (ASCII bytes); nil when it is not of the host-made form.
    init?(_ id: [UInt8]) {
        let parts = id.split(separator: 0x2D, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 8, let start = Self.decimal(parts[1]),
            let count = Self.decimal(parts[2])
        else { return nil }
        var host: [UInt8] = []
        var digits = parts[0].makeIterator()
        while let high = digits.next(), let low = digits.next() {
            guard let h = Self.hexDigit(high), let l = Self.hexDigit(low) else { return nil }
            host.append(h << 4 | l)
        }
        (self.host, self.start, self.count) = (host, start, count)
    }

    init(host: [UInt8], start: Int, count: Int) {
        (self.host, self.start, self.count) = (host, start, count)
    }

    /// The id as text: `<h>-<e>-<n>` (made for every compact message received: no string per digit).
    var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(30)
        for b in host {
            bytes.append(Self.hexDigits[Int(b >> 4)])
            bytes.append(Self.hexDigits[Int(b & 0x0F)])
        }
        bytes.append(0x2D)
        bytes.append(contentsOf: String(start).utf8)
        bytes.append(0x2D)
        bytes.append(contentsOf: String(count).utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    func append(to out: inout [UInt8]) {
        out.append(Self.marker)
        out.append(contentsOf: host)
        CompactMessage.appendVarint(start, to: &out)
        CompactMessage.appendVarint(count, to: &out)
    }

    /// A decimal number of at most 2³¹ − 1, without leading zeros.
    private static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        guard (1...10).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }),
            digits.count == 1 || digits.first != 0x30
        else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return value <= CompactMessage.maxInteger ? value : nil
    }

    /// A lower-case hex digit's value (upper case is another id, written as text).
    private static func hexDigit(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }
}
