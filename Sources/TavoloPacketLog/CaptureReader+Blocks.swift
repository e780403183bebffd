/// The pcapng block types `CaptureReader` reads: one function per block, each checking the block's lengths before
/// reading it and reporting a block that does not add up as an issue (never a crash).
extension CaptureReader {
    /// A new section: interfaces start again; a Tavolo capture says so in its user application.
    mutating func readSectionHeader(body: Int, end: Int) {
        interfaces = []
        synthesized = false
        var userAppl = ""
        readOptions(from: body + 16, to: end) { code, value in
            if code == Pcapng.shbUserAppl { userAppl = String(decoding: value, as: UTF8.self) }
        }
        synthesized = userAppl.hasPrefix(Pcapng.tavoloApplication)
    }

    /// An interface: its link type and timestamp resolution.
    mutating func readInterfaceDescription(at offset: Int, body: Int, end: Int) {
        guard let link = u16(body), end - body >= 8 else {
            issue(.corruptBlock, offset, "interface description block too short")
            return
        }
        var iface = Interface(linkType: link)
        readOptions(from: body + 8, to: end) { code, value in
            if code == Pcapng.ifTsresol, let v = value.first {
                let exp = v & 0x7F
                iface.tsIsPowerOfTwo = v & 0x80 != 0
                iface.tsExponent = exp
            }
        }
        interfaces.append(iface)
    }

    /// A packet with its interface, timestamp and direction (`epb_flags`).
    mutating func readEnhancedPacket(at offset: Int, body: Int, end: Int) {
        guard end - body >= 20, let ifIndex = u32(body), let high = u32(body + 4), let low = u32(body + 8),
            let capLen = u32(body + 12).map(Int.init), let origLen = u32(body + 16).map(Int.init)
        else {
            issue(.corruptBlock, offset, "enhanced packet block too short")
            return
        }
        let number = packets.count + 1
        guard body + 20 + capLen <= end else {
            issue(
                .corruptBlock, offset,
                "captured length \(capLen) exceeds the block's \(end - body - 20) bytes of data", packet: number
            )
            return
        }
        guard Int(ifIndex) < interfaces.count else {
            issue(
                .corruptBlock, offset, "interface \(ifIndex) has not been described (\(interfaces.count) known)",
                packet: number)
            return
        }
        var direction: PacketRecord.Direction?
        let optStart = body + 20 + (capLen + 3) / 4 * 4
        readOptions(from: optStart, to: end) { code, value in
            if code == Pcapng.epbFlags, value.count == 4 {
                let flags = littleEndian ? value[0] : value[3]
                switch flags & 3 {
                case 1: direction = .received
                case 2: direction = .sent
                default: break
                }
            }
        }
        let iface = interfaces[Int(ifIndex)]
        packets.append(
            RawPacket(
                number: number, block: blockNumber, offset: offset,
                timeNanos: nanoseconds(UInt64(high) << 32 | UInt64(low), iface), linkType: iface.linkType,
                data: Array(bytes[(body + 20)..<(body + 20 + capLen)]), originalLength: origLen,
                direction: direction, synthesized: synthesized))
    }

    /// A packet with neither interface nor timestamp: the first interface's.
    mutating func readSimplePacket(at offset: Int, body: Int, end: Int) {
        guard end - body >= 4, let origLen = u32(body).map(Int.init) else {
            issue(.corruptBlock, offset, "simple packet block too short")
            return
        }
        guard let iface = interfaces.first else {
            issue(
                .corruptBlock, offset, "simple packet before any interface description", packet: packets.count + 1)
            return
        }
        let capLen = min(origLen, end - body - 4)
        packets.append(
            RawPacket(
                number: packets.count + 1, block: blockNumber, offset: offset, timeNanos: 0,
                linkType: iface.linkType,
                data: Array(bytes[(body + 4)..<(body + 4 + capLen)]), originalLength: origLen, direction: nil,
                synthesized: synthesized))
    }

    /// The obsolete packet block of old writers.
    mutating func readObsoletePacket(at offset: Int, body: Int, end: Int) {
        guard end - body >= 20, let ifIndex = u16(body), let high = u32(body + 4), let low = u32(body + 8),
            let capLen = u32(body + 12).map(Int.init), let origLen = u32(body + 16).map(Int.init),
            body + 20 + capLen <= end, Int(ifIndex) < interfaces.count
        else {
            issue(.corruptBlock, offset, "packet block does not add up", packet: packets.count + 1)
            return
        }
        let iface = interfaces[Int(ifIndex)]
        packets.append(
            RawPacket(
                number: packets.count + 1, block: blockNumber, offset: offset,
                timeNanos: nanoseconds(UInt64(high) << 32 | UInt64(low), iface), linkType: iface.linkType,
                data: Array(bytes[(body + 20)..<(body + 20 + capLen)]), originalLength: origLen, direction: nil,
                synthesized: synthesized))
    }
}
