/// A DNS UPDATE message (RFC 2136) and the few pieces of DNS wire format it needs (RFC 1035 §4.1): how a node
/// registers and withdraws its service in a unicast DNS-SD domain (RFC 6763 §11; PROTOCOL.md §6.1). Pure: bytes
/// out, no socket, so the encoding is tested against vectors written by an independent encoder (dnspython).
///
/// Names are sequences of labels, never dotted text split blindly: a DNS-SD instance name is one label that may
/// hold dots and spaces (RFC 6763 §4.3). Nothing is compressed (RFC 2136 allows it; it only saves bytes).
public struct DNSUpdateMessage: Equatable, Sendable {
    /// A domain name as labels, most specific first, the root implied.
    public struct Name: Equatable, Hashable, Sendable {
        public var labels: [[UInt8]]

        public init(labels: [[UInt8]]) { self.labels = labels }

        /// `a.b.c` or `a.b.c.` as labels split at dots (for names whose labels hold no dot).
        public init(dotted: String) {
            labels = dotted.split(separator: ".", omittingEmptySubsequences: true).map { Array($0.utf8) }
        }

        /// This name under `parent`: `self.labels + parent.labels`.
        public func under(_ parent: Name) -> Name { Name(labels: labels + parent.labels) }

        /// Why it cannot be written on the wire, or nil: labels are 1 to 63 bytes, the whole at most 255 bytes.
        public var problem: String? {
            if let bad = labels.first(where: { $0.isEmpty || $0.count > 63 }) {
                return "a label of \(bad.count) bytes (1 to 63 allowed)"
            }
            let length = labels.reduce(1) { $0 + 1 + $1.count }
            return length > 255 ? "a name of \(length) bytes (at most 255)" : nil
        }

        func encode(into out: inout [UInt8]) {
            for label in labels {
                out.append(UInt8(label.count))
                out += label
            }
            out.append(0)
        }
    }

    /// Resource record types used here.
    public enum RecordType: UInt16, Sendable {
        case a = 1, soa = 6, ptr = 12, txt = 16, srv = 33, opt = 41, any = 255
    }

    /// One record's data.
    public enum RData: Equatable, Sendable {
        case a([UInt8])
        case ptr(Name)
        case srv(priority: UInt16, weight: UInt16, port: UInt16, target: Name)
        /// The TXT record's bytes as they go on the wire (`TXTRecord.encode`).
        case txt([UInt8])

        var type: RecordType {
            switch self {
            case .a: .a
            case .ptr: .ptr
            case .srv: .srv
            case .txt: .txt
            }
        }

        func encode(into out: inout [UInt8]) {
            switch self {
            case .a(let address): out += address
            case .ptr(let name): name.encode(into: &out)
            case .srv(let priority, let weight, let port, let target):
                for v in [priority, weight, port] { out.append(UInt8(v >> 8)); out.append(UInt8(v & 0xff)) }
                target.encode(into: &out)
            case .txt(let bytes): out += bytes
            }
        }
    }

    /// One record: owner name, time to live and data (class IN).
    public struct Record: Equatable, Sendable {
        public var name: Name
        public var ttl: UInt32
        public var data: RData

        public init(name: Name, ttl: UInt32, data: RData) {
            self.name = name
            self.ttl = ttl
            self.data = data
        }
    }

    /// One entry of the update section (RFC 2136 §2.5).
    public enum Change: Equatable, Sendable {
        /// Add this record to its RRset (§2.5.1).
        case add(Record)
        /// Delete every RRset of this name (§2.5.3: class ANY, type ANY).
        case deleteName(Name)
        /// Delete this one record, whatever its TTL (§2.5.4: class NONE): the PTR of one instance among others'.
        case deleteRecord(Record)
    }

    public var id: UInt16
    /// The zone the update is for (the zone section's one entry, type SOA).
    public var zone: Name
    public var changes: [Change]
    /// Seconds the server may keep the records without a refresh: the EDNS0 UPDATE-LEASE option (option code 2, as
    /// registered with IANA for DNS-SD's update leases). A server that does not know it ignores it.
    public var lease: UInt32?

    public init(id: UInt16, zone: Name, changes: [Change], lease: UInt32? = nil) {
        self.id = id
        self.zone = zone
        self.changes = changes
        self.lease = lease
    }

    static let classIN: UInt16 = 1
    static let classNONE: UInt16 = 254
    static let classANY: UInt16 = 255
    /// The UDP payload size the OPT record advertises (the DNS flag day's safe size).
    static let udpPayloadSize: UInt16 = 1232
    static let leaseOption: UInt16 = 2

    /// The message's bytes (header, zone, no prerequisites, the changes, and the OPT record when there is a lease).
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        // Header: id; flags QR=0, opcode 5 (UPDATE); ZOCOUNT 1, PRCOUNT 0, UPCOUNT, ADCOUNT.
        for v in [id, 0x2800, 1, 0, UInt16(changes.count), lease == nil ? 0 : 1] { Self.put(v, &out) }
        zone.encode(into: &out)
        Self.put(RecordType.soa.rawValue, &out)
        Self.put(Self.classIN, &out)
        for change in changes {
            switch change {
            case .add(let r): Self.record(r.name, r.data.type.rawValue, Self.classIN, r.ttl, r.data, &out)
            case .deleteName(let name): Self.record(name, RecordType.any.rawValue, Self.classANY, 0, nil, &out)
            case .deleteRecord(let r): Self.record(r.name, r.data.type.rawValue, Self.classNONE, 0, r.data, &out)
            }
        }
        if let lease {
            // OPT: root name, type 41, class = payload size, TTL 0 (extended rcode, version 0, no flags).
            var option: [UInt8] = []
            Self.put(Self.leaseOption, &option)
            Self.put(4, &option)
            Self.put32(lease, &option)
            out.append(0)
            Self.put(RecordType.opt.rawValue, &out)
            Self.put(Self.udpPayloadSize, &out)
            Self.put32(0, &out)
            Self.put(UInt16(option.count), &out)
            out += option
        }
        return out
    }

    private static func record(
        _ name: Name, _ type: UInt16, _ rclass: UInt16, _ ttl: UInt32, _ data: RData?, _ out: inout [UInt8]
    ) {
        name.encode(into: &out)
        put(type, &out)
        put(rclass, &out)
        put32(ttl, &out)
        var rdata: [UInt8] = []
        data?.encode(into: &rdata)
        put(UInt16(rdata.count), &out)
        out += rdata
    }

    static func put(_ v: UInt16, _ out: inout [UInt8]) {
        out.append(UInt8(v >> 8))
        out.append(UInt8(v & 0xff))
    }

    static func put32(_ v: UInt32, _ out: inout [UInt8]) {
        put(UInt16(v >> 16), &out)
        put(UInt16(v & 0xffff), &out)
    }
}

/// What a server answered to an update: the header's id and response code (RFC 1035 §4.1.1, RFC 2136 §2.2).
public struct DNSUpdateResponse: Equatable, Sendable {
    public var id: UInt16
    public var rcode: UInt8

    /// Reads the 12-byte header of a response; nil when it is too short or not a response to an UPDATE.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 12, bytes[2] & 0x80 != 0, (bytes[2] >> 3) & 0x0f == 5 else { return nil }
        id = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        rcode = bytes[3] & 0x0f
    }

    /// The RFC 2136 name of the response code, for the log and `discovery`.
    public var rcodeName: String {
        switch rcode {
        case 0: "NOERROR"
        case 1: "FORMERR"
        case 2: "SERVFAIL"
        case 3: "NXDOMAIN"
        case 4: "NOTIMP"
        case 5: "REFUSED"
        case 6: "YXDOMAIN"
        case 7: "YXRRSET"
        case 8: "NXRRSET"
        case 9: "NOTAUTH"
        case 10: "NOTZONE"
        default: "rcode \(rcode)"
        }
    }
}
