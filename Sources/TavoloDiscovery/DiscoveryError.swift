import CDNSSD
import Foundation

/// Everything that can go wrong in `TavoloDiscovery`. Each case's `description` says what to do.
public enum DiscoveryError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The mDNS daemon (avahi-daemon) cannot be reached, either when an operation starts or because it went away
    /// while the operation was running. Avahi's dns_sd compatibility library reports this as
    /// `kDNSServiceErr_Unknown`; Apple's mDNSResponder as `kDNSServiceErr_ServiceNotRunning`.
    case daemonNotRunning
    /// Another service already uses this instance name and automatic renaming was not allowed.
    case nameConflict(name: String)
    /// A TXT record entry cannot be encoded: the key is empty, contains `=` or a non-printable character,
    /// or `key=value` is longer than 255 bytes, or the whole record is longer than 65535 bytes.
    case invalidTXT(String)
    /// An argument was rejected before or by the daemon (port out of range, malformed service type, …).
    case invalidArgument(String)
    /// The daemon did not answer within the time limit.
    case timeout(operation: String, seconds: Double)
    /// The operation needs a registered service: call `start()` first (or the advertiser was cancelled).
    case notRegistered
    /// The advertiser or browser was cancelled before the operation could finish.
    case cancelled
    /// Any other dns_sd error code, with the operation that failed.
    case serviceError(operation: String, code: Int32)
    /// Unicast DNS-SD (PROTOCOL.md §6.1): the DNS server could not be reached or refused an update.
    case wideArea(String)

    public var description: String {
        switch self {
        case .daemonNotRunning:
            return "avahi-daemon is not running: start it (scripts/setup does), or as root run `avahi-daemon -D`;"
                + " check with `avahi-daemon --check` (it also needs the system dbus daemon)"
        case .nameConflict(let name):
            return "the service name \"\(name)\" is already in use on this network: choose another node name"
        case .invalidTXT(let reason):
            return "invalid TXT record: \(reason)"
        case .invalidArgument(let reason):
            return "invalid argument: \(reason)"
        case .timeout(let operation, let seconds):
            return "\(operation): no answer from avahi-daemon within \(seconds) s"
        case .notRegistered:
            return "the service is not registered: call start() first"
        case .wideArea(let reason):
            return "unicast DNS-SD: \(reason)"
        case .cancelled:
            return "the operation was cancelled"
        case .serviceError(let operation, let code):
            return "\(operation) failed with dns_sd error \(code) (\(DiscoveryError.codeName(code)))"
        }
    }

    public var errorDescription: String? { description }

    /// Maps a dns_sd error code returned by `operation` (e.g. "DNSServiceBrowse") to a `DiscoveryError`.
    static func from(code: DNSServiceErrorType, operation: String, name: String = "") -> DiscoveryError {
        switch Int(code) {
        case Int(kDNSServiceErr_Unknown), kServiceNotRunning:
            // Avahi's compat library returns Unknown when it cannot create its client (no daemon / no dbus),
            // and reports Unknown in callbacks when the daemon disconnects.
            return .daemonNotRunning
        case Int(kDNSServiceErr_NameConflict):
            return .nameConflict(name: name)
        case Int(kDNSServiceErr_BadParam):
            return .invalidArgument("\(operation) rejected its parameters (kDNSServiceErr_BadParam)")
        default:
            return .serviceError(operation: operation, code: code)
        }
    }

    /// `kDNSServiceErr_ServiceNotRunning` from newer dns_sd.h versions (absent from Avahi's header).
    static let kServiceNotRunning = -65563

    static func codeName(_ code: Int32) -> String {
        let names: [Int: String] = [
            Int(kDNSServiceErr_Unknown): "Unknown", Int(kDNSServiceErr_NoSuchName): "NoSuchName",
            Int(kDNSServiceErr_NoMemory): "NoMemory", Int(kDNSServiceErr_BadParam): "BadParam",
            Int(kDNSServiceErr_BadReference): "BadReference", Int(kDNSServiceErr_BadState): "BadState",
            Int(kDNSServiceErr_BadFlags): "BadFlags", Int(kDNSServiceErr_Unsupported): "Unsupported",
            Int(kDNSServiceErr_NotInitialized): "NotInitialized", Int(kDNSServiceErr_NameConflict): "NameConflict",
            Int(kDNSServiceErr_Invalid): "Invalid", Int(kDNSServiceErr_Incompatible): "Incompatible",
            Int(kDNSServiceErr_NoSuchRecord): "NoSuchRecord", kServiceNotRunning: "ServiceNotRunning",
        ]
        return names[Int(code)] ?? "code \(code)"
    }
}
