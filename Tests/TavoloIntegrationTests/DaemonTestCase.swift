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
        // A failed test shows what every node said last: a timeout alone tells nobody why the nodes never got there.
        if let h = harness, (testRun?.totalFailureCount ?? 0) > 0 {
            for i in h.nodes.indices { print("--- \(h.name(i)) (last lines of its log):\n\(h.logTail(i, lines: 30))") }
        }
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

    /// A barrier, in place of a sleep before checking that nothing happened: every node of `nodes` says a lobby line
    /// and waits until every other one has it. Each line goes on the session between the two nodes, so once they are
    /// all in, every session among `nodes` carried a frame each way after whatever the test did before, and
    /// anything that test sent on them earlier has been handled. A line may be dropped by the chat bounds (§12:
    /// every test node shares 127.0.0.1, and tests run side by side), so a node whose line is missing somewhere
    /// says it again every two seconds, within its own rate.
    func chatBarrier(_ nodes: [Int], _ label: String) throws {
        let marker = "barrier \(label) \(UUID().uuidString.prefix(8))"
        var missing = Set(nodes)
        var lastSaid = Date.distantPast
        try harness.eventually("every node of \(nodes) to hear the others' \(label) barrier", seconds: 30) {
            if Date().timeIntervalSince(lastSaid) >= 2 {
                for i in missing { _ = try? client(i).call(.chat(room: "lobby", text: "\(marker) from \(i)")) }
                lastSaid = Date()
            }
            let heard = nodes.map { i in
                Set(((try? client(i).call(.chatLog(room: "lobby", follow: false))) ?? []).map(\.text))
            }
            missing = Set(
                nodes.filter { j in
                    zip(nodes, heard).contains { i, lines in i != j && !lines.contains("\(marker) from \(j)") }
                })
            return missing.isEmpty
        }
    }
}
