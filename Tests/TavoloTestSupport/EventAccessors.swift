import TavoloCore
import TavoloTable

/// Short reads of typed events, for assertions.
extension TableEvent {
    /// The stop or rejection code.
    public var code: String? {
        switch detail {
        case .rejected(_, let c, _): c.rawValue
        case .stopped(let c, _): c.rawValue
        default: nil
        }
    }

    /// The state hash a seeded, moved or finished event reports.
    public var stateHash: String? {
        switch detail {
        case .seeded(let h), .moved(_, _, _, let h, _): h.hex
        case .finished(let r): r.finalHash.hex
        default: nil
        }
    }

    public var result: TableResult? {
        if case .finished(let r) = detail { return r }
        return nil
    }
}

public enum JointSeedVector {
    /// SHA-256("tavolo/joint-seed/v1" ‖ 0xAA×32 ‖ 0xBB×32), first 8 bytes big-endian, from Python's hashlib.
    public static let seedAB: UInt64 = 15_189_132_647_386_337_599
}
