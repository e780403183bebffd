import Crypto
import Foundation
import TavoloCore
import TavoloGames
import TavoloRecordFormat
import TavoloRecords
import TavoloTestSupport
import XCTest

/// `Protocol/vectors/record-signatures.json` (PROTOCOL.md §11.7), written by the independent Python generator: this
/// node's signer must make the same Edwards keys, bindings and signatures byte for byte, and the verifier must
/// reach every verdict.
final class RecordSignatureVectorTests: XCTestCase {
    struct Vectors: Codable {
        struct Node: Codable {
            var x25519Private: String
            var identity: String
            var node: String
            var identityEd: String
            var signingSeed: String
            var key: String
            var binding: String
        }
        struct Record: Codable {
            var name: String
            var body: String
            var id: String
            var signatures: [RecordSignature]
            var expect: String
        }
        struct Message: Codable {
            var name: String
            var json: String
        }
        var nodes: [Node]
        var records: [Record]
        var messages: [Message]
    }

    func vectors() throws -> Vectors {
        let url = ProtocolVectors.url("record-signatures.json")
        return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
    }

    func signer(_ n: Vectors.Node) throws -> RecordSigner {
        let identity = try Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: try XCTUnwrap([UInt8](hexString: n.x25519Private)))
        let signing = try Curve25519.Signing.PrivateKey(
            rawRepresentation: try XCTUnwrap([UInt8](hexString: n.signingSeed)))
        return try XCTUnwrap(RecordSigner(identity: identity, signingKey: signing))
    }

    func testTheSignerMakesTheGeneratorsKeysBindingsAndSignatures() throws {
        let v = try vectors()
        let accepted = try XCTUnwrap(v.records.first { $0.expect == "accept" })
        for n in v.nodes {
            let made = try XCTUnwrap(try signer(n).sign(recordID: accepted.id))
            XCTAssertEqual(made.node, n.node)
            XCTAssertEqual(made.identity, n.identity)
            XCTAssertEqual(made.identityEd, n.identityEd, "the Edwards form of the identity key")
            XCTAssertEqual(made.key, n.key)
            XCTAssertEqual(made.binding, n.binding, "the identity key's binding of the signing key")
            XCTAssertEqual(made, accepted.signatures.first { $0.node == n.node }, "the record signature")
        }
    }

    func testEveryVerdict() throws {
        let verifier = RecordVerifier(catalog: .standard)
        let records = try vectors().records
        XCTAssertEqual(records.count, 13)
        XCTAssertTrue(
            records.contains {
                $0.name == "bots alone naming bruno at a bot's seat he never signed" && $0.expect == "unsigned"
            },
            "every seat owner signs, bots' owners too (§11.4 step 7)")
        for r in records {
            switch verifier.verify(id: r.id, body: Array(r.body.utf8), signatures: r.signatures) {
            case .success(let signed):
                XCTAssertEqual(r.expect, "accept", r.name)
                XCTAssertTrue(signed.isSigned, r.name)
            case .failure(let why):
                XCTAssertTrue(why.description.hasPrefix(r.expect), "\(r.name): \(why)")
            }
        }
    }

    /// The generator's messages decode, and this implementation writes them byte for byte as it does (§11.3).
    func testMessagesWithSignaturesAreTheGeneratorsBytes() throws {
        let v = try vectors()
        XCTAssertEqual(v.messages.count, 2)
        for m in v.messages {
            let decoded = try CanonicalJSON.decode(RecordMessage.self, Array(m.json.utf8))
            XCTAssertNil(decoded.limitProblem, m.name)
            XCTAssertEqual(String(decoding: try CanonicalJSON.encode(decoded), as: UTF8.self), m.json, m.name)
        }
    }
}
