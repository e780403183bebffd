import Foundation
import TavoloCore
import TavoloRecordFormat

/// The application messages of PROTOCOL.md §11.3, on the reliable channel.
public enum RecordMessage: Codable, Sendable, Equatable {
    /// What the sender holds: 256 bucket digests (§11.2).
    case summary(count: Int, buckets: [String])
    /// Every id the sender holds in one bucket whose digest differed, ascending.
    case ids(bucket: Int, ids: [String])
    /// Records the receiver lacks.
    case data([WireRecord])
    /// The receiver of a `records.data` processed it: the sender may send the next one. `refusedIDs`: the records
    /// it checked and refused, which the sender does not offer it again (absent on the wire when none).
    case ack(accepted: Int, refused: Int, refusedIDs: [String] = [])
    /// Members' signatures of one record (§11.7), sent by a member to the others when their game ends.
    case signatures(id: String, signatures: [RecordSignature])

    public struct WireRecord: Codable, Sendable, Equatable {
        public var id: String
        /// The body: canonical JSON text (§11.1), carried as a JSON string so its bytes, and so its id, survive.
        public var body: String
        public var startedAt: Int64?
        public var endedAt: Int64
        /// The members' signatures (§11.7); absent from a node older than signatures, whose records are refused.
        public var signatures: [RecordSignature]?

        public init(_ r: RecordedGame, signatures: [RecordSignature] = []) {
            id = r.id
            body = String(decoding: r.body, as: UTF8.self)
            startedAt = r.startedAt
            endedAt = r.endedAt
            self.signatures = signatures.isEmpty ? nil : signatures
        }
    }

    enum Key: String, CodingKey {
        case type, count, buckets, bucket, ids, records, accepted, refused, refusedIds, id, signatures
    }

    public var typeName: String {
        switch self {
        case .summary: "records.summary"
        case .ids: "records.ids"
        case .data: "records.data"
        case .ack: "records.ack"
        case .signatures: "records.signatures"
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        switch try c.decode(String.self, forKey: .type) {
        case "records.summary":
            self = .summary(
                count: try c.decode(Int.self, forKey: .count), buckets: try c.decode([String].self, forKey: .buckets))
        case "records.ids":
            self = .ids(bucket: try c.decode(Int.self, forKey: .bucket), ids: try c.decode([String].self, forKey: .ids))
        case "records.data": self = .data(try c.decode([WireRecord].self, forKey: .records))
        case "records.ack":
            self = .ack(
                accepted: try c.decode(Int.self, forKey: .accepted), refused: try c.decode(Int.self, forKey: .refused),
                refusedIDs: try c.decodeIfPresent([String].self, forKey: .refusedIds) ?? [])
        case "records.signatures":
            self = .signatures(
                id: try c.decode(String.self, forKey: .id),
                signatures: try c.decode([RecordSignature].self, forKey: .signatures))
        case let t:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c, debugDescription: "not a records message: \(t)")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(typeName, forKey: .type)
        switch self {
        case .summary(let count, let buckets):
            try c.encode(count, forKey: .count)
            try c.encode(buckets, forKey: .buckets)
        case .ids(let bucket, let ids):
            try c.encode(bucket, forKey: .bucket)
            try c.encode(ids, forKey: .ids)
        case .data(let records): try c.encode(records, forKey: .records)
        case .ack(let accepted, let refused, let refusedIDs):
            try c.encode(accepted, forKey: .accepted)
            try c.encode(refused, forKey: .refused)
            if !refusedIDs.isEmpty { try c.encode(refusedIDs, forKey: .refusedIds) }
        case .signatures(let id, let signatures):
            try c.encode(id, forKey: .id)
            try c.encode(signatures, forKey: .signatures)
        }
    }

    /// Checks the limits of §11.3 on a decoded message; nil when it holds.
    public var limitProblem: String? {
        switch self {
        case .summary(let count, let buckets):
            guard count >= 0, buckets.count == RecordLimits.bucketCount else { return "summary: 256 buckets" }
            guard buckets.allSatisfy({ $0.isEmpty || ($0.utf8.count == 16 && RecordLimits.isLowerHex($0)) }) else {
                return "summary: a bucket digest is not \"\" or 16 hex digits"
            }
        case .ids(let bucket, let ids):
            guard (0..<RecordLimits.bucketCount).contains(bucket) else { return "ids: bucket out of range" }
            guard ids.count <= RecordLimits.maxIDsPerMessage else { return "ids: more than 1024" }
            let prefix = String(format: "%02x", bucket)
            guard ids.allSatisfy({ RecordLimits.isRecordID($0) && $0.hasPrefix(prefix) }) else {
                return "ids: an id is not 64 hex digits of this bucket"
            }
        case .data(let records):
            guard records.count <= RecordLimits.maxRecordsPerMessage else { return "data: more than 32 records" }
            guard records.allSatisfy({ ($0.signatures?.count ?? 0) <= RecordLimits.maxSignatures }) else {
                return "data: a record with more than 8 signatures"
            }
        case .signatures(let id, let signatures):
            guard RecordLimits.isRecordID(id), (1...RecordLimits.maxSignatures).contains(signatures.count) else {
                return "signatures: 1 to 8 signatures of one record id"
            }
        case .ack(let a, let r, let ids):
            guard a >= 0, r >= 0 else { return "ack: negative" }
            guard ids.count <= RecordLimits.maxRecordsPerMessage, ids.allSatisfy(RecordLimits.isRecordID) else {
                return "ack: refusedIds are at most 32 record ids"
            }
        }
        return nil
    }
}
