@preconcurrency import Crypto
import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// Names are not identities (issue 15, item 5): a node remembers the identity of every peer name it connected
/// to; a fake peer taking a friend's name, a handshake claiming another node's id and a DNS-SD record published
/// with a victim's id all fail against real `tavolod` processes.
final class KnownPeersIntegrationTests: DaemonTestCase {
    var publisher: Process?
    override var heartbeat: (interval: Double, timeout: Double) { (0.5, 3) }

    override func tearDown() {
        if let publisher, publisher.isRunning {
            publisher.terminate()
            publisher.waitUntilExit()
        }
        super.tearDown()
    }

    var tavolo: String { harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path }

    func testAFakePeerTakingAFriendsNameGetsNeitherTheInvitationNorTheSeatUntilAccepted() throws {
        try harness.start(2)
        try harness.eventually("full mesh of 2", seconds: 30) { harness.isFullMesh([0, 1]) }
        let friend = harness.name(1)
        let friendID = try harness.status(1).id
        let info = try client(0).call(.host(game: "othello", players: 2))
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 0, bot: nil))
        _ = try client(0).call(.invite(table: info.id, seat: 1, node: friend))

        // The friend goes away; a stranger with a new key takes its name.
        harness.signal(1, SIGTERM)
        XCTAssertNotNil(harness.waitForExit(1, seconds: 20))
        let fake = try harness.startNode(extraArguments: ["--name", friend])
        try harness.eventually("the fake connects under the friend's name", seconds: 30) {
            harness.peers(0)?.contains { $0.name == friend && $0.state == .connected && $0.id.hex != friendID } == true
        }
        let shown = harness.peers(0)?.first { $0.name == friend && $0.state == .connected }
        XCTAssertEqual(shown?.trust, .identityChanged)
        let text = try? runProcess(tavolo, ["peers", "--control", harness.nodes[0].controlPath])
        XCTAssertTrue(text?.stdout.contains("identity changed") == true, text?.stdout ?? "")
        let json = try? runProcess(tavolo, ["peers", "--json", "--control", harness.nodes[0].controlPath])
        XCTAssertTrue(json?.stdout.contains(#""trust":"identity-changed""#) == true, json?.stdout ?? "")
        XCTAssertTrue(harness.logTail(0, lines: 60).contains("IDENTITY CHANGED"), harness.logTail(0))

        // The fake asks for the seat reserved for the friend: refused, the seat stays free.
        let events = try TableIntegrationTests.Events(path: harness.nodes[fake].controlPath, kinds: [.seatRefused])
        defer { events.close() }
        try harness.eventually("the fake sees the table", seconds: 15) {
            (try? client(fake).call(.tables).contains { $0.id == info.id }) == true
        }
        _ = try client(fake).call(.join(table: info.id, game: nil, seat: 1, bot: nil))
        try harness.eventually("the host refuses the fake the friend's seat", seconds: 15) {
            events.all.contains { $0.kind == .seatRefused }
        }
        let seat = try client(0).call(.tables).first { $0.id == info.id }?.seats[1]
        XCTAssertNil(seat?.owner, "the fake took the friend's seat")

        // A new invitation by that name is refused with one clear error...
        XCTAssertThrowsError(try client(0).call(.invite(table: info.id, seat: 1, node: friend))) {
            XCTAssertEqual(($0 as? ControlFailure)?.code, .peerIdentityChanged, "\($0)")
        }
        let cli = try? runProcess(
            tavolo,
            [
                "table", "invite", info.id.rawValue, "--seat", "1", "--to", friend, "--control",
                harness.nodes[0].controlPath,
            ])
        XCTAssertNotEqual(cli?.status, 0)
        XCTAssertTrue(cli?.stderr.contains("tavolo peers --accept") == true, (cli?.stderr ?? "") + (cli?.stdout ?? ""))

        // ...until the user accepts the new identity: then the name means it.
        let accepted = try? runProcess(
            tavolo, ["peers", "--accept", friend, "--control", harness.nodes[0].controlPath])
        XCTAssertEqual(accepted?.status, 0, accepted?.stderr ?? "")
        XCTAssertNil(harness.peers(0)?.first { $0.name == friend && $0.state == .connected }?.trust)
        let invited = try client(0).call(.invite(table: info.id, seat: 1, node: friend))
        XCTAssertEqual(invited.seats[1].invited, friend)
        // The book survives a restart of the node.
        let book = try String(contentsOfFile: harness.nodes[0].stateDir + "/known-peers.json", encoding: .utf8)
        XCTAssertTrue(book.contains(try harness.status(fake).id), book)
    }

    func testARawClientClaimingAnotherNodesIdIsCutAndTheRealConnectionStays() throws {
        try harness.start(2)
        try harness.eventually("full mesh of 2", seconds: 30) { harness.isFullMesh([0, 1]) }
        let victim = try XCTUnwrap(NodeID(hex: try harness.status(0).id))
        let target = try harness.status(1)
        let before = try XCTUnwrap(harness.view(1)?[harness.name(0)])

        let raw = try RawPeer(port: target.tcpPort)
        let claim = Handshake(version: 3, nodeId: victim, name: harness.name(0), udpPort: 9, capabilities: ["tables"])
        let theirs = try raw.noiseHandshake(key: Curve25519.KeyAgreement.PrivateKey(), handshake: claim)
        XCTAssertEqual(theirs.nodeId.hex, target.id, "the node proved its own id")
        XCTAssertTrue(raw.isClosedByPeer(), "the node kept a connection whose key does not give the id it claims")

        // The victim's connection was neither replaced nor disturbed: it still carries lines both ways.
        try chatBarrier([0, 1], "after the false claim")
        let after = try XCTUnwrap(harness.view(1)?[harness.name(0)])
        XCTAssertEqual(after.state, .connected)
        XCTAssertEqual(after.id, victim)
        XCTAssertEqual(after.address, before.address)
        // Not checked in the log: its lines about connections are limited per address (4 per 10 s), and on lo
        // every test's connections come from 127.0.0.1 (tests run two at a time), so the line may be left out.
    }

    func testADNSSDRecordWithAVictimsIdNeitherRenamesItNorGetsDialedAsIt() throws {
        let all = try harness.start(3)
        try harness.eventually("full mesh of 3", seconds: 30) { harness.isFullMesh(all) }
        let ids = try all.map { try harness.status($0).id }
        let ordered = all.sorted { ids[$0] < ids[$1] }
        // The observer has the smallest id, so it is the one that dials the victim (§4.7).
        let (observer, attacker, victim) = (ordered[0], ordered[1], ordered[2])
        let lure = try harness.status(attacker)
        let forged = "it\(harness.runID)-forged"
        // Each publication under a name of its own: the same name published again soon after it was withdrawn may
        // give browsers no new event (Avahi's removal still in flight), and the observer would never look again.
        func publish(_ name: String) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/avahi-publish")
            p.arguments = [
                "-s", name, "_tavolo._tcp", String(lure.tcpPort), "id=\(ids[victim])", "v=3", "u=\(lure.udpPort)",
            ]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            publisher = p
        }

        // While the victim is connected, the record does not rename or redirect it.
        try publish(forged)
        try harness.eventually("the observer sees the forged record", seconds: 20) {
            harness.logTail(observer, lines: 80).contains("ignoring service \(forged)")
        }
        XCTAssertEqual(harness.view(observer)?[harness.name(victim)]?.state, .connected)
        publisher?.terminate()
        publisher?.waitUntilExit()

        // The kick: the victim is gone, the record comes back, the observer dials the lure as the victim's id, and
        // the handshake proves it is someone else.
        harness.kill9(victim)
        try harness.eventually("the observer loses the victim", seconds: 20) {
            harness.peers(observer)?.first { $0.id.hex == ids[victim] }?.state != .connected
        }
        try publish(forged + "-again")
        // Generous: the observer dials the victim's id again only when its backoff after the loss allows, and
        // tests run two at a time.
        try harness.eventually("the observer dials the lure and refuses it", seconds: 75) {
            harness.peers(observer)?.first { $0.id.hex == ids[victim] }?.reason?.contains("advertised id") == true
        }
        XCTAssertNotEqual(harness.peers(observer)?.first { $0.id.hex == ids[victim] }?.state, .connected)

        // The real victim comes back and is connected as itself.
        publisher?.terminate()
        publisher?.waitUntilExit()
        try harness.restart(victim)
        try harness.eventually("the real victim reconnects", seconds: 30) {
            harness.peers(observer)?.contains { $0.id.hex == ids[victim] && $0.state == .connected } == true
        }
        XCTAssertEqual(harness.peers(observer)?.first { $0.id.hex == ids[victim] }?.name, harness.name(victim))
    }
}
