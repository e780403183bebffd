/// One packet read from a capture file, before any protocol decoding.
struct RawPacket {
    /// 1-based, as Wireshark numbers frames.
    var number: Int
    var block: Int
    var offset: Int
    var timeNanos: UInt64
    var linkType: UInt16
    var data: [UInt8]
    var originalLength: Int
    var direction: PacketRecord.Direction?
    /// The section was written by Tavolo, so its synthesized checksums must hold.
    var synthesized: Bool
}

/// Reads the blocks of a pcapng file (or the records of a classic pcap file) into packets. Unknown block
/// types are skipped; a block whose lengths do not add up is reported and the reader looks for the next
/// plausible block; the end of the file inside a block is reported and ends the reading.
struct CaptureReader {
    let bytes: [UInt8]
    var packets: [RawPacket] = []
    var issues: [PacketLogIssue] = []
    private(set) var format = "pcapng"

    struct Interface {
        var linkType: UInt16
        var tsUnitsPerSecond: UInt64 = 1_000_000
        var tsIsPowerOfTwo = false
        var tsExponent: UInt8 = 6
    }

    var littleEndian = true
    var interfaces: [Interface] = []
    var synthesized = false
    var blockNumber = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func read() throws(PacketLogReadError) {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count >= 4 else {
            throw .notACapture(firstBytes: bytes.map { String(format2: $0) }.joined())
        }
        let first = Array(bytes[0..<4])
        switch first {
        case [0x0A, 0x0D, 0x0D, 0x0A]:
            readPcapng()
        case [0xD4, 0xC3, 0xB2, 0xA1], [0xA1, 0xB2, 0xC3, 0xD4], [0x4D, 0x3C, 0xB2, 0xA1], [0xA1, 0xB2, 0x3C, 0x4D]:
            format = "pcap"
            readPcap()
        default:
            throw .notACapture(firstBytes: first.map { String(format2: $0) }.joined())
        }
    }

    // MARK: Integers in the section's byte order

    func u16(_ at: Int) -> UInt16? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        let a = UInt16(bytes[at])
        let b = UInt16(bytes[at + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ at: Int) -> UInt32? {
        guard let a = u16(at), let b = u16(at + 2) else { return nil }
        return littleEndian ? UInt32(a) | UInt32(b) << 16 : UInt32(a) << 16 | UInt32(b)
    }

    // MARK: pcapng

    private mutating func readPcapng() {
        var offset = 0
        while offset < bytes.count {
            blockNumber += 1
            guard let next = readOneBlock(at: offset) else { return }
            offset = next
        }
    }

    /// Reads the block at `offset`; returns where the next one starts, or nil when nothing more can be read.
    private mutating func readOneBlock(at offset: Int) -> Int? {
        let remaining = bytes.count - offset
        guard remaining >= 12 else {
            issues.append(
                PacketLogIssue(
                    kind: .truncatedFile, block: blockNumber, offset: offset,
                    message: "the file ends \(remaining) bytes into a block header (a block needs at least 12)",
                    stopsDecoding: true))
            return nil
        }
        let type = u32(offset) ?? 0
        if type == Pcapng.sectionHeader { readByteOrder(at: offset) }
        let length = Int(u32(offset + 4) ?? 0)
        if length > remaining && length >= 12 && length % 4 == 0 {
            return skipPastTheEnd(type: type, at: offset, length: length)
        }
        if let problem = lengthProblem(at: offset, length: length) {
            if let next = nextPlausibleBlock(after: offset) {
                issues.append(
                    PacketLogIssue(
                        kind: .corruptBlock, block: blockNumber, offset: offset,
                        message: "\(problem); skipped \(next - offset) bytes to the next block at byte \(next)"))
                return next
            }
            issues.append(
                PacketLogIssue(
                    kind: .corruptBlock, block: blockNumber, offset: offset,
                    message: "\(problem); no valid block follows", stopsDecoding: true))
            return nil
        }
        readBlock(type: type, at: offset, length: length)
        return offset + length
    }

    /// The byte-order magic of a section header decides how this section's integers read.
    private mutating func readByteOrder(at offset: Int) {
        let magicLE =
            UInt32(bytes[offset + 8]) | UInt32(bytes[offset + 9]) << 8 | UInt32(bytes[offset + 10]) << 16
            | UInt32(bytes[offset + 11]) << 24
        if magicLE == Pcapng.byteOrderMagic {
            littleEndian = true
        } else if magicLE.byteSwapped == Pcapng.byteOrderMagic {
            littleEndian = false
        } else {
            issues.append(
                PacketLogIssue(
                    kind: .corruptBlock, block: blockNumber, offset: offset,
                    message:
                        "section header has byte-order magic 0x\(String(magicLE, radix: 16)), expected 0x1a2b3c4d; reading it as little-endian"
                ))
            littleEndian = true
        }
    }

    /// What is wrong with a block's lengths (one that fits in the file), if anything.
    private func lengthProblem(at offset: Int, length: Int) -> String? {
        if length < 12 || length % 4 != 0 { return "block length \(length) is not a multiple of 4 of at least 12" }
        if let trailing = u32(offset + length - 4), Int(trailing) != length {
            return "block length \(length) at the start but \(trailing) at the end"
        }
        return nil
    }

    /// A block longer than what is left: either the file was cut here or the length is damaged; a later valid block
    /// tells them apart. Returns where reading goes on, or nil at a cut.
    private mutating func skipPastTheEnd(type: UInt32, at offset: Int, length: Int) -> Int? {
        let remaining = bytes.count - offset
        if let next = nextPlausibleBlock(after: offset) {
            issues.append(
                PacketLogIssue(
                    kind: .corruptBlock, block: blockNumber, offset: offset,
                    message:
                        "\(Pcapng.blockName(type)) block claims \(length) bytes, past the end of the file; "
                        + "skipped \(next - offset) bytes to the next block at byte \(next)"))
            return next
        }
        issues.append(
            PacketLogIssue(
                kind: .truncatedFile, block: blockNumber, offset: offset,
                message:
                    "the file ends inside this \(Pcapng.blockName(type)) block: it needs \(length) bytes, \(remaining) remain",
                stopsDecoding: true))
        return nil
    }

    /// The offset of the next block after `offset` whose type is known and whose two lengths agree.
    private func nextPlausibleBlock(after offset: Int) -> Int? {
        var p = offset + 4
        while p + 12 <= bytes.count {
            if let type = u32(p), Pcapng.knownBlockTypes.contains(type), let length = u32(p + 4).map(Int.init),
                length >= 12, length % 4 == 0, p + length <= bytes.count, u32(p + length - 4).map(Int.init) == length
            {
                return p
            }
            p += 4
        }
        return nil
    }

    private mutating func readBlock(type: UInt32, at offset: Int, length: Int) {
        let (body, bodyEnd) = (offset + 8, offset + length - 4)
        switch type {
        case Pcapng.sectionHeader: readSectionHeader(body: body, end: bodyEnd)
        case Pcapng.interfaceDescription: readInterfaceDescription(at: offset, body: body, end: bodyEnd)
        case Pcapng.enhancedPacket: readEnhancedPacket(at: offset, body: body, end: bodyEnd)
        case Pcapng.simplePacket: readSimplePacket(at: offset, body: body, end: bodyEnd)
        case Pcapng.obsoletePacket: readObsoletePacket(at: offset, body: body, end: bodyEnd)
        default:
            // Name resolution, statistics and custom blocks carry nothing we need; an unknown type is skipped,
            // but Tavolo never writes one, so in its own files it means a damaged type field.
            if synthesized && !Pcapng.knownBlockTypes.contains(type) {
                issue(
                    .corruptBlock, offset, "unknown block type 0x\(String(type, radix: 16)) (\(length) bytes) skipped")
            }
        }
    }

    mutating func issue(_ kind: PacketLogIssue.Kind, _ offset: Int, _ message: String, packet: Int? = nil) {
        issues.append(PacketLogIssue(kind: kind, block: blockNumber, offset: offset, packet: packet, message: message))
    }

    /// Calls `visit` for each option until opt_endofopt or the end; stops quietly at a malformed one.
    func readOptions(from start: Int, to end: Int, _ visit: (UInt16, [UInt8]) -> Void) {
        var p = start
        while p + 4 <= end {
            guard let code = u16(p), let len = u16(p + 2).map(Int.init) else { return }
            if code == Pcapng.optEnd { return }
            guard p + 4 + len <= end else { return }
            visit(code, Array(bytes[(p + 4)..<(p + 4 + len)]))
            p += 4 + (len + 3) / 4 * 4
        }
    }

    func nanoseconds(_ ts: UInt64, _ iface: Interface) -> UInt64 {
        if iface.tsIsPowerOfTwo {
            let e = UInt64(min(iface.tsExponent, 63))
            let seconds = ts >> e
            let fraction = ts & ((1 << e) - 1)
            return seconds &* 1_000_000_000 &+ UInt64(Double(fraction) / Double(UInt64(1) << e) * 1e9)
        }
        let e = Int(iface.tsExponent)
        if e <= 9 {
            var m: UInt64 = 1
            for _ in 0..<(9 - e) { m *= 10 }
            return ts.multipliedReportingOverflow(by: m).partialValue
        }
        var d: UInt64 = 1
        for _ in 0..<min(e - 9, 19) { d *= 10 }
        return ts / d
    }

    // MARK: classic pcap

    private mutating func readPcap() {
        let magic = Array(bytes[0..<4])
        littleEndian = magic[0] == 0xD4 || magic[0] == 0x4D
        let nanoResolution = magic == [0x4D, 0x3C, 0xB2, 0xA1] || magic == [0xA1, 0xB2, 0x3C, 0x4D]
        blockNumber = 1
        guard bytes.count >= 24, let link = u32(20) else {
            issues.append(
                PacketLogIssue(
                    kind: .truncatedFile, block: 1, offset: 0,
                    message: "the file ends inside the 24-byte pcap header", stopsDecoding: true))
            return
        }
        let linkType = UInt16(truncatingIfNeeded: link)
        var offset = 24
        while offset < bytes.count {
            blockNumber += 1
            guard offset + 16 <= bytes.count, let sec = u32(offset), let frac = u32(offset + 4),
                let capLen = u32(offset + 8).map(Int.init), let origLen = u32(offset + 12).map(Int.init)
            else {
                issues.append(
                    PacketLogIssue(
                        kind: .truncatedFile, block: blockNumber, offset: offset, packet: packets.count + 1,
                        message: "the file ends inside a 16-byte record header", stopsDecoding: true))
                return
            }
            guard capLen <= 1 << 28 else {
                issues.append(
                    PacketLogIssue(
                        kind: .corruptBlock, block: blockNumber, offset: offset, packet: packets.count + 1,
                        message: "record claims \(capLen) captured bytes", stopsDecoding: true))
                return
            }
            guard offset + 16 + capLen <= bytes.count else {
                issues.append(
                    PacketLogIssue(
                        kind: .truncatedFile, block: blockNumber, offset: offset, packet: packets.count + 1,
                        message:
                            "the file ends inside a record: it needs \(capLen) bytes of data, \(bytes.count - offset - 16) remain",
                        stopsDecoding: true))
                return
            }
            let nanos = UInt64(sec) * 1_000_000_000 + UInt64(frac) * (nanoResolution ? 1 : 1_000)
            packets.append(
                RawPacket(
                    number: packets.count + 1, block: blockNumber, offset: offset, timeNanos: nanos, linkType: linkType,
                    data: Array(bytes[(offset + 16)..<(offset + 16 + capLen)]), originalLength: origLen, direction: nil,
                    synthesized: false))
            offset += 16 + capLen
        }
    }
}

extension String {
    init(format2 byte: UInt8) {
        let s = String(byte, radix: 16)
        self = s.count == 1 ? "0" + s : s
    }
}
