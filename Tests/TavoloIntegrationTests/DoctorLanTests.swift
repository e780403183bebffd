import Foundation
import TavoloControl
import TavoloDoctor
import TavoloTestSupport
import XCTest

/// `tavolo doctor` on two scripts/lan test hosts, run inside a host as its user would run it there: a healthy pair,
/// then the README's troubles one at a time — a firewall (an nft rule in tvh2) that blocks the node's TCP port and
/// is opened again, a pulled cable, a stopped avahi-daemon — each named by the check it concerns, with exit status 1.
final class DoctorLanTests: XCTestCase {
    var lan: LanTestbedHarness?
    var harness: DaemonHarness!
    static let port = 7878

    override func tearDown() {
        harness?.stopAll()
        lan?.down()
    }

    /// `tavolo doctor --json` for node `index`, run in its test host; the report and the exit status.
    func doctor(_ index: Int) throws -> (report: DoctorReport, status: Int32, text: String) {
        let tavolo = try locateTavolod().deletingLastPathComponent().appendingPathComponent("tavolo").path
        let holder = try XCTUnwrap(lan).holder(index + 1)
        let arguments = [
            "-t", String(holder), "-n", "-m", "--", tavolo, "doctor", "--control", harness.nodes[index].controlPath,
            "--probe-timeout", "2",
        ]
        let json = try runProcess("/usr/bin/nsenter", arguments + ["--json"])
        let report = try JSONDecoder().decode(DoctorReport.self, from: Data(json.stdout.utf8))
        let words = try runProcess("/usr/bin/nsenter", arguments)
        XCTAssertEqual(words.status, json.status, "the same verdict in words and in JSON")
        return (report, json.status, words.stdout)
    }

    func check(_ name: String, in report: DoctorReport) throws -> DoctorCheck {
        try XCTUnwrap(report.checks.first { $0.check == name }, "no check \(name)")
    }

    func nft(_ host: String, _ script: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nft") else {
            throw XCTSkip("nft is missing (apt-get install nftables; scripts/setup installs it)")
        }
        let file = harness.root.appendingPathComponent("rules-\(UInt32.random(in: 0...UInt32.max)).nft")
        try (script + "\n").write(to: file, atomically: true, encoding: .utf8)
        try lan?.lan(["exec", host, "/usr/sbin/nft", "-f", file.path])
    }

    func testDoctorNamesAFirewallAPulledCableAndAStoppedAvahi() throws {
        let lan = try LanTestbedHarness(hosts: 2)
        self.lan = lan
        harness = try DaemonHarness(heartbeatInterval: 0.3, heartbeatTimeout: 1.5)
        for h in 1...2 {
            _ = try harness.startNode(extraArguments: ["--port", String(Self.port)], testHost: try lan.holder(h))
        }
        try harness.eventually("the two hosts connect", seconds: 30) { harness.isFullMesh([0, 1]) }

        // Healthy: every check passes, and the node's own service is published on eth0.
        var run = try doctor(0)
        XCTAssertEqual(run.status, 0, run.text)
        XCTAssertTrue(run.report.ok)
        XCTAssertEqual(
            try check("published", in: run.report).text, "Avahi publishes \(harness.name(0)) on eth0", run.text)
        XCTAssertEqual(try check("connections", in: run.report).status, .ok, run.text)
        XCTAssertTrue(try check("discovered", in: run.report).text.contains("\(harness.name(1)) (connected)"), run.text)

        // A firewall in tvh2 drops everything to the node's TCP port, both ways: the session dies, no dial succeeds,
        // and from tvh1 the port does not answer.
        try nft(
            "tvh2",
            """
            add table inet tavolodoctor
            add chain inet tavolodoctor in { type filter hook input priority 0; }
            add chain inet tavolodoctor out { type filter hook output priority 0; }
            add rule inet tavolodoctor in tcp dport \(Self.port) drop
            add rule inet tavolodoctor out tcp dport \(Self.port) drop
            """)
        try harness.eventually("tvh1 loses tvh2", seconds: 20) {
            harness.view(0)?[harness.name(1)]?.state != .connected
        }
        run = try doctor(0)
        XCTAssertEqual(run.status, 1, run.text)
        let blocked = try check("connections", in: run.report)
        XCTAssertEqual(blocked.status, .failed, run.text)
        XCTAssertTrue(blocked.text.contains("\(harness.name(1)) at 10.77.0.2:\(Self.port)"), blocked.text)
        XCTAssertTrue(blocked.text.contains("does not answer"), blocked.text)
        XCTAssertTrue(blocked.hint?.contains("ufw allow \(Self.port)/tcp") ?? false, "\(blocked)")
        XCTAssertTrue(run.text.contains("FAILED   connections"), run.text)

        // The firewall opened again: they reconnect and the doctor finds nothing.
        try nft("tvh2", "delete table inet tavolodoctor")
        try harness.eventually("the two hosts reconnect", seconds: 30) { harness.isFullMesh([0, 1]) }
        run = try doctor(0)
        XCTAssertEqual(run.status, 0, run.text)

        // tvh2's cable pulled: its interface has no link, and Avahi publishes the node on no interface with one.
        try lan.lan(["cut", "tvh2"])
        try harness.eventually("tvh2 loses tvh1", seconds: 20) {
            harness.view(1)?[harness.name(0)]?.state != .connected
        }
        run = try doctor(1)
        XCTAssertEqual(run.status, 1, run.text)
        let interfaces = try check("interfaces", in: run.report)
        XCTAssertEqual(interfaces.status, .failed, run.text)
        XCTAssertTrue(interfaces.text.contains("eth0 10.77.0.2: no link"), interfaces.text)
        try lan.lan(["heal", "tvh2"])
        try harness.eventually("the two hosts reconnect after the cut", seconds: 30) { harness.isFullMesh([0, 1]) }

        // tvh2's avahi-daemon stopped.
        try lan.lan(["avahi", "tvh2", "stop"])
        run = try doctor(1)
        XCTAssertEqual(run.status, 1, run.text)
        let avahi = try check("avahi", in: run.report)
        XCTAssertEqual(avahi.status, .failed, run.text)
        XCTAssertEqual(avahi.text, "avahi-daemon is not running")
        XCTAssertTrue(avahi.hint?.contains("systemctl enable --now avahi-daemon") ?? false, "\(avahi)")
        try lan.lan(["avahi", "tvh2", "start"])
    }
}
