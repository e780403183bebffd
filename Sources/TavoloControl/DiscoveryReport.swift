/// `discovery`: the node's DNS-SD as the node itself sees it — what `tavolo doctor` cannot learn from outside the
/// node (`tavolo` links no Avahi). The interfaces Avahi publishes on are not here: the dns_sd API does not say;
/// `tavolo doctor` asks `avahi-browse` for them.
public struct DiscoveryReport: Codable, Sendable, Equatable {
    /// The node's name, which is its DNS-SD instance name.
    public var name: String
    /// The node's id (hex), which its TXT record carries.
    public var id: String
    /// The TCP port the node listens on and advertises (the UDP port is in the TXT record).
    public var tcpPort: Int
    public var udpPort: Int
    /// Avahi holds the node's registration now (false while it is registered again, e.g. after Avahi restarted).
    public var registered: Bool
    /// Why the registration last failed, when it did.
    public var registrationError: String?
    /// The browse for other nodes is running (false between a failure and the next try).
    public var browsing: Bool
    /// Why the browse last failed, when it did.
    public var browseError: String?
    /// Every `_tavolo._tcp` instance the browse sees now, this node's own included, by name.
    public var instances: [SeenInstance]

    public init(
        name: String, id: String, tcpPort: Int, udpPort: Int, registered: Bool, registrationError: String?,
        browsing: Bool, browseError: String?, instances: [SeenInstance]
    ) {
        self.name = name
        self.id = id
        self.tcpPort = tcpPort
        self.udpPort = udpPort
        self.registered = registered
        self.registrationError = registrationError
        self.browsing = browsing
        self.browseError = browseError
        self.instances = instances
    }
}

/// One service instance a node's browse resolved.
public struct SeenInstance: Codable, Sendable, Equatable {
    public var name: String
    /// The `id` of its TXT record, when it has one.
    public var id: String?
    /// The host name it is published under, e.g. `laptop.local`.
    public var host: String
    public var port: Int
    /// Its host's IPv4 addresses.
    public var addresses: [String]

    public init(name: String, id: String?, host: String, port: Int, addresses: [String]) {
        self.name = name
        self.id = id
        self.host = host
        self.port = port
        self.addresses = addresses
    }
}
