/// One node's service in a unicast DNS-SD domain (RFC 6763 §11, PROTOCOL.md §6.1): the four records that let a
/// browser of `_tavolo._tcp.<domain>` find it, and the DNS UPDATE messages that put them in and take them out.
///
///     _tavolo._tcp.<domain>          PTR  <instance>._tavolo._tcp.<domain>
///     <instance>._tavolo._tcp.<domain> SRV  0 0 <port> <host>.<domain>
///     <instance>._tavolo._tcp.<domain> TXT  id=… u=… v=… (the same keys as on the link)
///     <host>.<domain>                A    <address>
///
/// `host` is a label of the node's own (`tavolo-` and the first 16 hex digits of its id), not the machine's name:
/// several nodes on one machine each own their A record, and one node's withdrawal never removes another's.
public struct WideAreaService: Equatable, Sendable {
    public var instance: String
    public var type: String
    public var domain: String
    public var host: String
    public var port: UInt16
    public var txt: [String: String]
    public var address: [UInt8]
    /// Time to live of every record: how long a resolver may keep an answer after the node is gone.
    public var ttl: UInt32

    public init(
        instance: String, type: String = "_tavolo._tcp", domain: String, host: String, port: UInt16,
        txt: [String: String], address: [UInt8], ttl: UInt32 = 120
    ) {
        self.instance = instance
        self.type = type
        self.domain = domain
        self.host = host
        self.port = port
        self.txt = txt
        self.address = address
        self.ttl = ttl
    }

    public var zone: DNSUpdateMessage.Name { .init(dotted: domain) }
    public var serviceType: DNSUpdateMessage.Name { DNSUpdateMessage.Name(dotted: type).under(zone) }
    /// The instance name: one label, whatever it holds (RFC 6763 §4.3), then the type and the domain.
    public var instanceName: DNSUpdateMessage.Name { .init(labels: [Array(instance.utf8)] + serviceType.labels) }
    public var hostName: DNSUpdateMessage.Name { DNSUpdateMessage.Name(labels: [Array(host.utf8)]).under(zone) }

    /// Why these records cannot be written (a name too long, a TXT entry too long), or nil.
    public var problem: String? {
        if address.count != 4 { return "an IPv4 address of \(address.count) bytes" }
        if let p = instanceName.problem ?? hostName.problem ?? serviceType.problem { return p }
        do { _ = try TXTRecord.encode(txt) } catch { return "\(error)" }
        return nil
    }

    var records: [DNSUpdateMessage.Record] {
        let txtBytes = (try? TXTRecord.encode(txt)) ?? [0]
        return [
            .init(name: serviceType, ttl: ttl, data: .ptr(instanceName)),
            .init(name: instanceName, ttl: ttl, data: .srv(priority: 0, weight: 0, port: port, target: hostName)),
            .init(name: instanceName, ttl: ttl, data: .txt(txtBytes)),
            .init(name: hostName, ttl: ttl, data: .a(address)),
        ]
    }

    /// Replaces whatever the instance and host names held (a previous run's records, another port) with this
    /// node's records, in one update: the server applies all of it or none. Sent again to refresh the lease.
    public func registration(id: UInt16, lease: UInt32?) -> DNSUpdateMessage {
        let changes: [DNSUpdateMessage.Change] =
            [.deleteName(instanceName), .deleteName(hostName)] + records.map { .add($0) }
        return DNSUpdateMessage(id: id, zone: zone, changes: changes, lease: lease)
    }

    /// Takes the node out: its one PTR among the others', then every record of its instance and host names.
    public func withdrawal(id: UInt16) -> DNSUpdateMessage {
        DNSUpdateMessage(
            id: id, zone: zone,
            changes: [.deleteRecord(records[0]), .deleteName(instanceName), .deleteName(hostName)])
    }
}
