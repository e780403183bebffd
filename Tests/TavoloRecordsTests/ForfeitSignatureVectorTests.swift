import Crypto
import Foundation
import TavoloCore
import TavoloRecords
import TavoloTable
import TavoloTestSupport
import XCTest

/// The forfeit statements and signatures of `record-signatures.json` (PROTOCOL.md §11.7), written by the independent
/// Python generator: the same statement bytes, the same signature from the same key, and every verdict.
final class ForfeitSignatureVectorTests: XCTestCase {
    struct Forfeit: Codable {
        var name: String
        var table: String
        var jointSeed: String
        var number: Int
        var statement: String
        var signature: SignatureObject
        var member: String
        var expect: String
    }
    struct Vectors: Codable {
        var forfeits: [Forfeit]
        var nodes: [RecordSignatureVectorTests.Vectors.Node]
    }

    func testStatementsSignaturesAndVerdicts() throws {
        let url = ProtocolVectors.url("record-signatures.json")
        let v = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
        XCTAssertEqual(v.forfeits.count, 3)
        for f in v.forfeits {
            let table = try XCTUnwrap(TableID(f.table))
            let seed = try XCTUnwrap(UInt64(f.jointSeed))
            XCTAssertEqual(
                SignatureObject.forfeitStatement(table: table, jointSeed: seed, number: f.number).hexString,
                f.statement,
                f.name)
            let problem = RecordSignature.forfeitProblem(
                f.signature, member: f.member, table: table, jointSeed: seed, number: f.number)
            XCTAssertEqual(problem == nil ? "counts" : "does not count", f.expect, "\(f.name): \(problem ?? "")")
            // The signer that made a counted one makes it again, byte for byte (Ed25519 is deterministic).
            guard f.expect == "counts", let n = v.nodes.first(where: { $0.node == f.signature.node }) else { continue }
            let identity = try Curve25519.KeyAgreement.PrivateKey(
                rawRepresentation: try XCTUnwrap([UInt8](hexString: n.x25519Private)))
            let signing = try Curve25519.Signing.PrivateKey(
                rawRepresentation: try XCTUnwrap([UInt8](hexString: n.signingSeed)))
            let signer = try XCTUnwrap(RecordSigner(identity: identity, signingKey: signing))
            XCTAssertEqual(signer.signForfeit(table: table, jointSeed: seed, number: f.number), f.signature, f.name)
        }
    }
}
