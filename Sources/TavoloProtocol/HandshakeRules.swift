/// What a receiver checks in a decoded handshake before anything else (PROTOCOL.md §4.1): a handshake that breaks
/// one of these rules is a `bad-frame`. Only a well-formed handshake reaches the admission checks of §4.7.
extension Handshake {
    /// Longest node name, in UTF-8 bytes: the DNS-SD instance name it is (§6).
    public static let maxNameBytes = 63
    /// Most capabilities one handshake may list.
    public static let maxCapabilities = 16
    /// Longest capability name, in bytes.
    public static let maxCapabilityBytes = 32
    /// Members that must be written as JSON integers (no fraction, no exponent).
    static let integerMembers = ["udpPort", "version"]

    /// Why this handshake breaks §4.1, or nil if it does not. The node id's form is checked when it is decoded.
    public var violation: String? {
        guard (1...65_535).contains(udpPort) else { return "udpPort \(udpPort) is not in 1...65535" }
        guard (1...Self.maxNameBytes).contains(name.utf8.count) else {
            return "name of \(name.utf8.count) bytes (1 to \(Self.maxNameBytes) allowed)"
        }
        guard Self.isValidName(name) else {
            return "name contains a control character, a hidden or direction-changing character, or '/'"
        }
        guard capabilities.count <= Self.maxCapabilities else {
            return "\(capabilities.count) capabilities (at most \(Self.maxCapabilities))"
        }
        if let bad = capabilities.first(where: { !Self.isValidCapability($0) }) {
            return "capability '\(bad)' is not 1 to \(Self.maxCapabilityBytes) of a-z, 0-9, '-'"
        }
        return nil
    }

    /// No control characters (C0, DEL, C1): names end up in logs and terminal UIs. No hidden or direction-changing
    /// characters (`HiddenCharacters`): a name must read as what it is. No '/', as in DNS-SD (§6).
    public static func isValidName(_ name: String) -> Bool {
        !name.unicodeScalars.contains { s in
            s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s == "/" || s.value == 0x2028 || s.value == 0x2029
                || HiddenCharacters.contains(s)
        }
    }

    static func isValidCapability(_ c: String) -> Bool {
        (1...maxCapabilityBytes).contains(c.utf8.count)
            && c.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }
}

extension Heartbeat {
    static let integerMembers = ["sentAt", "seq"]
}
