import CDNSSD
import Foundation

/// The browse session's A-record queries: one per host name its instances resolved to, shared by the instances on that
/// host, retried with backoff, and the instances emitted once their host has an address. Loop thread only.
extension BrowseSession {

    func attach(_ instance: BrowsedInstance, to host: String) {
        if let query = hosts[host] {
            query.users += 1
            return
        }
        let query = HostQuery(host: host, session: self)
        query.users = 1
        hosts[host] = query
        startAddressQuery(query)
    }

    func detach(_ instance: BrowsedInstance, from host: String) {
        guard let query = hosts[host] else { return }
        query.users -= 1
        guard query.users <= 0 else { return }
        hosts[host] = nil
        query.gone = true
        if let ref = query.ref { loop.retire(ref) }
        query.ref = nil
    }

    func startAddressQuery(_ query: HostQuery) {
        guard !query.gone, query.ref == nil else { return }
        let ref = try? ServiceRef.create(operation: "DNSServiceQueryRecord", context: query) { out, pointer in
            DNSServiceQueryRecord(
                out, 0, 0, query.host, UInt16(kDNSServiceType_A), UInt16(kDNSServiceClass_IN),
                { _, flags, _, error, _, recordType, _, length, data, _, pointer in
                    guard let query = ServiceRef.context(pointer, as: HostQuery.self) else { return }
                    var address: String?
                    if error == kDNSServiceErr_NoError, recordType == UInt16(kDNSServiceType_A), length == 4,
                        let data
                    {
                        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
                        if inet_ntop(AF_INET, data, &text, socklen_t(text.count)) != nil {
                            address = String(
                                decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                        }
                    }
                    let added = flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0
                    query.session?.addressReply(query, error: error, address: address, added: added)
                }, pointer)
        }
        guard let ref else { return retryAddressQuery(query) }
        ref.onProcessError = { [weak self, weak query] _ in
            guard let self, let query, query.ref === ref else { return }
            query.ref = nil
            self.retryAddressQuery(query)
        }
        query.ref = ref
        loop.add(ref)
        let attempt = query.attempt
        loop.schedule(after: Self.resolveTimeout) { [weak self, weak query] in
            guard let self, let query, query.attempt == attempt, query.addresses.isEmpty else { return }
            self.retryAddressQuery(query)
        }
    }

    func retryAddressQuery(_ query: HostQuery) {
        if let ref = query.ref { loop.retire(ref) }
        query.ref = nil
        query.attempt += 1
        guard !query.gone else { return }
        query.failures += 1
        var delay = Self.firstRetry * (1 << min(query.failures - 1, 16))
        if delay > Self.lastRetry { delay = Self.lastRetry }
        delay += delay * Double.random(in: 0...0.25)
        loop.schedule(after: delay) { [weak self, weak query] in
            guard let self, let query, !query.gone else { return }
            self.startAddressQuery(query)
        }
    }

    func addressReply(_ query: HostQuery, error: DNSServiceErrorType, address: String?, added: Bool) {
        guard error == kDNSServiceErr_NoError else { return retryAddressQuery(query) }
        guard let address else { return }
        query.failures = 0
        if added {
            query.addresses.insert(address)
        } else {
            query.addresses.remove(address)
        }
        for instance in instances.values where instance.host == query.host { emitIfReady(instance) }
    }

    func emitIfReady(_ instance: BrowsedInstance) {
        guard !instance.gone, let host = instance.host, let port = instance.port,
            let addresses = hosts[host]?.addresses, !addresses.isEmpty
        else { return }
        let record = ServiceRecord(
            name: instance.name, type: trimDot(instance.type), domain: trimDot(instance.domain), host: trimDot(host),
            port: port, txt: instance.txt, addresses: addresses.sorted())
        if instance.lastEmitted == nil {
            continuation.yield(.found(record))
        } else if instance.lastEmitted != record {
            continuation.yield(.updated(record))
        }
        instance.lastEmitted = record
    }

    func trimDot(_ name: String) -> String {
        name.hasSuffix(".") ? String(name.dropLast()) : name
    }
}

/// The A-record query of one host name; the callback context of its ref. Loop thread only.
final class HostQuery {
    let host: String
    weak var session: BrowseSession?
    var ref: ServiceRef?
    var users = 0
    var attempt = 0
    var failures = 0
    var gone = false
    var addresses: Set<String> = []

    init(host: String, session: BrowseSession) {
        self.host = host
        self.session = session
    }
}
