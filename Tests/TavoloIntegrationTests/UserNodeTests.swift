import Foundation
import TavoloControl
import TavoloDoctor
import TavoloTestSupport
import XCTest

/// The user's own node (issue 35): `tavolod` with no arguments, as the systemd user unit starts it, takes its name
/// and port from ~/.config/tavolo/tavolod.conf; `tavolo` with no --node finds it; a typo in the file stops tavolod
/// with one line naming the line.
final class UserNodeTests: XCTestCase {
    var daemon: Process?
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tavolo-user-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("config/tavolo"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("run"), withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let daemon, daemon.isRunning {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: root)
    }

    /// The user's environment: config, state and runtime directories of this test only.
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
        env["XDG_STATE_HOME"] = root.appendingPathComponent("state").path
        env["XDG_RUNTIME_DIR"] = root.appendingPathComponent("run").path
        return env
    }

    func binary(_ name: String) throws -> String {
        try locateTavolod().deletingLastPathComponent().appendingPathComponent(name).path
    }

    func writeConfig(_ text: String) throws {
        try text.write(to: root.appendingPathComponent("config/tavolo/tavolod.conf"), atomically: true, encoding: .utf8)
    }

    func testTavolodWithoutArgumentsIsTheConfiguredNodeAndTavoloFindsIt() throws {
        let name = "user\(getpid())"
        try writeConfig("# mine\nname = \(name)\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try binary("tavolod"))
        process.arguments = ["--no-web"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        daemon = process
        let socket = root.appendingPathComponent("run/tavolo/\(name).sock").path
        try eventuallySync("the node's control socket to answer", within: 20, every: 0.1) {
            (try? ControlClient(path: socket)) != nil
        }

        let peers = try runProcess(try binary("tavolo"), ["peers", "--json"], environment: environment)
        XCTAssertEqual(peers.status, 0, peers.stderr)
        let doctor = try runProcess(
            try binary("tavolo"), ["doctor", "--json", "--probe-timeout", "1"], environment: environment)
        let report = try JSONDecoder().decode(DoctorReport.self, from: Data(doctor.stdout.utf8))
        XCTAssertEqual(report.facts.node?.name, name, doctor.stdout)
        XCTAssertEqual(report.facts.socket, socket)
        XCTAssertEqual(report.checks.first?.status, .ok, "\(report.checks)")
        XCTAssertTrue(report.facts.node?.registered ?? false, doctor.stdout)
        XCTAssertTrue(report.facts.node?.instances.contains { $0.name == name } ?? false, "its own browse sees it")
    }

    func testATypoInTheConfigStopsTavolodWithOneLine() throws {
        try writeConfig("nmae = x\n")
        let r = try runProcess(try binary("tavolod"), ["--no-web"], environment: environment)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("tavolod.conf line 1: unknown key 'nmae'"), r.stderr)
    }
}
