import Foundation
import TavoloProtocol
import TavoloTestSupport
import XCTest

/// The commands' contract with users and scripts: bad arguments give one line on stderr and exit code 2;
/// a node that cannot be reached gives one line and exit code 1; good arguments work.
final class CommandLineTests: XCTestCase {
    func run(_ binary: String, _ args: [String]) throws -> ProcessOutput {
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("tavolo-cli-\(getpid())").path
        let path = try locateTavolod().deletingLastPathComponent().appendingPathComponent(binary).path
        return try runProcess(path, args, environment: env)
    }

    /// `--version` on both binaries: the release and the protocol, one line, exit 0 (issue 34).
    func testBothBinariesSayTheirVersion() throws {
        for binary in ["tavolo", "tavolod"] {
            let out = try run(binary, ["--version"])
            XCTAssertEqual(out.status, 0, binary + out.stderr)
            XCTAssertEqual(out.stdout.trimmingCharacters(in: .whitespacesAndNewlines), TavoloVersion.line, binary)
            XCTAssertTrue(TavoloVersion.line.contains("protocol 3"), TavoloVersion.line)
        }
    }

    func testBadArgumentsAreOneLineAndExitCode2() throws {
        for args in [
            ["playout", "spirits", "--players", "9"], ["playout", "chess"], ["playout", "spirits", "--games", "x"],
            ["playout", "spirits", "--games", "2", "--transcript"], ["peers", "--node", "a", "--control", "/x"],
            ["simulate", "--game", "othello", "--peers", "6"],
            ["playout", "spirits", "--players", "2", "--bots", "heuristic,nobody"],
        ] {
            let r = try run("tavolo", args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("tavolo: "), r.stderr)
        }
        let d = try run("tavolod", ["--port", "70000", "--name", "x"])
        XCTAssertEqual(d.status, 2)
        XCTAssertEqual(d.stderr.split(separator: "\n").count, 1, d.stderr)
    }

    func testUnreachableNodeIsOneLineAndExitCode1() throws {
        // Named, and not named: then the user's own node is looked for, and none runs (issue 35).
        for args in [["peers", "--node", "nobody-here"], ["peers"]] {
            let r = try run("tavolo", args)
            XCTAssertEqual(r.status, 1, "\(args)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("tavolod"), "says what to do: \(r.stderr)")
        }
    }

    func testHelpAndAGoodRunExitZero() throws {
        XCTAssertEqual(try run("tavolo", ["--help"]).status, 0)
        let r = try run("tavolo", ["playout", "othello", "--players", "2", "--games", "3", "--seed", "4", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }
}
