/// Encodes packet records as pcapng blocks (little-endian): a section header and one raw-IP interface
/// (LINKTYPE_RAW, nanosecond timestamps), then one enhanced packet block per synthesized IP packet, with
/// its direction in `epb_flags`. Pure: returns bytes, does no I/O (see `PacketLogFile`).
public struct PcapngWriter: Sendable {
    private var synthesizer = PacketSynthesizer()
    /// Names the program in shb_userappl.
    public let application: String

    public init(application: String = "tavolod") {
        self.application = application
    }

    /// The section header and interface description blocks that start a file.
    public func fileHeader() -> [UInt8] {
        var shbBody: [UInt8] = []
        shbBody.appendLE32(Pcapng.byteOrderMagic)
        shbBody.appendLE16(1)  // major
        shbBody.appendLE16(0)  // minor
        shbBody.appendLE32(0xFFFF_FFFF)  // section length unknown (-1)
        shbBody.appendLE32(0xFFFF_FFFF)
        Self.appendOption(Pcapng.shbUserAppl, Array("\(Pcapng.tavoloApplication) (\(application))".utf8), to: &shbBody)
        Self.appendOption(Pcapng.optEnd, [], to: &shbBody)
        var idbBody: [UInt8] = []
        idbBody.appendLE16(LinkType.raw.rawValue)
        idbBody.appendLE16(0)
        idbBody.appendLE32(0)  // no snapshot limit
        Self.appendOption(Pcapng.ifName, Array("tavolo".utf8), to: &idbBody)
        Self.appendOption(
            Pcapng.ifDescription, Array("Tavolo frames in synthesized IP/TCP/UDP packets".utf8), to: &idbBody)
        Self.appendOption(Pcapng.ifTsresol, [9], to: &idbBody)
        Self.appendOption(Pcapng.optEnd, [], to: &idbBody)
        return Self.block(Pcapng.sectionHeader, shbBody) + Self.block(Pcapng.interfaceDescription, idbBody)
    }

    /// The enhanced packet blocks of one frame (several if a large TCP frame is split into segments).
    public mutating func encode(_ record: PacketRecord) -> [UInt8] {
        var out: [UInt8] = []
        for packet in synthesizer.packets(for: record) {
            var body: [UInt8] = []
            body.reserveCapacity(packet.count + 40)
            body.appendLE32(0)  // interface 0
            body.appendLE32(UInt32(truncatingIfNeeded: record.timeNanos >> 32))
            body.appendLE32(UInt32(truncatingIfNeeded: record.timeNanos))
            body.appendLE32(UInt32(packet.count))
            body.appendLE32(UInt32(packet.count))
            body += packet
            body.padTo4()
            var flags: [UInt8] = []
            flags.appendLE32(record.direction == .received ? 1 : 2)  // inbound : outbound
            Self.appendOption(Pcapng.epbFlags, flags, to: &body)
            Self.appendOption(Pcapng.optEnd, [], to: &body)
            out += Self.block(Pcapng.enhancedPacket, body)
        }
        return out
    }

    static func appendOption(_ code: UInt16, _ value: [UInt8], to body: inout [UInt8]) {
        body.appendLE16(code)
        body.appendLE16(UInt16(value.count))
        body += value
        body.padTo4()
    }

    static func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
        var b: [UInt8] = []
        let total = UInt32(12 + body.count)
        b.reserveCapacity(Int(total))
        b.appendLE32(type)
        b.appendLE32(total)
        b += body
        b.appendLE32(total)
        return b
    }
}
