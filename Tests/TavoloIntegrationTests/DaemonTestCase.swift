import Foundation
import TavoloControl
import XCTest

/// A test case that starts real `tavolod` processes: a fresh `DaemonHarness` per test (after checking Avahi runs),
/// every node it started killed afterwards, whatever happened.
class DaemonTestCase: XCTestCase {
    var harness: DaemonHarness!

    /// The nodes' heartbeat interval and timeout. Games get long ones (a busy machine that stalls a node for a
    /// second must not lose a member); tests of loss detection override with short ones.
    var heartbeat: (interval: Double, timeout: Double) { (0.5, 8) }

    override func setUpWithError() throws {
        try requireAvahi()
        harness = try DaemonHarness(heartbeatInterval: heartbeat.interval, heartbeatTimeout: heartbeat.timeout)
    }

    override func tearDown() {
        harness?.stopAll()
        harness = nil
    }

    /// Runs `tavolod` with `args` to its end (a start that must fail, say): its exit status and what it wrote to
    /// stderr.
    func runTavolod(_ args: [String]) -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = harness.binary
        p.arguments = args
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return (-1, "cannot run tavolod") }
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: e, as: UTF8.self))
    }

    /// A control connection to node `i`.
    func client(_ i: Int) throws -> ControlClient { try ControlClient(path: harness.nodes[i].controlPath) }
}
