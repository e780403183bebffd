import TavoloControl
import TavoloProtocol
import XCTest

@testable import TavoloDoctor

/// The verdicts of `tavolo doctor`, from facts written by hand: each trouble of the README's checklist gives the
/// check that names it, and a healthy machine gives none.
final class DoctorVerdictsTests: XCTestCase {
    let ownID = String(repeating: "a", count: 32)
    let bobID = String(repeating: "b", count: 32)

    func node(instances: [SeenInstance] = [], registered: Bool = true) -> DiscoveryReport {
        DiscoveryReport(
            name: "alice", id: ownID, tcpPort: 7878, udpPort: 7878, registered: registered,
            registrationError: registered ? nil : "daemon not running", browsing: true, browseError: nil,
            instances: instances)
    }

    func sighting(_ name: String, on interface: String, _ address: String, port: Int = 7878) -> AvahiSighting {
        AvahiSighting(
            interface: interface, name: name, host: "\(name).local", address: address, port: port,
            id: name == "alice" ? ownID : bobID)
    }

    let eth0 = HostInterface(name: "eth0", addresses: ["10.0.0.1"], hasLink: true, isLoopback: false)
    let lo = HostInterface(name: "lo", addresses: ["127.0.0.1"], hasLink: true, isLoopback: true)

    func bob(_ state: PeerSummary.State, reason: String? = nil) throws -> PeerSummary {
        PeerSummary(
            id: try XCTUnwrap(NodeID(hex: bobID)), name: "bob", address: "10.0.0.2:7878", state: state, rttMs: nil,
            reason: reason)
    }

    func facts(
        node: DiscoveryReport? = nil, peers: [PeerSummary] = [], avahiRunning: Bool? = true,
        sightings: [AvahiSighting]? = nil, interfaces: [HostInterface]? = nil, probes: [DoctorFacts.Probe] = []
    ) -> DoctorFacts {
        DoctorFacts(
            socket: "/run/user/1000/tavolo/alice.sock", node: node ?? self.node(), nodeError: nil, peers: peers,
            avahiRunning: avahiRunning,
            avahiBrowse: AvahiBrowseResult(
                sightings: sightings ?? [sighting("alice", on: "eth0", "10.0.0.1")], error: nil),
            interfaces: interfaces ?? [lo, eth0], probes: probes)
    }

    func verdict(_ name: String, _ facts: DoctorFacts) throws -> DoctorCheck {
        try XCTUnwrap(DoctorVerdicts.checks(facts).first { $0.check == name })
    }

    func testAHealthyMachineWithAConnectedPeerPassesEveryCheck() throws {
        let report = DoctorReport(
            facts: facts(
                peers: [try bob(.connected)],
                sightings: [sighting("alice", on: "eth0", "10.0.0.1"), sighting("bob", on: "eth0", "10.0.0.2")]))
        XCTAssertTrue(report.ok)
        XCTAssertEqual(report.checks.map(\.status), [.ok, .ok, .ok, .ok, .ok, .ok], "\(report.checks)")
        XCTAssertEqual(
            report.checks.map(\.check), ["node", "avahi", "interfaces", "published", "discovered", "connections"])
    }

    func testNoNodeFailsAndSaysHowToStartOne() throws {
        var f = facts()
        f.node = nil
        f.nodeError = "cannot reach the node"
        let check = try verdict("node", f)
        XCTAssertEqual(check.status, .failed)
        XCTAssertTrue(check.hint?.contains("systemctl --user enable --now tavolod") ?? false, "\(check)")
        XCTAssertEqual(try verdict("published", f).status, .skipped)
    }

    func testAvahiStoppedFails() throws {
        let check = try verdict("avahi", facts(node: node(registered: false), avahiRunning: false))
        XCTAssertEqual(check.status, .failed)
        XCTAssertTrue(check.text.contains("not running"), check.text)
        XCTAssertEqual(try verdict("published", facts(node: node(registered: false))).status, .failed)
    }

    func testPublishedOnlyOnLoopbackFailsAndNamesAllowInterfaces() throws {
        let check = try verdict("published", facts(sightings: [sighting("alice", on: "lo", "127.0.0.1")]))
        XCTAssertEqual(check.status, .failed)
        XCTAssertTrue(check.text.contains("only on lo"), check.text)
        XCTAssertTrue(check.hint?.contains("allow-interfaces") ?? false, "\(check)")
    }

    func testWithoutAvahiBrowseTheNodesOwnBrowseStandsIn() throws {
        var f = facts(
            node: node(instances: [
                SeenInstance(name: "alice", id: ownID, host: "h.local", port: 7878, addresses: ["127.0.0.1"])
            ]))
        f.avahiBrowse = nil
        XCTAssertEqual(try verdict("published", f).status, .failed)
        f.node = node(instances: [
            SeenInstance(name: "alice", id: ownID, host: "h.local", port: 7878, addresses: ["10.0.0.1"])
        ])
        XCTAssertEqual(try verdict("published", f).status, .ok)
    }

    func testAPulledCableFailsTheInterfaces() throws {
        let unplugged = HostInterface(name: "eth0", addresses: ["10.0.0.1"], hasLink: false, isLoopback: false)
        let check = try verdict("interfaces", facts(interfaces: [lo, unplugged]))
        XCTAssertEqual(check.status, .failed)
        XCTAssertTrue(check.text.contains("no link"), check.text)
        XCTAssertEqual(try verdict("interfaces", facts(interfaces: [lo])).status, .failed)
    }

    func testNobodySeenWarnsAboutClientIsolation() throws {
        let check = try verdict("discovered", facts())
        XCTAssertEqual(check.status, .warning)
        XCTAssertTrue(check.hint?.contains("client isolation") ?? false, "\(check)")
        XCTAssertEqual(try verdict("connections", facts()).status, .skipped)
        XCTAssertTrue(DoctorReport(facts: facts()).ok, "nobody else is no failure of this machine")
    }

    func testADiscoveredPeerWhosePortDoesNotAnswerIsAFirewall() throws {
        let f = facts(
            peers: [try bob(.discovered, reason: "dial 10.0.0.2:7878 failed")],
            sightings: [sighting("alice", on: "eth0", "10.0.0.1"), sighting("bob", on: "eth0", "10.0.0.2")],
            probes: [DoctorFacts.Probe(name: "bob", address: "10.0.0.2", port: 7878, outcome: .noAnswer)])
        let check = try verdict("connections", f)
        XCTAssertEqual(check.status, .failed)
        XCTAssertTrue(check.text.contains("does not answer") && check.text.contains("firewall"), check.text)
        XCTAssertTrue(check.hint?.contains("ufw allow 7878/tcp") ?? false, "\(check)")
        XCTAssertFalse(DoctorReport(facts: f).ok)
    }

    func testAnUnconnectedPeerWhosePortAnswersIsOnlyAWarning() throws {
        let f = facts(
            peers: [try bob(.connecting)],
            probes: [DoctorFacts.Probe(name: "bob", address: "10.0.0.2", port: 7878, outcome: .answers)])
        XCTAssertEqual(try verdict("connections", f).status, .warning)
    }

    func testAPeerSeenByAvahiAloneIsListedAndTried() throws {
        let f = facts(sightings: [
            sighting("alice", on: "eth0", "10.0.0.1"), sighting("bob", on: "eth0", "10.0.0.2", port: 4000),
        ])
        XCTAssertEqual(f.unconnectedNodes.map(\.name), ["bob"])
        XCTAssertEqual(f.unconnectedNodes.first?.port, 4000)
        XCTAssertTrue(try verdict("discovered", f).text.contains("seen by Avahi, not by the node"))
    }

    func testALostPeerNoLongerSeenIsNotListed() throws {
        XCTAssertTrue(facts(peers: [try bob(.lost)]).seenNodes.isEmpty)
    }
}
