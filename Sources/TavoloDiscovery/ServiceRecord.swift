/// One resolved DNS-SD service instance.
public struct ServiceRecord: Sendable, Hashable {
    /// Instance name, e.g. the node name "alice" (unescaped, as users see it).
    public var name: String
    /// Service type without a trailing dot, e.g. "_tavolo._tcp".
    public var type: String
    /// Domain without a trailing dot, normally "local".
    public var domain: String
    /// Target host name without a trailing dot, e.g. "vm.local".
    public var host: String
    /// TCP port the service listens on.
    public var port: Int
    /// Decoded TXT record (see `TXTRecord` for the mapping rules).
    public var txt: [String: String]
    /// IPv4 addresses of `host` in dotted-quad form, sorted; never empty in a `.found` or `.updated` event.
    public var addresses: [String]

    public init(
        name: String, type: String, domain: String, host: String, port: Int, txt: [String: String],
        addresses: [String]
    ) {
        self.name = name
        self.type = type
        self.domain = domain
        self.host = host
        self.port = port
        self.txt = txt
        self.addresses = addresses
    }
}

/// What a browse reports.
public enum DiscoveryEvent: Sendable, Hashable {
    /// A new instance, fully resolved (host, port, TXT, at least one address).
    case found(ServiceRecord)
    /// An instance already reported changed its TXT record, port, host or addresses.
    case updated(ServiceRecord)
    /// An instance reported by `.found` went away.
    case removed(name: String)
}
