import CDNSSD
import Foundation

/// Browses for `type` (e.g. "_tavolo._tcp") and reports instances as they appear, change and go.
///
/// Each instance seen by `DNSServiceBrowse` is resolved (`DNSServiceResolve`) to host, port and TXT, and each host
/// to its IPv4 addresses (`DNSServiceQueryRecord` for the A record, one query per host name shared by every
/// instance on that host); `.found` is emitted once all of these are known. A resolve keeps running, so TXT changes
/// are reported, until `release(name:)` says its answer has been used; `refresh(name:)` resolves again. Failed or
/// unanswered resolves are retried with exponential backoff, and at most `maxConcurrentResolves` instances are
/// being resolved at once: with Avahi's compatibility library every dns_sd operation is a D-Bus connection of its
/// own, and dozens of nodes on one host each resolving every other at once swamp the system bus.
///
/// Ending the iteration of `events`, or `cancel()`, stops the discovery thread and deallocates every ref. The
/// stream throws `DiscoveryError.daemonNotRunning` if avahi-daemon is not running or stops.
public final class ServiceBrowser: Sendable {
    /// What the browse reports; iterate it once.
    public let events: AsyncThrowingStream<DiscoveryEvent, Error>
    private let loop: DNSSDLoop?
    private let session: BrowseSession?

    /// Starts browsing at once (on its own thread).
    /// - Parameters:
    ///   - maxConcurrentResolves: how many instances may be being resolved at once.
    ///   - keepResolving: true keeps each resolve running after its answer, so TXT and port changes are reported
    ///     as `.updated` until `release(name:)`; false stops it as soon as the instance is reported (call
    ///     `refresh(name:)` when it may have changed), which keeps the daemon's load flat with many peers.
    public init(
        type: String = "_tavolo._tcp", domain: String? = nil, maxConcurrentResolves: Int = 4,
        keepResolving: Bool = true
    ) {
        let (stream, continuation) = AsyncThrowingStream<DiscoveryEvent, Error>.makeStream()
        events = stream
        do {
            try validateServiceType(type)
            // The stream always ends when the loop does; after a normal finish this is a no-op.
            let loop = try DNSSDLoop(name: "tavolo-browse") { error in
                if let error { continuation.finish(throwing: error) } else { continuation.finish() }
            }
            let session = BrowseSession(
                type: type, domain: domain, loop: loop, continuation: continuation,
                maxConcurrentResolves: max(1, maxConcurrentResolves), keepResolving: keepResolving)
            continuation.onTermination = { _ in loop.stop() }
            loop.perform { session.start() }
            self.loop = loop
            self.session = session
        } catch {
            continuation.finish(throwing: error)
            loop = nil
            session = nil
        }
    }

    /// The instance's answer has been used, or is not needed (e.g. its node is connected): stop resolving it, or
    /// do not start (also for an instance the browse has not seen yet). Its removal is still reported if it was
    /// found; call `refresh(name:)` to resolve it again.
    public func release(name: String) {
        guard let session else { return }
        loop?.perform { session.release(name) }
    }

    /// Resolves the instance again (e.g. its node was lost and may have come back on another port) and keeps
    /// resolving it until `release(name:)`: reports `.updated` if anything changed. No effect on an instance not
    /// currently browsed.
    public func refresh(name: String) {
        guard let session else { return }
        loop?.perform { session.refresh(name) }
    }

    /// Stops browsing; the stream finishes.
    public func cancel() { loop?.stop() }
}

/// Browses for `type`; see `ServiceBrowser` (the stream of a browser whose resolves are never released).
public func browse(type: String = "_tavolo._tcp", domain: String? = nil) -> AsyncThrowingStream<DiscoveryEvent, Error> {
    ServiceBrowser(type: type, domain: domain).events
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
    let maxConcurrentResolves: Int
    let keepResolving: Bool
    /// A resolve with no answer by then is abandoned and retried.
    static let resolveTimeout = Duration.seconds(5)
    /// Retry delays double from the first to the last.
    static let firstRetry = Duration.milliseconds(250)
    static let lastRetry = Duration.seconds(20)

    private var browseRef: ServiceRef?
    var instances: [String: BrowsedInstance] = [:]
    /// Instances waiting for a resolve slot, in arrival order.
    private var queue: [BrowsedInstance] = []
    /// Instances whose resolve has started and not yet answered.
    private var resolving = 0
    /// One address query per host name, shared by the instances on that host.
    var hosts: [String: HostQuery] = [:]
    /// Names released before the browse saw them: not resolved when they appear, until `refresh`.
    private var released: Set<String> = []

    init(
        type: String, domain: String?, loop: DNSSDLoop,
        continuation: AsyncThrowingStream<DiscoveryEvent, Error>.Continuation, maxConcurrentResolves: Int,
        keepResolving: Bool
    ) {
        self.keepResolving = keepResolving
        self.type = type
        self.domain = domain
        self.loop = loop
        self.continuation = continuation
        self.maxConcurrentResolves = maxConcurrentResolves
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
                if released.contains(name) {
                    instance.wanted = false
                } else {
                    enqueue(instance)
                }
            }
        } else if let instance = instances[name] {
            instance.interfaces.remove(interface)
            guard instance.interfaces.isEmpty else { return }
            instances[name] = nil
            instance.gone = true
            stopResolve(instance)
            queue.removeAll { $0 === instance }
            if let host = instance.host { detach(instance, from: host) }
            if instance.lastEmitted != nil { continuation.yield(.removed(name: name)) }
        }
    }

    // MARK: release and refresh

    func release(_ name: String) {
        guard let instance = instances[name] else {
            released.insert(name)
            return
        }
        instance.wanted = false
        instance.followChanges = false
        queue.removeAll { $0 === instance }
        if instance.resolveRef != nil { stopResolve(instance) }
    }

    func refresh(_ name: String) {
        released.remove(name)
        guard let instance = instances[name] else { return }
        instance.wanted = true
        // Its first answer may be a stale record (a node restarted on another port): follow changes until release.
        instance.followChanges = true
        instance.failures = 0
        if instance.resolveRef == nil && !queue.contains(where: { $0 === instance }) && !instance.retryPending {
            enqueue(instance)
        }
    }

    // MARK: resolving, a few at a time

    private func enqueue(_ instance: BrowsedInstance) {
        queue.append(instance)
        pump()
    }

    private func pump() {
        while resolving < maxConcurrentResolves, !queue.isEmpty {
            startResolve(queue.removeFirst())
        }
    }

    private func stopResolve(_ instance: BrowsedInstance) {
        if let ref = instance.resolveRef { loop.retire(ref) }
        instance.resolveRef = nil
        instance.attempt += 1  // a pending time limit of the old attempt no longer applies
        if instance.answerPending {
            instance.answerPending = false
            resolving -= 1
            pump()
        }
    }

    /// Abandons the current attempt and tries again after a growing delay.
    private func retry(_ instance: BrowsedInstance) {
        stopResolve(instance)
        guard !instance.gone, instance.wanted, !instance.retryPending else { return }
        instance.failures += 1
        let exponent = min(instance.failures - 1, 16)
        var delay = Self.firstRetry * (1 << exponent)
        if delay > Self.lastRetry { delay = Self.lastRetry }
        // Up to a quarter more, so nodes that failed together do not retry together.
        delay += delay * Double.random(in: 0...0.25)
        instance.retryPending = true
        loop.schedule(after: delay) { [weak self, weak instance] in
            guard let self, let instance else { return }
            instance.retryPending = false
            guard !instance.gone, instance.wanted, instance.resolveRef == nil else { return }
            self.enqueue(instance)
        }
    }

    private func startResolve(_ instance: BrowsedInstance) {
        guard !instance.gone, instance.resolveRef == nil else { return }
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
        resolving += 1
        instance.answerPending = true
        guard let ref else {
            // The daemon refused (overloaded, restarting): try again later; a dead daemon also ends the browse.
            return retry(instance)
        }
        ref.onProcessError = { [weak self, weak instance] _ in
            guard let self, let instance, instance.resolveRef === ref else { return }
            instance.resolveRef = nil
            self.retry(instance)
        }
        instance.resolveRef = ref
        loop.add(ref)
        let attempt = instance.attempt
        loop.schedule(after: Self.resolveTimeout) { [weak self, weak instance] in
            guard let self, let instance, instance.attempt == attempt, instance.answerPending else { return }
            self.retry(instance)
        }
    }

    private func resolveReply(
        _ instance: BrowsedInstance, error: DNSServiceErrorType, host: String?, port: UInt16,
        txt: [String: String]
    ) {
        guard error == kDNSServiceErr_NoError, let host else { return retry(instance) }
        instance.failures = 0
        if instance.answerPending {
            instance.answerPending = false
            resolving -= 1
        }
        if host != instance.host {
            if let old = instance.host { detach(instance, from: old) }
            instance.host = host
            attach(instance, to: host)
        }
        instance.port = Int(port)
        instance.txt = txt
        if !instance.wanted || !(keepResolving || instance.followChanges) { stopResolve(instance) }
        emitIfReady(instance)
        pump()
    }
}
