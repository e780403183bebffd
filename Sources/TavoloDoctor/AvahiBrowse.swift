import Foundation

/// One line of `avahi-browse --parsable --resolve`: a `_tavolo._tcp` instance as Avahi resolved it on one interface.
public struct AvahiSighting: Codable, Sendable, Equatable {
    public var interface: String
    public var name: String
    public var host: String
    public var address: String
    public var port: Int
    /// The `id` of its TXT record, when it has one.
    public var id: String?

    public init(interface: String, name: String, host: String, address: String, port: Int, id: String?) {
        self.interface = interface
        self.name = name
        self.host = host
        self.address = address
        self.port = port
        self.id = id
    }
}

/// What `avahi-browse` said: the instances it resolved, or why it could not browse.
public struct AvahiBrowseResult: Codable, Sendable, Equatable {
    public var sightings: [AvahiSighting]
    /// Its error line (e.g. "Daemon not running"), when it failed.
    public var error: String?

    public init(sightings: [AvahiSighting], error: String?) {
        self.sightings = sightings
        self.error = error
    }
}

/// Asks Avahi itself which `_tavolo._tcp` instances it sees on which interface, through `avahi-browse` (Debian's
/// avahi-utils), as an external command: `tavolo` links no Avahi, and the dns_sd API the node uses does not say on
/// which interfaces a service is published.
public enum AvahiBrowse {
    /// Runs `avahi-browse -prtk _tavolo._tcp` (resolve, parsable, stop once Avahi's cache is listed); nil when
    /// avahi-browse is not installed.
    public static func run(type: String = "_tavolo._tcp", timeout: Double = 8) -> AvahiBrowseResult? {
        guard let path = ExternalCommand.find("avahi-browse") else { return nil }
        let result = ExternalCommand.run(
            path, ["--parsable", "--resolve", "--terminate", "--no-db-lookup", type], timeout: timeout)
        let sightings = parse(result.stdout)
        guard result.status == 0 else {
            let line = result.stderr.split(separator: "\n").last.map(String.init)
            return AvahiBrowseResult(
                sightings: sightings, error: line ?? (result.timedOut ? "no answer within \(Int(timeout)) s" : "failed")
            )
        }
        return AvahiBrowseResult(sightings: sightings, error: nil)
    }

    /// The resolved (`=`) lines of parsable output, IPv4 only (the nodes' addresses are IPv4).
    public static func parse(_ output: String) -> [AvahiSighting] {
        output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ";", maxSplits: 9, omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 9, fields[0] == "=", fields[2] == "IPv4", let port = Int(fields[8]) else {
                return nil
            }
            return AvahiSighting(
                interface: fields[1], name: unescape(fields[3]), host: fields[6], address: fields[7], port: port,
                id: fields.count > 9 ? txtValue("id", in: fields[9]) : nil)
        }
    }

    /// Avahi's parsable escapes: `\DDD` (a decimal byte) and `\X` (the character itself).
    static func unescape(_ text: String) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var i = 0
        while i < source.count {
            if source[i] == UInt8(ascii: "\\"), i + 3 < source.count, let value = decimal(source[(i + 1)...(i + 3)]) {
                bytes.append(value)
                i += 4
            } else if source[i] == UInt8(ascii: "\\"), i + 1 < source.count {
                bytes.append(source[i + 1])
                i += 2
            } else {
                bytes.append(source[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func decimal(_ digits: ArraySlice<UInt8>) -> UInt8? {
        guard digits.count == 3, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
        return value <= 255 ? UInt8(value) : nil
    }

    /// The value of `key` in a TXT field printed as `"k=v" "k2=v2"`.
    static func txtValue(_ key: String, in field: String) -> String? {
        for part in field.split(separator: "\"") where part.hasPrefix("\(key)=") {
            return String(part.dropFirst(key.count + 1))
        }
        return nil
    }
}
