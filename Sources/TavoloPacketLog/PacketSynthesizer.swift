/// Builds IPv4/IPv6 packets with TCP or UDP headers around captured frames, so that Wireshark sees each
/// peer as a conversation and can follow and reassemble TCP streams (modelled on NIOExtras'
/// `WritePCAPHandler`). Per connection it keeps the next sequence number of each direction: a segment's
/// ack is always what the other side has sent so far, as if every byte had been acknowledged at once.
struct PacketSynthesizer {
    /// Largest TCP payload of one synthesized segment: a bigger frame is split (IPv4 caps a packet at 64 KiB).
    static let maxSegmentPayload = 65_000

    private struct ConnectionKey: Hashable {
        let local: PacketEndpoint
        let remote: PacketEndpoint
    }

    private struct Connection {
        var localNext: UInt32
        var remoteNext: UInt32
    }

    private var connections: [ConnectionKey: Connection] = [:]
    /// Local address of TCP connections per remote address, to stand in for a UDP socket bound to 0.0.0.0.
    private var localAddressFor: [[UInt8]: [UInt8]] = [:]
    private var ipID: UInt16 = 0

    /// The IP packets that carry `record`'s bytes, in order (one for UDP, one or more for TCP).
    mutating func packets(for record: PacketRecord) -> [[UInt8]] {
        var local = record.local
        var remote = record.remote
        switch record.transport {
        case .tcp:
            if !local.isUnspecified { localAddressFor[remote.address] = local.address }
        case .udp:
            if local.isUnspecified, let a = localAddressFor[remote.address] {
                local = PacketEndpoint(unchecked: a, port: local.port)
            } else if local.isUnspecified, isLoopback(remote) {
                local = PacketEndpoint(unchecked: remote.address, port: local.port)
            }
        }
        if local.isIPv6 != remote.isIPv6 {
            local = local.asIPv6
            remote = remote.asIPv6
        }
        let (src, dst) = record.direction == .sent ? (local, remote) : (remote, local)
        switch record.transport {
        case .udp:
            return [
                ipPacket(
                    src: src, dst: dst, proto: 17, transport: udpSegment(src: src, dst: dst, payload: record.bytes[...])
                )
            ]
        case .tcp:
            let key = ConnectionKey(local: local, remote: remote)
            var c =
                connections[key]
                ?? Connection(
                    localNext: Self.initialSequence(local, remote), remoteNext: Self.initialSequence(remote, local))
            var out: [[UInt8]] = []
            var offset = 0
            repeat {
                let end = min(record.bytes.count, offset + Self.maxSegmentPayload)
                let chunk = record.bytes[offset..<end]
                let (seq, ack) = record.direction == .sent ? (c.localNext, c.remoteNext) : (c.remoteNext, c.localNext)
                let segment = tcpSegment(src: src, dst: dst, seq: seq, ack: ack, payload: chunk)
                out.append(ipPacket(src: src, dst: dst, proto: 6, transport: segment))
                if record.direction == .sent {
                    c.localNext &+= UInt32(chunk.count)
                } else {
                    c.remoteNext &+= UInt32(chunk.count)
                }
                offset = end
            } while offset < record.bytes.count
            connections[key] = c
            return out
        }
    }

    private func isLoopback(_ e: PacketEndpoint) -> Bool {
        e.isIPv6 ? e.address == Array(repeating: 0, count: 15) + [1] : e.address[0] == 127
    }

    /// A per-connection starting number (any value works; distinct ones make captures easier to read).
    static func initialSequence(_ from: PacketEndpoint, _ to: PacketEndpoint) -> UInt32 {
        var h: UInt32 = 2_166_136_261
        for b in from.address + [UInt8(from.port >> 8), UInt8(from.port & 0xFF)] + to.address
            + [UInt8(to.port >> 8), UInt8(to.port & 0xFF)]
        {
            h = (h ^ UInt32(b)) &* 16_777_619
        }
        return h
    }

    private func pseudoHeader(src: PacketEndpoint, dst: PacketEndpoint, proto: UInt8, length: Int) -> [UInt8] {
        var p = src.address + dst.address
        if src.isIPv6 {
            p.appendBE32(UInt32(length))
            p += [0, 0, 0, proto]
        } else {
            p += [0, proto]
            p.appendBE16(UInt16(truncatingIfNeeded: length))
        }
        return p
    }

    private func udpSegment(src: PacketEndpoint, dst: PacketEndpoint, payload: ArraySlice<UInt8>) -> [UInt8] {
        let length = 8 + payload.count
        var s: [UInt8] = []
        s.reserveCapacity(length)
        s.appendBE16(src.port)
        s.appendBE16(dst.port)
        s.appendBE16(UInt16(truncatingIfNeeded: length))
        s.appendBE16(0)
        s += payload
        var sum = InternetChecksum()
        sum.add(pseudoHeader(src: src, dst: dst, proto: 17, length: length))
        sum.add(s)
        let c = sum.value == 0 ? 0xFFFF : sum.value
        s[6] = UInt8(c >> 8)
        s[7] = UInt8(c & 0xFF)
        return s
    }

    private func tcpSegment(
        src: PacketEndpoint, dst: PacketEndpoint, seq: UInt32, ack: UInt32, payload: ArraySlice<UInt8>
    )
        -> [UInt8]
    {
        var s: [UInt8] = []
        s.reserveCapacity(20 + payload.count)
        s.appendBE16(src.port)
        s.appendBE16(dst.port)
        s.appendBE32(seq)
        s.appendBE32(ack)
        s.append(5 << 4)  // data offset: 5 words, no options
        s.append(0x18)  // PSH | ACK
        s.appendBE16(65_535)  // window
        s.appendBE16(0)  // checksum, below
        s.appendBE16(0)  // urgent pointer
        s += payload
        var sum = InternetChecksum()
        sum.add(pseudoHeader(src: src, dst: dst, proto: 6, length: s.count))
        sum.add(s)
        let c = sum.value
        s[16] = UInt8(c >> 8)
        s[17] = UInt8(c & 0xFF)
        return s
    }

    private mutating func ipPacket(src: PacketEndpoint, dst: PacketEndpoint, proto: UInt8, transport: [UInt8])
        -> [UInt8]
    {
        var p: [UInt8] = []
        if src.isIPv6 {
            p.reserveCapacity(40 + transport.count)
            p.appendBE32(0x6000_0000)
            p.appendBE16(UInt16(truncatingIfNeeded: transport.count))
            p.append(proto)
            p.append(64)  // hop limit
            p += src.address
            p += dst.address
        } else {
            ipID &+= 1
            p.reserveCapacity(20 + transport.count)
            p.append(0x45)
            p.append(0)
            p.appendBE16(UInt16(truncatingIfNeeded: 20 + transport.count))
            p.appendBE16(ipID)
            p.appendBE16(0x4000)  // don't fragment
            p.append(64)  // TTL
            p.append(proto)
            p.appendBE16(0)
            p += src.address
            p += dst.address
            var sum = InternetChecksum()
            sum.add(p)
            let c = sum.value
            p[10] = UInt8(c >> 8)
            p[11] = UInt8(c & 0xFF)
        }
        p += transport
        return p
    }
}
