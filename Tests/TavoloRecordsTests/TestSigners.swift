// swift-format-ignore-file: NeverForceUnwrap, NeverUseForceTry

// (keys made from 32 literal bytes: they cannot fail)
import Crypto
import Foundation
import TavoloCore
import TavoloRecordFormat
import TavoloRecords

/// Test nodes with real keys (PROTOCOL.md §11.7). `RecordFactory` gives seat s the made-up node id s + 1; `signed`
/// gives made-up id n to test node n − 1 instead, and has every node the record names sign it, so a test's records
/// count as a real table's would.
enum TestSigners {
    static let all: [RecordSigner] = (0..<12).map { i in
        let identity = try! Curve25519.KeyAgreement.PrivateKey(
            rawRepresentation: [UInt8](repeating: UInt8(i + 1), count: 32))
        let signing = try! Curve25519.Signing.PrivateKey(
            rawRepresentation: [UInt8](repeating: UInt8(100 + i), count: 32))
        return RecordSigner(identity: identity, signingKey: signing)!
    }

    /// The test node standing for made-up node id `n` (1-based, as `RecordFactory` numbers them).
    static func node(_ n: Int) -> String { all[n - 1].node }

    static func mapped(_ node: String) -> String {
        guard let n = Int(node, radix: 16), (1...all.count).contains(n) else { return node }
        return self.node(n)
    }

    /// `record` with its made-up node ids replaced by test nodes', signed by every node it names except `unsigned`
    /// (made-up ids too).
    static func signed(_ record: RecordedGame, except unsigned: Set<Int> = []) throws -> SignedRecord {
        var b = try record.decodedBody()
        b.seats = b.seats.map { .init(seat: $0.seat, node: mapped($0.node), name: $0.name, bot: $0.bot) }
        b.takeovers = b.takeovers?.map {
            .init(
                member: mapped($0.member), name: $0.name, seats: $0.seats, heir: mapped($0.heir), bot: $0.bot,
                number: $0.number, appliedAt: $0.appliedAt, forfeit: $0.forfeit, signature: $0.signature)
        }
        let game = RecordedGame(body: try CanonicalJSON.encode(b), startedAt: record.startedAt, endedAt: record.endedAt)
        let skipped = Set(unsigned.map(node))
        let nodes = Set(b.seats.map(\.node) + (b.takeovers ?? []).map(\.member)).subtracting(skipped)
        let signatures = all.filter { nodes.contains($0.node) }.compactMap { $0.sign(recordID: game.id) }
        return SignedRecord(game, b, signatures: signatures)
    }
}
