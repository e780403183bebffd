import CDNSSD

/// Throws `DiscoveryError.daemonNotRunning` if avahi-daemon cannot be reached right now; returns otherwise.
/// Cheap (one short-lived browse); meant for start-up diagnostics and for tests deciding whether to skip.
public func checkDaemon() throws(DiscoveryError) {
    let ref = try ServiceRef.create(operation: "DNSServiceBrowse", context: DaemonProbe()) { out, pointer in
        DNSServiceBrowse(out, 0, 0, "_tavolo-probe._tcp", nil, { _, _, _, _, _, _, _, _ in }, pointer)
    }
    ref.deallocate()
}

private final class DaemonProbe {}
