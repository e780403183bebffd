import Foundation
import Logging
import TavoloCore
import TavoloProtocol
import XCTest

@testable import TavoloRecords

/// The disk's shares of §11.3 step 5: records kept per peer, per address and from all peers. Fresh keys on one
/// address share the address's room, which a restart does not give back; another address still has room.
final class RecordSyncKeptShareTests: XCTestCase {
    var dir: String!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A receiving sync on `store` with small shares; it sends nothing anywhere.
    func sync(_ store: RecordStore) -> RecordSync {
        var logger = Logger(label: "test.kept")
        logger.logLevel = .error
        var limits = RecordQuotas.Limits()
        (limits.storedPerPeer, limits.storedPerAddress, limits.storedFromPeers) = (2, 3, 100)
        return RecordSync(
            store: store, verifier: RecordVerifier(catalog: .standard), limits: limits, logger: logger
        ) { _, _ in }
    }

    /// A fresh key (a node id nobody else uses).
    func key(_ n: Int) -> NodeID { NodeID(hex: "f" + String(repeating: "0", count: 27) + String(format: "%04x", n))! }

    func testKeysOnOneAddressShareItsRoomAcrossARestartAndAnotherAddressKeepsItsOwn() async throws {
        let signed = try (20..<30).map {
            try TestSigners.signed(
                RecordFactory.playout(catalog: .standard, game: "othello", players: 2, seed: UInt64($0), bot: "random"))
        }
        let wire = signed.map { RecordMessage.WireRecord($0.game, signatures: $0.signatures) }
        let path = dir + "/r.sqlite"
        var store = try RecordStore(path: path, me: key(999).hex)
        var s = sync(store)
        for k in 1...3 { await s.peerConnected(key(k), address: "10.0.0.9:\(4000 + k)") }
        await s.dataArrived(Array(wire[0..<2]), from: key(1))
        await s.dataArrived(Array(wire[2..<4]), from: key(2))
        XCTAssertEqual(store.receivedCount(fromAddress: "10.0.0.9"), 3, "the second key got the address's last room")
        await s.dataArrived(Array(wire[4..<6]), from: key(3))
        XCTAssertEqual(store.receivedCount(fromAddress: "10.0.0.9"), 3, "a third key: no room left on its address")
        try store.close()

        store = try RecordStore(path: path, me: key(999).hex)
        s = sync(store)
        await s.peerConnected(key(4), address: "10.0.0.9:4100")
        await s.peerConnected(key(5), address: "10.0.0.8:4100")
        await s.dataArrived(Array(wire[6..<8]), from: key(4))
        XCTAssertEqual(store.receivedCount(fromAddress: "10.0.0.9"), 3, "a restart gives a fresh key no more room")
        await s.dataArrived(Array(wire[8..<10]), from: key(5))
        XCTAssertEqual(store.receivedCount(fromAddress: "10.0.0.8"), 2, "another address has its own room")
        XCTAssertEqual(store.receivedCount(from: nil), 5)
        let stats = await s.stats
        XCTAssertEqual(stats.refused, 0, "put off, not refused")
        try store.close()
    }
}
