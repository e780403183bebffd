import CDNSSD
import Foundation

/// Advertises one DNS-SD service instance (`DNSServiceRegister`) until `cancel()` or deinit.
///
/// ```swift
/// let ad = try ServiceAdvertiser(name: "alice", port: 7000, txt: ["id": nodeID, "v": "1", "u": "7001"])
/// let registeredName = try await ad.start()
/// try await ad.updateTXT(["id": nodeID, "v": "1", "u": "7002"])
/// ad.cancel()
/// ```
///
/// `@unchecked Sendable`: the mutable state shared between callers and the loop thread (`phase`, `txtBytes`,
/// `failure`, the pending start) is guarded by `lock`; `ref` is only touched on the loop thread.
public final class ServiceAdvertiser: @unchecked Sendable {
    /// The instance name asked for (the node name).
    public let requestedName: String
    /// Service type, e.g. "_tavolo._tcp".
    public let type: String
    /// TCP port advertised.
    public let port: Int
    /// Registration domain; nil means the default ("local").
    public let domain: String?
    /// When false (the default) a name already in use fails `start()` with `.nameConflict`; when true `start()`
    /// tries "alice #2", "alice #3", … (up to #`maxRenameAttempts`) and returns the name it got. (Avahi's compat
    /// layer never renames an explicitly named service itself and rejects `kDNSServiceFlagsNoAutoRename`.)
    public let allowRename: Bool

    private enum Phase { case idle, starting, registered, cancelled }

    private let lock = NSLock()
    private let onFailure: (@Sendable (DiscoveryError) -> Void)?
    private var phase = Phase.idle
    private var txtBytes: [UInt8]
    private var loop: DNSSDLoop?
    private var pendingStart: CheckedContinuation<String, Error>?
    private var startCancelled = false
    private var registeredName: String?
    private var lastFailure: DiscoveryError?
    /// Loop thread only.
    private var ref: ServiceRef?
    /// Loop thread only: the name of the current registration attempt.
    private var attemptName: String
    private var attempt = 1
    /// How many names `allowRename` tries before giving up with `.nameConflict`.
    public static let maxRenameAttempts = 20

    /// Validates the arguments and encodes the TXT record; nothing is sent until `start()`.
    /// - Parameter onFailure: called (on the discovery thread) if the registration fails after `start()`
    ///   succeeded, e.g. `.daemonNotRunning` when avahi-daemon stops; the service is no longer advertised then.
    public init(
        name: String, type: String = "_tavolo._tcp", port: Int, txt: [String: String] = [:], domain: String? = nil,
        allowRename: Bool = false, onFailure: (@Sendable (DiscoveryError) -> Void)? = nil
    ) throws(DiscoveryError) {
        guard !name.isEmpty, name.utf8.count <= 63 else {
            throw .invalidArgument("the instance name must be 1 to 63 bytes of UTF-8, got \"\(name)\"")
        }
        guard (1...65535).contains(port) else {
            throw .invalidArgument("port \(port) is not in 1...65535")
        }
        try validateServiceType(type)
        self.requestedName = name
        self.attemptName = name
        self.type = type
        self.port = port
        self.domain = domain
        self.allowRename = allowRename
        self.onFailure = onFailure
        self.txtBytes = try TXTRecord.encode(txt)
    }

    deinit {
        cancel()
    }

    /// The registered name once `start()` succeeded (it differs from `requestedName` only with `allowRename`).
    public var name: String? { lock.withLock { registeredName } }

    /// The error that ended the registration after it had succeeded, if any.
    public var failure: DiscoveryError? { lock.withLock { lastFailure } }

    /// Registers the service and waits for avahi-daemon to confirm it. Returns the registered name.
    /// Throws `.daemonNotRunning`, `.nameConflict`, `.timeout`, `.cancelled`, or `.serviceError`.
    /// On failure nothing stays registered. Call it once.
    public func start(timeout: Duration = .seconds(10)) async throws -> String {
        let loop: DNSSDLoop = try lock.withLock {
            guard phase == .idle else {
                throw DiscoveryError.invalidArgument("start() can be called once per advertiser; create a new one")
            }
            let loop = try DNSSDLoop(name: "tavolo-advertise")
            self.loop = loop
            phase = .starting
            return loop
        }
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
            self?.finishStart(.failure(.timeout(operation: "DNSServiceRegister", seconds: seconds)))
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, Error>) in
                let cancelledEarly = lock.withLock {
                    pendingStart = continuation
                    return startCancelled
                }
                if cancelledEarly {
                    finishStart(.failure(.cancelled))
                } else if !loop.perform({ [self] in register(on: loop) }) {
                    finishStart(.failure(.cancelled))
                }
            }
        } onCancel: {
            lock.withLock { startCancelled = true }
            finishStart(.failure(.cancelled))
        }
    }

    /// Replaces the TXT record (`DNSServiceUpdateRecord` on the primary TXT record).
    public func updateTXT(_ txt: [String: String]) async throws {
        let bytes = try TXTRecord.encode(txt)
        let loop: DNSSDLoop? = lock.withLock { phase == .registered ? self.loop : nil }
        guard let loop else { throw DiscoveryError.notRegistered }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            let posted = loop.perform { [self] in
                guard let raw = ref?.rawRef else {
                    continuation.resume(throwing: DiscoveryError.notRegistered)
                    return
                }
                let error = bytes.withUnsafeBytes { buffer in
                    DNSServiceUpdateRecord(raw, nil, 0, UInt16(buffer.count), buffer.baseAddress, 0)
                }
                if error == kDNSServiceErr_NoError {
                    lock.withLock { txtBytes = bytes }
                    continuation.resume()
                } else {
                    continuation.resume(throwing: DiscoveryError.from(code: error, operation: "DNSServiceUpdateRecord"))
                }
            }
            if !posted { continuation.resume(throwing: DiscoveryError.cancelled) }
        }
    }

    /// Withdraws the service: the loop thread stops and deallocates the ref (releasing its callback context).
    /// Idempotent; a pending `start()` throws `.cancelled`.
    public func cancel() {
        let (loop, pending) = lock.withLock {
            let taken = (self.loop, pendingStart)
            phase = .cancelled
            self.loop = nil
            pendingStart = nil
            return taken
        }
        pending?.resume(throwing: DiscoveryError.cancelled)
        loop?.stop()
    }

    // MARK: private

    private func finishStart(_ result: Result<String, DiscoveryError>) {
        let pending: CheckedContinuation<String, Error>? = lock.withLock {
            guard let pending = pendingStart else { return nil }
            pendingStart = nil
            if case .success(let name) = result {
                phase = .registered
                registeredName = name
            }
            return pending
        }
        guard let pending else { return }
        switch result {
        case .success(let name): pending.resume(returning: name)
        case .failure(let error):
            cancel()
            pending.resume(throwing: error)
        }
    }

    /// Loop thread.
    private func register(on loop: DNSSDLoop) {
        let flags: DNSServiceFlags = 0
        let context = AdvertiserContext(self)
        let txtBytes = lock.withLock { self.txtBytes }
        do {
            let ref = try ServiceRef.create(operation: "DNSServiceRegister", name: attemptName, context: context) {
                out, contextPointer in
                txtBytes.withUnsafeBytes { txt in
                    DNSServiceRegister(
                        out, flags, 0, attemptName, type, domain, nil, UInt16(port).bigEndian,
                        UInt16(txt.count), txt.baseAddress,
                        { _, _, error, name, _, _, contextPointer in
                            let context = ServiceRef.context(contextPointer, as: AdvertiserContext.self)
                            context?.advertiser?.registerReply(error: error, name: name.map { String(cString: $0) })
                        }, contextPointer)
                }
            }
            ref.onProcessError = { [weak self] error in
                self?.registerReply(error: error, name: nil)
            }
            self.ref = ref
            loop.add(ref)
        } catch {
            // Avahi reports a conflict with a local registration synchronously, a remote one in the callback.
            if retryWithNewName(after: error) { return }
            finishStart(.failure(error))
        }
    }

    /// Loop thread: with `allowRename`, answers a name conflict during `start()` by registering the next
    /// alternative name. Returns false when the failure is final.
    private func retryWithNewName(after failure: DiscoveryError) -> Bool {
        guard allowRename, failure == .nameConflict(name: attemptName), attempt < Self.maxRenameAttempts,
            let loop = lock.withLock({ pendingStart != nil ? self.loop : nil })
        else { return false }
        if let ref { loop.retire(ref) }
        ref = nil
        attempt += 1
        attemptName = Self.alternativeName(requestedName, attempt: attempt)
        register(on: loop)
        return true
    }

    /// Loop thread: the register callback.
    private func registerReply(error: DNSServiceErrorType, name: String?) {
        if error == kDNSServiceErr_NoError {
            let confirmed = name ?? attemptName
            let wasPending = lock.withLock { pendingStart != nil }
            if wasPending {
                finishStart(.success(confirmed))
            } else {
                lock.withLock { registeredName = confirmed }
            }
            return
        }
        let failure = DiscoveryError.from(code: error, operation: "DNSServiceRegister", name: attemptName)
        if retryWithNewName(after: failure) { return }
        let wasPending = lock.withLock { pendingStart != nil }
        if wasPending {
            finishStart(.failure(failure))
            return
        }
        let alreadyCancelled = lock.withLock {
            lastFailure = failure
            return phase == .cancelled
        }
        cancel()
        if !alreadyCancelled { onFailure?(failure) }
    }
}

extension ServiceAdvertiser {
    /// "alice #2": Avahi's convention, cut so the result fits the 63-byte label limit.
    static func alternativeName(_ name: String, attempt: Int) -> String {
        let suffix = " #\(attempt)"
        var base = Substring(name)
        while base.utf8.count + suffix.utf8.count > 63 { base = base.dropLast() }
        return base + suffix
    }
}

/// The callback context: weak, so dropping the advertiser withdraws the service (deinit cancels).
private final class AdvertiserContext {
    weak var advertiser: ServiceAdvertiser?
    init(_ advertiser: ServiceAdvertiser) { self.advertiser = advertiser }
}

/// Checks the "_name._tcp" / "_name._udp" shape before handing it to the daemon.
func validateServiceType(_ type: String) throws(DiscoveryError) {
    let parts = type.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].hasPrefix("_"), parts[0].count >= 2, parts[0].count <= 16,
        parts[1] == "_tcp" || parts[1] == "_udp"
    else {
        throw .invalidArgument("service type \"\(type)\" must look like \"_tavolo._tcp\"")
    }
}
