import CDNSSD
import Foundation

/// Must be evaluated before the first dns_sd call: silences Avahi's "this program uses the Apple Bonjour
/// compatibility layer" warning on stderr, and gives Avahi a zeroing allocator before it allocates anything
/// (shim.h says why: without it a resolve or query ref crashes the process when avahi-daemon restarts).
/// A global `let` is initialised once, thread-safely.
let dnssdPrepared: Bool = {
    setenv("AVAHI_COMPAT_NOWARN", "1", 1)
    tavolo_avahi_zero_new_memory()
    return true
}()

/// Owns one `DNSServiceRef` and its callback context.
///
/// The context object is retained (`Unmanaged.passRetained`) when the ref is created, because dns_sd keeps only a
/// raw pointer to it, and released exactly once in `deallocate()`, after `DNSServiceRefDeallocate` has
/// guaranteed that no callback can run any more. Confined to the thread of the `DNSSDLoop` that owns it, which is
/// also the only thread that calls `DNSServiceProcessResult`, so a ref is never deallocated while another thread
/// is processing it.
final class ServiceRef {
    private let raw: DNSServiceRef
    private var context: Unmanaged<AnyObject>?
    /// Called on the loop thread when `DNSServiceProcessResult` fails; the loop then retires the ref.
    var onProcessError: ((DNSServiceErrorType) -> Void)?

    private init(raw: DNSServiceRef, context: Unmanaged<AnyObject>) {
        self.raw = raw
        self.context = context
    }

    /// Creates a ref: `start` receives the out-pointer and the opaque context pointer and calls a
    /// `DNSService…` function. On failure the context is released again and the error thrown.
    static func create(
        operation: String,
        name: String = "",
        context: AnyObject,
        _ start: (UnsafeMutablePointer<DNSServiceRef?>, UnsafeMutableRawPointer) -> DNSServiceErrorType
    ) throws(DiscoveryError) -> ServiceRef {
        precondition(dnssdPrepared)
        let unmanaged = Unmanaged.passRetained(context)
        var ref: DNSServiceRef?
        let error = start(&ref, unmanaged.toOpaque())
        guard error == kDNSServiceErr_NoError, let ref else {
            unmanaged.release()
            throw DiscoveryError.from(code: error, operation: operation, name: name)
        }
        liveRefs.increment()
        return ServiceRef(raw: ref, context: unmanaged)
    }

    /// Number of refs created and not yet deallocated (each holds one retain on its context); for tests.
    static let liveRefs = Counter()

    var isDeallocated: Bool { context == nil }

    /// The ref, for calls such as `DNSServiceUpdateRecord`; only valid until `deallocate()`.
    var rawRef: DNSServiceRef? { isDeallocated ? nil : raw }

    var socket: Int32 { isDeallocated ? -1 : DNSServiceRefSockFD(raw) }

    func processResult() -> DNSServiceErrorType {
        guard !isDeallocated else { return DNSServiceErrorType(kDNSServiceErr_BadReference) }
        return DNSServiceProcessResult(raw)
    }

    /// Deallocates the ref, then releases the context. Idempotent.
    func deallocate() {
        guard let context else { return }
        DNSServiceRefDeallocate(raw)
        self.context = nil
        onProcessError = nil
        context.release()
        Self.liveRefs.decrement()
    }

    deinit {
        // The loop deallocates every ref it owns before dropping it; this is only a safety net.
        deallocate()
    }

    /// Recovers the context object inside a C callback.
    static func context<T: AnyObject>(_ pointer: UnsafeMutableRawPointer?, as type: T.Type) -> T? {
        guard let pointer else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? T
    }
}
