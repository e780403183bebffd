import Foundation
import TavoloControl
import TavoloCore
import TavoloDaemon
import TavoloProtocol
import TavoloTestSupport
import XCTest

/// Issue 30: faults said plainly, state that stays bounded. A state directory `tavolod` cannot write is one line
/// naming it and what to do (not a database error advising `--rebuild-records`); temporary files a crash left are
/// removed at start; a peer of another version is told the version this node speaks.
final class StateFaultIntegrationTests: DaemonTestCase {

    /// A directory this process cannot write: mode 0555 for a user, a read-only tmpfs for root (which ignores
    /// modes); nil when neither can be had here.
    func readOnlyDirectory() throws -> String? {
        let dir = harness.root.appendingPathComponent("read-only").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        if getuid() != 0 {
            chmod(dir, 0o555)
            return dir
        }
        let mount = try runProcess("/bin/mount", ["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", dir])
        guard mount.status == 0 else { return nil }
        addTeardownBlock { _ = try? runProcess("/bin/umount", [dir]) }
        return dir
    }

    func testAReadOnlyStateDirectoryIsOneLineNamingItAndWhatToDo() throws {
        guard let dir = try readOnlyDirectory() else { throw XCTSkip("no read-only directory can be made here") }
        let sock = harness.root.appendingPathComponent("ro.sock").path
        for state in [dir, dir + "/state"] {
            let run = runTavolod(["--state-dir", state, "--name", harness.name(0) + "ro", "--control", sock])
            XCTAssertEqual(run.status, 1, run.stderr)
            let lines = run.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains(state), run.stderr)
            XCTAssertTrue(run.stderr.contains("--state-dir"), run.stderr)
            XCTAssertFalse(run.stderr.contains("--rebuild-records"), "advice that does not apply: \(run.stderr)")
        }
    }

    func testTemporaryFilesAnEarlierRunLeftAreRemovedAtStart() throws {
        try harness.start(1)
        try harness.eventually("the node answers", seconds: 30) { (try? harness.status(0)) != nil }
        harness.kill9(0)
        let state = harness.nodes[0].stateDir
        try FileManager.default.createDirectory(atPath: state + "/games", withIntermediateDirectories: true)
        let leftovers = [state + "/known-peers.json.tmp", state + "/games/abc-1.json.tmp", state + "/node-key.tmp"]
        for path in leftovers { try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: path)) }
        try harness.restart(0)
        try harness.eventually("the node answers again", seconds: 30) { (try? harness.status(0)) != nil }
        for path in leftovers { XCTAssertFalse(FileManager.default.fileExists(atPath: path), path) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: state + "/node-key"), "the key itself stays")
    }

    func testAPeerOfAnotherVersionIsToldTheVersionThisNodeSpeaks() throws {
        try harness.start(1)
        try harness.eventually("the node answers", seconds: 30) { (try? harness.status(0)) != nil }
        for version: UInt8 in [1, 2] {
            let raw = try RawPeer(port: try harness.status(0).tcpPort)
            let body = Array(#"{"type":"handshake"}"#.utf8)
            raw.send([0x54, 0x56, version, 1, 0, 0, 0, 0, 0, UInt8(body.count)] + body)
            let goodbye = try raw.readGoodbye()
            XCTAssertEqual(goodbye.code, .versionMismatch)
            XCTAssertTrue(
                goodbye.reason.contains("this node speaks \(ProtocolVersion.network)"), "\(goodbye)")
        }
    }

    /// Identity churn (every key a new name) keeps the book at `KnownPeers.limit` names, forgetting the longest
    /// unseen first: a friend seen lately stays, one not seen for the longest goes.
    func testTheKnownPeersBookIsBoundedAndForgetsTheLongestUnseenFirst() {
        var book = KnownPeers()
        let hour: Int64 = 3_600_000
        XCTAssertEqual(book.observe(name: "old friend", id: NodeID.random(), now: 0), .new)
        let friend = NodeID.random()
        XCTAssertEqual(book.observe(name: "friend", id: friend, now: 1), .new)
        for n in 0..<2_500 {
            if n == 900 { XCTAssertEqual(book.observe(name: "friend", id: friend, now: 10 * hour), .trusted) }
            _ = book.observe(name: "churn-\(n)", id: NodeID.random(), now: 2 * hour + Int64(n))
        }
        XCTAssertTrue((KnownPeers.limit * 9 / 10...KnownPeers.limit).contains(book.peers.count), "\(book.peers.count)")
        XCTAssertNotNil(book.peers["friend"], "seen lately: kept")
        XCTAssertNil(book.peers["old friend"], "the longest unseen: forgotten")
        XCTAssertNil(book.peers["churn-0"])
        XCTAssertNotNil(book.peers["churn-2499"])
    }
}
