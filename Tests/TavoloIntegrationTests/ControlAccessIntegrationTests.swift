import Foundation
import TavoloControl
import TavoloDaemon
import TavoloTestSupport
import XCTest

/// The control socket belongs to the user the node runs as (issue 15, item 6; PROTOCOL.md §7 "Access").
final class ControlAccessIntegrationTests: DaemonTestCase {

    var tavolo: String { harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path }

    /// Runs `tavolo ARGS` as the user `nobody` (uid 65534), with no supplementary groups.
    func tavoloAsNobody(_ args: [String]) throws -> ProcessOutput {
        guard geteuid() == 0 else { throw XCTSkip("only root can run a client as another uid") }
        return try runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", tavolo] + args)
    }

    func mode(_ path: String) throws -> (mode: Int, owner: uid_t) {
        var st = stat()
        guard lstat(path, &st) == 0 else { throw XCTSkip("cannot stat \(path)") }
        return (Int(st.st_mode & 0o7777), st.st_uid)
    }

    func testTheSocketIs0600InA0700DirectoryAndAnotherUidCannotUseIt() throws {
        try harness.start(1)
        try harness.eventually("node up", seconds: 30) { harness.peers(0) != nil }
        let path = harness.nodes[0].controlPath
        let dir = (path as NSString).deletingLastPathComponent
        XCTAssertEqual(try mode(path).mode, 0o600)
        XCTAssertEqual(try mode(dir).mode, 0o700)
        XCTAssertEqual(try mode(dir).owner, geteuid())

        // The directory alone stops another user.
        let blocked = try tavoloAsNobody(["peers", "--control", path])
        XCTAssertNotEqual(blocked.status, 0)
        XCTAssertTrue(blocked.stderr.contains("ermission denied"), blocked.stderr + blocked.stdout)

        // Opened on purpose (directory traversable, socket writable by all): the kernel's word on the peer's uid
        // (SO_PEERCRED) still refuses it, with one clear line.
        XCTAssertEqual(chmod(dir, 0o711), 0)
        XCTAssertEqual(chmod(path, 0o666), 0)
        let refused = try tavoloAsNobody(["peers", "--control", path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("control/forbidden"), refused.stderr + refused.stdout)
        XCTAssertTrue(refused.stderr.contains("uid 65534"), refused.stderr)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(harness.logTail(0, lines: 40).contains("refused a connection"), harness.logTail(0))

        // The node's own user is still served.
        let mine = try? runProcess(tavolo, ["peers", "--control", path])
        XCTAssertEqual(mine?.status, 0, mine?.stderr ?? "")
    }

    func testTavolodRefusesASocketDirectoryOthersCanWriteTo() throws {
        let open = harness.root.appendingPathComponent("open").path
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(open, 0o777), 0)
        let p = Process()
        p.executableURL = harness.binary
        p.arguments = [
            "--name", harness.name(9), "--state-dir", harness.root.appendingPathComponent("state-open").path,
            "--control", "\(open)/node.sock",
        ]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        defer {
            if p.isRunning {
                p.terminate()
                p.waitUntilExit()
            }
        }
        try eventuallySync("tavolod to refuse a control directory others can write to", within: 20, every: 0.05) {
            !p.isRunning
        }
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(p.terminationStatus, 1)
        XCTAssertTrue(stderr.contains("writable by others"), stderr)
        XCTAssertEqual(stderr.split(separator: "\n").count, 1, stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(open)/node.sock"))
    }

    /// The decision itself, for uids a test cannot become.
    func testOnlyTheDaemonsOwnUidIsServedAndOnlyItsOwnClosedDirectoryIsUsed() {
        XCTAssertNil(ControlAccess.refusal(peerUID: 1000, daemonUID: 1000))
        XCTAssertNotNil(ControlAccess.refusal(peerUID: 0, daemonUID: 1000))
        XCTAssertNotNil(ControlAccess.refusal(peerUID: 1001, daemonUID: 1000))
        XCTAssertNotNil(ControlAccess.refusal(peerUID: nil, daemonUID: 1000))
        XCTAssertNil(ControlAccess.directoryProblem(path: "/d", ownerUID: 1000, mode: 0o40700, daemonUID: 1000))
        XCTAssertNil(ControlAccess.directoryProblem(path: "/d", ownerUID: 1000, mode: 0o40755, daemonUID: 1000))
        XCTAssertNotNil(ControlAccess.directoryProblem(path: "/d", ownerUID: 1000, mode: 0o40770, daemonUID: 1000))
        XCTAssertNotNil(ControlAccess.directoryProblem(path: "/d", ownerUID: 1000, mode: 0o41777, daemonUID: 1000))
        XCTAssertNotNil(ControlAccess.directoryProblem(path: "/d", ownerUID: 0, mode: 0o40700, daemonUID: 1000))
    }
}
