import Foundation
import TavoloControl
import XCTest

/// The error codes of a request line that is not a request (PROTOCOL.md §7), as the spec now settles them: not a
/// JSON object is `control/bad-request`; an object without a string `op` (`{"id":3}`) is `control/bad-params`; a
/// string `op` that names nothing is `control/unknown-op`. Each answer carries the request's `id` when it has one.
final class ControlRequestErrorTests: DaemonTestCase {
    struct Answer: Decodable {
        struct Failure: Decodable { var code: String }
        var id: Int?
        var ok: Bool
        var error: Failure?
    }

    func testEachMalformedRequestGetsItsCode() throws {
        let node = try harness.startNode()
        let path = harness.nodes[node].controlPath
        try harness.eventually("the node answers", seconds: 20) {
            (try? ControlClient(path: path).call(.status)) != nil
        }
        let client = try ControlClient(path: path)
        let cases: [(line: String, id: Int?, code: String)] = [
            (#"{"id":3}"#, 3, "control/bad-params"),
            (#"{"id":4,"op":7}"#, 4, "control/bad-params"),
            (#"{"id":5,"op":"no-such-op"}"#, 5, "control/unknown-op"),
            (#"[1,2]"#, nil, "control/bad-request"),
            (#"not json"#, nil, "control/bad-request"),
        ]
        for c in cases {
            let reply = try client.exchange(line: Array(c.line.utf8))
            let answer = try JSONDecoder().decode(Answer.self, from: Data(reply))
            XCTAssertFalse(answer.ok, c.line)
            XCTAssertEqual(answer.error?.code, c.code, c.line)
            XCTAssertEqual(answer.id, c.id, c.line)
        }
    }
}
