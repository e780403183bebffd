/// Numbers of the pcapng format (draft-ietf-opsawg-pcapng) and the link types the reader understands.
enum Pcapng {
    static let sectionHeader: UInt32 = 0x0A0D_0D0A
    static let interfaceDescription: UInt32 = 1
    static let obsoletePacket: UInt32 = 2
    static let simplePacket: UInt32 = 3
    static let nameResolution: UInt32 = 4
    static let interfaceStatistics: UInt32 = 5
    static let enhancedPacket: UInt32 = 6
    static let decryptionSecrets: UInt32 = 0x0000_000A
    static let customCopiable: UInt32 = 0x0000_0BAD
    static let customNonCopiable: UInt32 = 0x4000_0BAD
    static let byteOrderMagic: UInt32 = 0x1A2B_3C4D

    static let optEnd: UInt16 = 0
    static let optComment: UInt16 = 1
    static let shbUserAppl: UInt16 = 4
    static let ifName: UInt16 = 2
    static let ifDescription: UInt16 = 3
    static let ifTsresol: UInt16 = 9
    static let epbFlags: UInt16 = 2

    /// Written in shb_userappl; a section that carries it has checksums worth verifying.
    static let tavoloApplication = "Tavolo packet log"

    static func blockName(_ type: UInt32) -> String {
        switch type {
        case sectionHeader: "section header"
        case interfaceDescription: "interface description"
        case obsoletePacket: "packet (obsolete)"
        case simplePacket: "simple packet"
        case nameResolution: "name resolution"
        case interfaceStatistics: "interface statistics"
        case enhancedPacket: "enhanced packet"
        case decryptionSecrets: "decryption secrets"
        case customCopiable, customNonCopiable: "custom"
        default: "unknown type 0x\(String(type, radix: 16))"
        }
    }

    static let knownBlockTypes: Set<UInt32> = [
        sectionHeader, interfaceDescription, obsoletePacket, simplePacket, nameResolution, interfaceStatistics,
        enhancedPacket, decryptionSecrets, customCopiable, customNonCopiable,
    ]
}

/// Link-layer types (tcpdump.org LINKTYPE_*) whose packets the reader can take apart.
public enum LinkType: UInt16, Sendable {
    /// BSD loopback: a 4-byte address family in host order.
    case null = 0
    case ethernet = 1
    /// Raw IP: the packet starts with an IPv4 or IPv6 header. What the Tavolo recorder writes.
    case raw = 101
    /// Linux "cooked" capture v1 (`-i any`).
    case linuxSLL = 113
    case ipv4 = 228
    case ipv6 = 229
    /// Linux "cooked" capture v2.
    case linuxSLL2 = 276
}
