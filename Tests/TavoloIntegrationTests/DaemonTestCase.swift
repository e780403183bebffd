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

    /// A barrier, in place of a sleep before checking that nothing happened: every node of `nodes` says a lobby line
    /// and waits until every other one has it. Each line goes on the session between the two nodes, so once they are
    /// all in, every session among `nodes` carried a frame each way after whatever the test did before, and
    /// anything that test sent on them earlier has been handled. A line may be dropped by the chat bounds (§12:
    /// every test node shares 127.0.0.1, and tests run side by side), so a node whose line is missing somewhere
    /// says it again every two seconds, within its own rate.
    func chatBarrier(_ nodes: [Int], _ label: String) throws {
        let marker = "barrier \(label) \(UUID().uuidString.prefix(8))"
        func heard(_ i: Int) -> Set<String> {
            Set(((try? client(i).call(.chatLog(room: "lobby", follow: false))) ?? []).map(\.text))
        }
        let deadline = Date().addingTimeInterval(30)
        var missing = Set(nodes)
        while Date() < deadline {
            for i in missing { _ = try? client(i).call(.chat(room: "lobby", text: "\(marker) from \(i)")) }
            let resend = Date().addingTimeInterval(2)
            while Date() < resend {
                let logs = Dictionary(uniqueKeysWithValues: nodes.map { ($0, heard($0)) })
                missing = Set(
                    nodes.filter { j in nodes.contains { i in i != j && !logs[i]!.contains("\(marker) from \(j)") } })
                if missing.isEmpty { return }
                usleep(50_000)
            }
        }
        let message =
            "the \(label) barrier: lines of nodes \(missing.sorted()) never reached every other node of \(nodes)"
        XCTFail(message)
        throw HarnessError(message)
    }
}
