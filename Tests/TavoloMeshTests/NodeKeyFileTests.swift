import Foundation
import TavoloProtocol
import XCTest

@testable import TavoloMesh

/// The node key in the state directory: created once (0600), the id derived from it, kept across restarts, a
/// corrupt file refused, a v1 random id replaced once.
final class NodeKeyFileTests: XCTestCase {
    var dir = ""

    override func setUp() {
        dir = NSTemporaryDirectory() + "tavolo-key-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func testCreatedOnceWithMode0600AndTheSameIdAfterARestart() throws {
        let first = try NodeKeyFile.loadOrCreate(stateDirectory: dir)
        XCTAssertTrue(first.created)
        XCTAssertNil(first.migratedFrom)
        XCTAssertEqual(first.id, NodeID.derived(from: first.key.publicKey))
        let path = dir + "/node-key"
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        let again = try NodeKeyFile.loadOrCreate(stateDirectory: dir)
        XCTAssertFalse(again.created)
        XCTAssertEqual(again.id, first.id)
    }

    func testACorruptKeyFileIsAnErrorNotANewIdentity() throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for bad in ["", "xyz", String(repeating: "a", count: 63), String(repeating: "A", count: 64)] {
            try Data(bad.utf8).write(to: URL(fileURLWithPath: dir + "/node-key"))
            XCTAssertThrowsError(try NodeKeyFile.loadOrCreate(stateDirectory: dir), bad) { error in
                XCTAssertTrue("\(error)".contains("does not hold a node key"), "\(error)")
            }
            XCTAssertEqual(try String(contentsOfFile: dir + "/node-key", encoding: .utf8), bad, "left as it was")
        }
    }

    func testAV1RandomIdIsReplacedOnceAndSaidSo() throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let old = NodeID.random()
        try Data((old.hex + "\n").utf8).write(to: URL(fileURLWithPath: dir + "/node-id"))
        let migrated = try NodeKeyFile.loadOrCreate(stateDirectory: dir)
        XCTAssertEqual(migrated.migratedFrom, old)
        XCTAssertNotEqual(migrated.id, old)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/node-id"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/node-id.v1"))
        let next = try NodeKeyFile.loadOrCreate(stateDirectory: dir)
        XCTAssertNil(next.migratedFrom)
        XCTAssertEqual(next.id, migrated.id)
    }
}
