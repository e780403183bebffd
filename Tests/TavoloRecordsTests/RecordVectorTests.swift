import Foundation
import TavoloCore
import TavoloGames
import TavoloRecordFormat
import TavoloRecords
import TavoloTestSupport
import XCTest

/// `Protocol/vectors/records.json` (PROTOCOL.md §11): record ids, what a receiver accepts or refuses, bucket
/// digests and the bytes of every message type. The file is written by `Protocol/vectors/generate_record_vectors.py`
/// from the spec alone (its own Othello engine, the independent Briscola and Fifteen references); this replays it
/// with Tavolo's engines, which must reach every verdict.
final class RecordVectorTests: XCTestCase {
    static var file: URL {
        ProtocolVectors.url("records.json")
    }

    struct Vectors: Codable {
        struct Record: Codable {
            var name: String
            var id: String
            var body: String
            /// "accept", or the refusal a receiver must give (the start of `RecordVerifier`'s reason).
            var expect: String
        }
        struct Message: Codable {
            var name: String
            var json: String
        }
        struct Summary: Codable {
            var ids: [String]
            var buckets: [String]
        }
        var records: [Record]
        var summary: Summary
        var messages: [Message]
    }

    func testVectors() throws {
        let file = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: Self.file))
        XCTAssertEqual(file.records.filter { $0.name.hasPrefix("fifteen race") }.count, 4, "the race records (§11.1)")
        XCTAssertEqual(file.records.filter { $0.expect == "accept" }.count, 4, "no case lost its genuine records")
        let verifier = RecordVerifier(catalog: .standard)
        for r in file.records {
            switch verifier.verify(id: r.id, body: Array(r.body.utf8)) {
            case .success(let body):
                XCTAssertEqual(r.expect, "accept", r.name)
                // The body as this implementation writes it is byte for byte the generator's (§11.1).
                XCTAssertEqual(String(decoding: try CanonicalJSON.encode(body), as: UTF8.self), r.body, r.name)
            case .failure(let why): XCTAssertTrue(why.description.hasPrefix(r.expect), "\(r.name): \(why)")
            }
        }
        XCTAssertEqual(RecordStore.bucketDigests(of: file.summary.ids), file.summary.buckets)
        for m in file.messages {
            let decoded = try CanonicalJSON.decode(RecordMessage.self, Array(m.json.utf8))
            XCTAssertNil(decoded.limitProblem, m.name)
            XCTAssertEqual(String(decoding: try CanonicalJSON.encode(decoded), as: UTF8.self), m.json, m.name)
        }
    }
}
