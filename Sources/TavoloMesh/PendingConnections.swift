/// Bounds what accepted connections may cost before their handshake is accepted (PROTOCOL.md §3.4): at most
/// `perAddress` of them from one IP address, and at most `totalBytes` received on all of them together, the
/// oldest cut first when that budget is exceeded. Pure: the node reports connections and bytes, and cuts what it
/// is told to. Once a connection's handshake is accepted it no longer counts.
///
/// Bytes received before the handshake is accepted are an upper bound on what such a connection makes the node
/// buffer (the first frame may be at most `FrameLimits.maxHandshakePayload`), so that is what is counted.
struct PendingConnections: Sendable {
    struct Limits: Sendable {
        var perAddress = 32
        var totalBytes = 1 << 20
    }

    /// Identifies a pending connection; larger numbers are younger.
    typealias Number = Int

    let limits: Limits
    private var entries: [Number: (address: String, bytes: Int)] = [:]
    private var nextNumber: Number = 0
    private(set) var totalBytes = 0

    init(limits: Limits = Limits()) { self.limits = limits }

    var count: Int { entries.count }

    /// A connection from `address` was accepted: its number, or nil if that address already has `perAddress`
    /// pending connections (the new one is then refused).
    mutating func opened(from address: String) -> Number? {
        guard entries.values.lazy.filter({ $0.address == address }).count < limits.perAddress else { return nil }
        nextNumber += 1
        entries[nextNumber] = (address, 0)
        return nextNumber
    }

    /// `bytes` arrived on pending connection `n`. Returns the connections to cut, oldest first, to bring the total
    /// back within the budget (they are forgotten here at once); possibly `n` itself.
    mutating func received(_ bytes: Int, on n: Number) -> [Number] {
        guard let entry = entries[n] else { return [] }
        entries[n] = (entry.address, entry.bytes + bytes)
        totalBytes += bytes
        var cut: [Number] = []
        while totalBytes > limits.totalBytes, let oldest = entries.keys.min() {
            finished(oldest)
            cut.append(oldest)
        }
        return cut
    }

    /// Its handshake was accepted, or it closed: it no longer counts.
    mutating func finished(_ n: Number) {
        guard let entry = entries.removeValue(forKey: n) else { return }
        totalBytes -= entry.bytes
    }
}
