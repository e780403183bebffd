import Foundation
import TavoloTestSupport
import XCTest

/// Issue 36 on the scripts/lan testbed, through `scripts/lan-mesh` (the same driver `scripts/bench lan` prints
/// figures from; here only what must hold is checked, never a time): many tables at once, a mesh of 64 hosts, and
/// a game between two subnets that only unicast DNS-SD joins. `scripts/test --long` sets TAVOLO_LONG_TESTS=1 for
/// the long ones.
final class LanScaleTests: XCTestCase {
    var lan: LanTestbedHarness?

    override func tearDown() { lan?.down() }

    struct MeshReport: Decodable {
        struct Tables: Decodable {
            struct Table: Decodable {
                var agreed: Bool
                var moves: Int
                var error: String?
                var stopped: [String]?
            }
            var atOnce: [Table]
            var alone: Table
        }
        var formedSeconds: Double?
        var missingLinks: Int
        var tables: Tables?
    }

    /// Runs scripts/lan-mesh with the debug tavolod and reads its JSON report.
    func lanMesh(_ arguments: [String]) throws -> (MeshReport?, String) {
        let script = LanTestbedHarness.packageRoot.appendingPathComponent("scripts/lan-mesh").path
        let out = try runProcess(
            "/usr/bin/python3", [script, "--tavolod", try locateTavolod().path, "--json"] + arguments)
        let report = out.stdout.split(separator: "\n").last.flatMap {
            try? JSONDecoder().decode(MeshReport.self, from: Data($0.utf8))
        }
        return (report, "exit \(out.status): \(out.stderr.suffix(2000)) \(out.stdout.suffix(3000))")
    }

    func requireLong() throws {
        guard ProcessInfo.processInfo.environment["TAVOLO_LONG_TESTS"] == "1" else {
            throw XCTSkip("long: scripts/test --long runs it")
        }
    }

    /// Ten six-player Spirits! tables at once on sixteen hosts (a node at several tables): every table agrees. In the
    /// default run (about 45 s): the fault it found (a table stopped while seeding, "… revealed before committing",
    /// a commitment that overtook the host's offer seating its sender) is fixed (§9.3), and three runs in a row passed
    /// on a loaded machine (a long simulation on both cores).
    func testTenTablesAtOnceOnSixteenHostsAllAgree() throws {
        lan = try LanTestbedHarness(hosts: 16)
        let (report, log) = try lanMesh([
            "--nodes", "16", "--hosts", "16", "--timeout", "120", "--tables", "10", "--games", "1",
        ])
        let r = try XCTUnwrap(report, log)
        XCTAssertNotNil(r.formedSeconds, "no full mesh of 16: \(log)")
        let tables = try XCTUnwrap(r.tables, log)
        XCTAssertEqual(tables.atOnce.count, 10)
        for (k, t) in tables.atOnce.enumerated() {
            XCTAssertTrue(
                t.agreed, "table \(k) at once: \(t.error ?? "stopped: \(t.stopped ?? []), or members disagree")")
            XCTAssertGreaterThan(t.moves, 0, "table \(k) played no move")
        }
        XCTAssertTrue(tables.alone.agreed, "the table alone: \(tables.alone.error ?? "disagree")")
    }

    /// 64 hosts, a node each, form a full mesh (2,016 links).
    func testSixtyFourHostsFormAFullMesh() throws {
        try requireLong()
        lan = try LanTestbedHarness(hosts: 64)
        let (report, log) = try lanMesh(["--nodes", "64", "--hosts", "64", "--timeout", "300"])
        let r = try XCTUnwrap(report, log)
        XCTAssertNotNil(r.formedSeconds, log)
        XCTAssertEqual(r.missingLinks, 0, log)
    }

    /// Two hosts on two subnets behind a router (scripts/lan up 2 --routed: tvh1 on 10.77.0.0/24, tvh2 on
    /// 10.77.1.0/24): without --domain they never meet (mDNS stops at the router, nothing is published beyond the
    /// link); with --domain tavolo.test they register by DNS UPDATE, find each other, connect and play.
    func testTwoSubnetsMeetOnlyThroughTheirDomainAndPlay() throws {
        lan = try LanTestbedHarness(hosts: 2, routed: true)
        let (alone, _) = try lanMesh(["--nodes", "2", "--hosts", "2", "--timeout", "20"])
        XCTAssertNil(try XCTUnwrap(alone).formedSeconds, "the subnets met without --domain")
        let (report, log) = try lanMesh([
            "--nodes", "2", "--hosts", "2", "--timeout", "90", "--domain", "tavolo.test", "--tables", "1",
            "--players", "2", "--game", "othello", "--bot", "greedy", "--games", "1",
        ])
        let r = try XCTUnwrap(report, log)
        XCTAssertNotNil(r.formedSeconds, "no mesh across the router: \(log)")
        let table = try XCTUnwrap(r.tables?.alone, log)
        XCTAssertTrue(table.agreed, "the game across the router: \(table.error ?? "disagree") \(log)")
        XCTAssertGreaterThan(table.moves, 0)
    }
}
