import Foundation
import TavoloControl
import TavoloProtocol
import TavoloTestSupport
import XCTest

/// The control socket is the node's local door (PROTOCOL.md §7): a second node never takes it over, and a hostile
/// line costs nothing (who may use it: ControlAccessIntegrationTests).
final class ControlSocketSafetyTests: DaemonTestCase {

    func environment() -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["AVAHI_COMPAT_NOWARN"] = "1"
        env["XDG_RUNTIME_DIR"] = harness.root.appendingPathComponent("run").path
        return env
    }

    /// A second tavolod given a running node's socket exits with one line; the first node still answers there.
    func testASecondNodeDoesNotTakeOverARunningNodesSocket() throws {
        let first = try harness.startNode()
        let path = harness.nodes[first].controlPath
        try harness.eventually("the first node answers", seconds: 20) { (try? ControlClient(path: path)) != nil }
        let second = try runProcess(
            harness.binary.path,
            [
                "--name", harness.name(50), "--state-dir", harness.root.appendingPathComponent("s50").path, "--control",
                path,
            ],
            environment: environment())
        XCTAssertNotEqual(second.status, 0)
        XCTAssertEqual(second.stderr.split(separator: "\n").count, 1, second.stderr)
        XCTAssertTrue(second.stderr.contains("another node is running"), second.stderr)
        let status = try ControlClient(path: path).call(.status)
        XCTAssertEqual(status.name, harness.name(first))
    }

    /// A request nested far deeper than the wire allows is refused with `control/bad-request` before any decoder
    /// sees it (its cost would grow with the cube of the depth), and the same connection keeps working.
    func testADeeplyNestedRequestIsRefusedAndTheConnectionGoesOn() throws {
        let node = try harness.startNode()
        let path = harness.nodes[node].controlPath
        // Answers, not only accepts: the socket opens before the node has finished starting (`control/starting`).
        try harness.eventually("the node answers", seconds: 20) {
            (try? ControlClient(path: path).call(.status)) != nil
        }
        let client = try ControlClient(path: path)
        let depth = 5_000
        let nested =
            #"{"id":7,"op":"move","table":"x-1","move":"# + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}"
        let start = Date()
        let reply = try client.exchange(line: Array(nested.utf8))
        let took = Date().timeIntervalSince(start)
        let answer = try JSONDecoder().decode(ControlResponse<Empty>.self, from: Data(reply))
        XCTAssertEqual(answer.error?.code, .controlBadRequest, String(decoding: reply, as: UTF8.self))
        print("integration: a request nested \(depth) deep was refused in \(String(format: "%.1f", took * 1000)) ms")
        let status = try client.call(.status)
        XCTAssertEqual(status.name, harness.name(node))
    }
}
