/// The transport payload of one packet, with its addresses.
struct TransportSegment {
    var packet: RawPacket
    var transport: PacketRecord.Transport
    var source: PacketEndpoint
    var destination: PacketEndpoint
    /// TCP only.
    var seq: UInt32 = 0
    var syn = false
    var payload: [UInt8]
    /// Set when a synthesized checksum does not match: the bytes changed after recording (decoded anyway).
    var checksumError: String?
}

/// Takes a packet apart down to its TCP or UDP payload: link layer, IPv4/IPv6, TCP/UDP. Checksums are
/// verified only in files Tavolo wrote (live captures often carry offloaded, unfinished checksums).
enum PacketDissector {
    enum Outcome {
        case segment(TransportSegment)
        /// Not TCP or UDP over IP (ARP, ICMP, a fragment…): skipped, and an error only in Tavolo's own files.
        case other(String)
        case unsupportedLink(UInt16)
        case bad(String, PacketLogIssue.Kind)
    }

    static func dissect(_ packet: RawPacket) -> Outcome {
        let data = ByteView(packet.data)
        let ipStart: Int
        switch LinkType(rawValue: packet.linkType) {
        case .raw?, .ipv4?, .ipv6?: ipStart = 0
        case .null?: ipStart = 4
        case .ethernet?:
            var p = 12
            while data.be16(p) == 0x8100 || data.be16(p) == 0x88A8 { p += 4 }
            guard let ethertype = data.be16(p) else { return .bad("Ethernet header cut short", .badPacket) }
            guard ethertype == 0x0800 || ethertype == 0x86DD else {
                return .other("ethertype 0x\(String(ethertype, radix: 16))")
            }
            ipStart = p + 2
        case .linuxSLL?:
            guard let proto = data.be16(14) else { return .bad("Linux cooked header cut short", .badPacket) }
            guard proto == 0x0800 || proto == 0x86DD else { return .other("protocol 0x\(String(proto, radix: 16))") }
            ipStart = 16
        case .linuxSLL2?:
            guard let proto = data.be16(0) else { return .bad("Linux cooked v2 header cut short", .badPacket) }
            guard proto == 0x0800 || proto == 0x86DD else { return .other("protocol 0x\(String(proto, radix: 16))") }
            ipStart = 20
        case nil:
            return .unsupportedLink(packet.linkType)
        }
        guard let ip = data.sub(ipStart), let first = ip.u8(0) else { return .bad("no IP header", .badPacket) }
        switch first >> 4 {
        case 4: return ipv4(ip, packet)
        case 6: return ipv6(ip, packet)
        default:
            return packet.linkType == LinkType.raw.rawValue || packet.synthesized
                ? .bad("IP version \(first >> 4) (expected 4 or 6)", .badPacket) : .other("IP version \(first >> 4)")
        }
    }

    private static func ipv4(_ ip: ByteView, _ packet: RawPacket) -> Outcome {
        guard let vihl = ip.u8(0), let total = ip.be16(2).map(Int.init), let fragment = ip.be16(6),
            let proto = ip.u8(9),
            let src = ip.slice(12, 4), let dst = ip.slice(16, 4)
        else { return .bad("IPv4 header cut short (\(ip.count) bytes)", .badPacket) }
        let headerLength = Int(vihl & 0x0F) * 4
        guard headerLength >= 20, total >= headerLength else {
            return .bad("IPv4 header length \(headerLength), total length \(total)", .badPacket)
        }
        guard total <= ip.count else {
            return .bad("IPv4 total length \(total) but only \(ip.count) bytes captured", .badPacket)
        }
        var checksumError: String?
        if packet.synthesized, let header = ip.slice(0, headerLength) {
            var sum = InternetChecksum()
            sum.add(header)
            if sum.value != 0 { checksumError = "IPv4 header checksum does not match its bytes" }
        }
        guard fragment & 0x3FFF == 0 else {
            return .other("an IPv4 fragment (flags and offset 0x\(String(fragment, radix: 16)))")
        }
        guard let body = ip.sub(headerLength, total - headerLength) else {
            return .bad("IPv4 payload cut short", .badPacket)
        }
        let outcome = transport(proto, body, src: src, dst: dst, packet)
        if let checksumError, case .segment(var segment) = outcome {
            segment.checksumError = checksumError
            return .segment(segment)
        }
        return outcome
    }

    private static func ipv6(_ ip: ByteView, _ packet: RawPacket) -> Outcome {
        guard let payloadLength = ip.be16(4).map(Int.init), var next = ip.u8(6), let src = ip.slice(8, 16),
            let dst = ip.slice(24, 16)
        else { return .bad("IPv6 header cut short (\(ip.count) bytes)", .badPacket) }
        guard 40 + payloadLength <= ip.count else {
            return .bad("IPv6 payload length \(payloadLength) but only \(ip.count - 40) bytes captured", .badPacket)
        }
        var p = 40
        // Hop-by-hop, routing and destination options headers come before TCP or UDP.
        while next == 0 || next == 43 || next == 60 {
            guard let n = ip.u8(p), let len = ip.u8(p + 1) else {
                return .bad("IPv6 extension header cut short", .badPacket)
            }
            next = n
            p += 8 + Int(len) * 8
        }
        guard p <= 40 + payloadLength, let body = ip.sub(p, 40 + payloadLength - p) else {
            return .bad("IPv6 extension headers overrun the payload", .badPacket)
        }
        return transport(next, body, src: src, dst: dst, packet)
    }

    private static func transport(_ proto: UInt8, _ body: ByteView, src: [UInt8], dst: [UInt8], _ packet: RawPacket)
        -> Outcome
    {
        switch proto {
        case 6: return tcp(body, src: src, dst: dst, packet)
        case 17: return udp(body, src: src, dst: dst, packet)
        default: return .other("IP protocol \(proto), neither TCP nor UDP")
        }
    }

    private static func tcp(_ body: ByteView, src: [UInt8], dst: [UInt8], _ packet: RawPacket) -> Outcome {
        guard let sport = body.be16(0), let dport = body.be16(2), let seq = body.be32(4), let off = body.u8(12),
            let flags = body.u8(13)
        else { return .bad("TCP header cut short (\(body.count) bytes)", .badPacket) }
        let headerLength = Int(off >> 4) * 4
        guard headerLength >= 20, headerLength <= body.count,
            let payload = body.slice(headerLength, body.count - headerLength)
        else { return .bad("TCP data offset \(headerLength) in a \(body.count)-byte segment", .badPacket) }
        let checksumError = checksumProblem(6, body.slice(0, body.count), src: src, dst: dst, packet)
        guard let s = PacketEndpoint(address: src, port: sport), let d = PacketEndpoint(address: dst, port: dport)
        else { return .other("bad addresses") }
        return .segment(
            TransportSegment(
                packet: packet, transport: .tcp, source: s, destination: d, seq: seq, syn: flags & 0x02 != 0,
                payload: payload, checksumError: checksumError))
    }

    private static func udp(_ body: ByteView, src: [UInt8], dst: [UInt8], _ packet: RawPacket) -> Outcome {
        guard let sport = body.be16(0), let dport = body.be16(2), let length = body.be16(4).map(Int.init),
            let checksum = body.be16(6)
        else { return .bad("UDP header cut short (\(body.count) bytes)", .badPacket) }
        guard length >= 8, length <= body.count, let payload = body.slice(8, length - 8) else {
            return .bad("UDP length \(length) in a \(body.count)-byte payload", .badPacket)
        }
        // A UDP checksum of 0 means the sender computed none.
        let checksumError = checksum == 0 ? nil : checksumProblem(17, body.slice(0, length), src: src, dst: dst, packet)
        guard let s = PacketEndpoint(address: src, port: sport), let d = PacketEndpoint(address: dst, port: dport)
        else { return .other("bad addresses") }
        return .segment(
            TransportSegment(
                packet: packet, transport: .udp, source: s, destination: d, payload: payload,
                checksumError: checksumError))
    }

    /// What is wrong with the checksum of `all`, a whole TCP segment or UDP datagram, if anything. Only packets Tavolo
    /// wrote itself are checked: in a live capture, outgoing checksums are often left to the network card.
    private static func checksumProblem(
        _ proto: UInt8, _ all: [UInt8]?, src: [UInt8], dst: [UInt8], _ packet: RawPacket
    ) -> String? {
        guard packet.synthesized, let all else { return nil }
        var sum = pseudoHeaderSum(proto, length: all.count, src: src, dst: dst)
        sum.add(all)
        guard sum.value != 0 else { return nil }
        return proto == 6
            ? "TCP checksum does not match the segment's bytes" : "UDP checksum does not match the datagram's bytes"
    }

    /// The checksum of the IPv4 or IPv6 pseudo-header that TCP and UDP checksums cover.
    private static func pseudoHeaderSum(_ proto: UInt8, length: Int, src: [UInt8], dst: [UInt8]) -> InternetChecksum {
        var sum = InternetChecksum()
        sum.add(src)
        sum.add(dst)
        if src.count == 16 {
            var l: [UInt8] = []
            l.appendBE32(UInt32(length))
            sum.add(l + [0, 0, 0, proto])
        } else {
            var l: [UInt8] = [0, proto]
            l.appendBE16(UInt16(truncatingIfNeeded: length))
            sum.add(l)
        }
        return sum
    }
}
