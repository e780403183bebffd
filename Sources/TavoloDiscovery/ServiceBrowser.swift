import CDNSSD
import Foundation

/// Browses for `type` (e.g. "_tavolo._tcp") and reports instances as they appear, change and go.
///
/// Each instance seen by `DNSServiceBrowse` is resolved (`DNSServiceResolve`, kept running so TXT changes are
/// reported) to host, port and TXT, and its host to IPv4 addresses (`DNSServiceQueryRecord` for the A record,
/// also kept running); `.found` is emitted once all of these are known. Ending the iteration (or cancelling the
/// task iterating) stops the discovery thread and deallocates every ref. The stream throws
/// `DiscoveryError.daemonNotRunning` if avahi-daemon is not running or stops.
public func browse(type: String = "_tavolo._tcp", domain: String? = nil) -> AsyncThrowingStream<DiscoveryEvent, Error> {
    let (stream, continuation) = AsyncThrowingStream<DiscoveryEvent, Error>.makeStream()
    do {
        try validateServiceType(type)
        // The stream always ends when the loop does; after a normal finish this is a no-op.
        let loop = try DNSSDLoop(name: "tavolo-browse") { error in
            if let error { continuation.finish(throwing: error) } else { continuation.finish() }
        }
        let session = BrowseSession(type: type, domain: domain, loop: loop, continuation: continuation)
        continuation.onTermination = { _ in loop.stop() }
        loop.perform { session.start() }
    } catch {
        continuation.finish(throwing: error)
    }
    return stream
}

/// State of one browse.
///
/// `@unchecked Sendable`: it is created on the caller's thread, then only used on its loop's thread (all
/// dns_sd callbacks and jobs run there); `loop` and `continuation` are thread-safe themselves.
final class BrowseSession: @unchecked Sendable {
    let type: String
    let domain: String?
    let loop: DNSSDLoop
    let continuation: AsyncThrowingStream<DiscoveryEvent, Error>.Continuation
    private var browseRef: ServiceRef?
    private var instances: [String: BrowsedInstance] = [:]

    init(
        type: String, domain: String?, loop: DNSSDLoop,
        continuation: AsyncThrowingStream<DiscoveryEvent, Error>.Continuation
    ) {
        self.type = type
        self.domain = domain
        self.loop = loop
        self.continuation = continuation
    }

    func start() {
        do {
            let ref = try ServiceRef.create(operation: "DNSServiceBrowse", context: self) { out, contextPointer in
                DNSServiceBrowse(
                    out, 0, 0, type, domain,
                    { _, flags, interface, error, name, type, domain, pointer in
                        guard let session = ServiceRef.context(pointer, as: BrowseSession.self) else { return }
                        session.browseReply(
                            flags: flags, interface: interface, error: error, name: name.map { String(cString: $0) },
                            type: type.map { String(cString: $0) }, domain: domain.map { String(cString: $0) })
                    }, contextPointer)
            }
            ref.onProcessError = { [weak self] error in self?.fail(error, operation: "DNSServiceBrowse") }
            browseRef = ref
            loop.add(ref)
        } catch {
            continuation.finish(throwing: error)
            loop.stop()
        }
    }

    private func fail(_ code: DNSServiceErrorType, operation: String) {
        continuation.finish(throwing: DiscoveryError.from(code: code, operation: operation))
        loop.stop()
    }

    private func browseReply(
        flags: DNSServiceFlags, interface: UInt32, error: DNSServiceErrorType, name: String?, type: String?,
        domain: String?
    ) {
        guard error == kDNSServiceErr_NoError else { return fail(error, operation: "DNSServiceBrowse") }
        guard let name, let type, let domain else { return }
        if flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0 {
            if let instance = instances[name] {
                instance.interfaces.insert(interface)
            } else {
                let instance = BrowsedInstance(name: name, type: type, domain: domain, session: self)
                instance.interfaces.insert(interface)
                instances[name] = instance
                startResolve(instance)
            }
        } else if let instance = instances[name] {
            instance.interfaces.remove(interface)
            guard instance.interfaces.isEmpty else { return }
            instances[name] = nil
            stopQueries(instance)
            if instance.lastEmitted != nil { continuation.yield(.removed(name: name)) }
        }
    }

    private func stopQueries(_ instance: BrowsedInstance) {
        if let ref = instance.resolveRef { loop.retire(ref) }
        if let ref = instance.addressRef { loop.retire(ref) }
        instance.resolveRef = nil
        instance.addressRef = nil
    }

    private func startResolve(_ instance: BrowsedInstance) {
        // Interface "any": Avahi resolves on whichever interface the service is on.
        let ref = try? ServiceRef.create(operation: "DNSServiceResolve", context: instance) { out, pointer in
            DNSServiceResolve(
                out, 0, 0, instance.name, instance.type, instance.domain,
                {
                    _, _, _, error, _, host, port, txtLength, txt, pointer in
                    guard let instance = ServiceRef.context(pointer, as: BrowsedInstance.self) else { return }
                    let txt = txt.map { TXTRecord.decode(UnsafeBufferPointer(start: $0, count: Int(txtLength))) } ?? [:]
                    instance.session?.resolveReply(
                        instance, error: error, host: host.map { String(cString: $0) }, port: UInt16(bigEndian: port),
                        txt: txt)
                }, pointer)
        }
        // A resolve that cannot start leaves the instance unreported; a dead daemon also ends the browse itself.
        guard let ref else { return }
        ref.onProcessError = { [weak instance] _ in instance?.resolveRef = nil }
        instance.resolveRef = ref
        loop.add(ref)
    }

    private func resolveReply(
        _ instance: BrowsedInstance, error: DNSServiceErrorType, host: String?, port: UInt16,
        txt: [String: String]
    ) {
        guard error == kDNSServiceErr_NoError, let host else {
            if let ref = instance.resolveRef { loop.retire(ref) }
            instance.resolveRef = nil
            return
        }
        if host != instance.host {
            if let ref = instance.addressRef { loop.retire(ref) }
            instance.addressRef = nil
            instance.addresses = []
            instance.host = host
            startAddressQuery(instance, host: host)
        }
        instance.port = Int(port)
        instance.txt = txt
        emitIfReady(instance)
    }

    private func startAddressQuery(_ instance: BrowsedInstance, host: String) {
        let ref = try? ServiceRef.create(operation: "DNSServiceQueryRecord", context: instance) { out, pointer in
            DNSServiceQueryRecord(
                out, 0, 0, host, UInt16(kDNSServiceType_A), UInt16(kDNSServiceClass_IN),
                { _, flags, _, error, _, recordType, _, length, data, _, pointer in
                    guard let instance = ServiceRef.context(pointer, as: BrowsedInstance.self) else { return }
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
                    instance.session?.addressReply(instance, error: error, address: address, added: added)
                }, pointer)
        }
        guard let ref else { return }
        ref.onProcessError = { [weak instance] _ in instance?.addressRef = nil }
        instance.addressRef = ref
        loop.add(ref)
    }

    private func addressReply(_ instance: BrowsedInstance, error: DNSServiceErrorType, address: String?, added: Bool) {
        guard error == kDNSServiceErr_NoError else {
            if let ref = instance.addressRef { loop.retire(ref) }
            instance.addressRef = nil
            return
        }
        guard let address else { return }
        if added {
            instance.addresses.insert(address)
        } else {
            instance.addresses.remove(address)
        }
        emitIfReady(instance)
    }

    private func emitIfReady(_ instance: BrowsedInstance) {
        guard let host = instance.host, let port = instance.port, !instance.addresses.isEmpty else { return }
        let record = ServiceRecord(
            name: instance.name, type: trimDot(instance.type), domain: trimDot(instance.domain), host: trimDot(host),
            port: port, txt: instance.txt, addresses: instance.addresses.sorted())
        if instance.lastEmitted == nil {
            continuation.yield(.found(record))
        } else if instance.lastEmitted != record {
            continuation.yield(.updated(record))
        }
        instance.lastEmitted = record
    }

    private func trimDot(_ name: String) -> String {
        name.hasSuffix(".") ? String(name.dropLast()) : name
    }
}

/// One browsed instance; also the callback context of its resolve and address refs. Loop thread only.
final class BrowsedInstance {
    let name: String
    let type: String
    let domain: String
    /// Weak: the session owns its instances, and the refs (which retain this object) must not keep it alive.
    weak var session: BrowseSession?
    var interfaces: Set<UInt32> = []
    var resolveRef: ServiceRef?
    var addressRef: ServiceRef?
    var host: String?
    var port: Int?
    var txt: [String: String] = [:]
    var addresses: Set<String> = []
    var lastEmitted: ServiceRecord?

    init(name: String, type: String, domain: String, session: BrowseSession) {
        self.name = name
        self.type = type
        self.domain = domain
        self.session = session
    }
}
