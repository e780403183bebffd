import Crypto
import Foundation
import TavoloControl
import TavoloDaemon
import TavoloMesh
import TavoloProtocol
import TavoloSimulation
import TavoloTestSupport
import XCTest

/// Tavolo across machines: each node in its own scripts/lan test host (a network namespace with its own address
/// on a bridge, its own system bus and its own avahi-daemon on eth0), so discovery, addresses, datagrams and lost
/// links are those of separate computers on one Ethernet.
final class LanIntegrationTests: XCTestCase {
    var lan: LanTestbedHarness?
    var harness: DaemonHarness!

    override func tearDown() {
        harness?.stopAll()
        lan?.down()
    }

    /// Makes `hosts` test hosts and starts one node in each (node i-1 in tvh i).
    func startOnePerHost(_ hosts: Int) throws {
        let lan = try LanTestbedHarness(hosts: hosts)
        self.lan = lan
        harness = try DaemonHarness(heartbeatInterval: 0.3, heartbeatTimeout: 1.5)
        for h in 1...hosts { _ = try harness.startNode(testHost: try lan.holder(h)) }
    }

    func ip(_ address: String) -> String {
        String(address[..<(address.lastIndex(of: ":") ?? address.endIndex)])
    }

    func testSixHostsFormAFullMeshAndSeeEachOtherAtTheirOwnAddresses() throws {
        try startOnePerHost(6)
        try harness.eventually("full mesh of six hosts", seconds: 30) { harness.isFullMesh(Array(0..<6)) }
        for i in 0..<6 {
            let view = try XCTUnwrap(harness.view(i))
            XCTAssertEqual(view.count, 5)
            for j in 0..<6 where j != i {
                let peer = try XCTUnwrap(view[harness.name(j)])
                XCTAssertEqual(ip(peer.address), "10.77.0.\(j + 1)", "node \(i) sees node \(j) at \(peer.address)")
            }
        }
    }

    /// A Spirits! game between six hosts (`tavolo simulate --hosts`): all agree, and the game is the engine-only
    /// game of the same joint seed.
    func testSpiritsAcrossSixHostsMatchesTheEngineOnlyGame() throws {
        let lan = try LanTestbedHarness(hosts: 6)
        self.lan = lan
        let tavolo = try locateTavolod().deletingLastPathComponent().appendingPathComponent("tavolo").path
        let sim = try runProcess(
            tavolo,
            ["simulate", "--hosts", "--peers", "6", "--game", "spirits", "--games", "1", "--seed", "21", "--json"])
        XCTAssertEqual(sim.status, 0, sim.stderr)
        let report = try JSONDecoder().decode(Simulation.Report.self, from: Data(sim.stdout.utf8))
        XCTAssertEqual(report.network, "test-hosts")
        XCTAssertEqual(report.nodes.map(\.host), (1...6).map { "tvh\($0)" })
        XCTAssertEqual(report.nodes.map(\.address), (1...6).map { "10.77.0.\($0)" })
        let game = try XCTUnwrap(report.games.first)
        XCTAssertTrue(game.agree, "\(game.stopped ?? "") \(game.finalHashes)")
        XCTAssertEqual(game.finalHashes.count, 6)
        XCTAssertEqual(Set(game.finalHashes.values).count, 1)
        let seed = try XCTUnwrap(game.jointSeed)
        let playout = try runProcess(
            tavolo,
            [
                "playout", "spirits", "--players", "6", "--games", "1", "--seed", String(seed), "--bots", report.bot,
                "--json",
            ])
        let engine = try JSONSerialization.jsonObject(with: Data(playout.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(engine?["finalHash"] as? String, game.finalHashes.values.first, "seed \(seed)")
    }

    /// A datagram from one host to another arrives; one claiming the same sender but sealed without the session's
    /// key is dropped and counted as rejected, whether it comes from a third host's address or from the sender's own
    /// (PROTOCOL.md §4.6: an address proves nothing, the key does).
    func testDatagramsFlowBetweenHostsAndAForgedSourceIsDropped() throws {
        try startOnePerHost(3)
        try harness.eventually("full mesh of three hosts", seconds: 30) { harness.isFullMesh([0, 1, 2]) }
        let sender = try harness.status(0)
        let before = try harness.status(1).stats
        let reply = try ControlClient(path: harness.nodes[0].controlPath).call(
            .datagram(peer: harness.name(1), text: "hello from tvh1"))
        XCTAssertEqual(reply.sent, 1)
        var accepted = before
        try harness.eventually("the datagram arrives at tvh2", seconds: 10) {
            accepted = (try? harness.status(1).stats) ?? before
            return accepted.datagramsReceived > before.datagramsReceived
        }
        XCTAssertEqual(accepted.datagramsRejected, before.datagramsRejected)
        XCTAssertEqual(accepted.datagramsStale, before.datagramsStale)

        // The same sender id with a fresh sequence number, sealed under a key that is not the session's.
        let udpPort = try harness.status(1).udpPort
        let frame = try datagramFrame(sender: sender.id, seq: 1_000_000, text: "forged")
        let file = harness.root.appendingPathComponent("forged.bin")
        try Data(frame).write(to: file)
        var last = accepted
        for host in ["tvh3", "tvh1"] {
            try lan?.lan(["exec", host, "/bin/bash", "-c", "cat \(file.path) > /dev/udp/10.77.0.2/\(udpPort)"])
            var after = last
            // Every datagram is counted once: as received (accepted), stale or rejected (PROTOCOL.md §7).
            try harness.eventually("tvh2 counts the forged datagram from \(host)", seconds: 10) {
                after = (try? harness.status(1).stats) ?? last
                return after.datagramsRejected + after.datagramsReceived > last.datagramsRejected
                    + last.datagramsReceived
            }
            XCTAssertEqual(after.datagramsRejected, last.datagramsRejected + 1, "not rejected from \(host)")
            XCTAssertEqual(after.datagramsReceived, last.datagramsReceived, "accepted from \(host)")
            last = after
        }
    }

    /// A host whose cable is pulled is lost by heartbeat on both sides; plugged back, the mesh is whole again.
    func testACutHostIsLostAndTheMeshHealsWhenItComesBack() throws {
        try startOnePerHost(4)
        try harness.eventually("full mesh of four hosts", seconds: 30) { harness.isFullMesh([0, 1, 2, 3]) }
        try lan?.lan(["cut", "tvh3"])
        try harness.eventually("the others lose tvh3", seconds: 20) {
            [0, 1, 3].allSatisfy { i in harness.view(i)?[harness.name(2)]?.state != .connected }
        }
        try harness.eventually("tvh3 loses the others", seconds: 20) {
            guard let v = harness.view(2) else { return false }
            return [0, 1, 3].allSatisfy { v[harness.name($0)]?.state != .connected }
        }
        XCTAssertTrue(harness.isFullMesh([0, 1, 3]), "the hosts still plugged in stay connected")
        try lan?.lan(["heal", "tvh3"])
        try harness.eventually("the mesh is whole again", seconds: 30) { harness.isFullMesh([0, 1, 2, 3]) }
    }

    /// Avahi restarted inside one host: that host's node registers again and browses again, so a node started
    /// afterwards on another host finds it, and it finds that node.
    func testANodeSurvivesItsHostsAvahiRestart() throws {
        try startOnePerHost(2)
        try harness.eventually("two hosts meshed", seconds: 30) { harness.isFullMesh([0, 1]) }
        // Three times: Avahi's compatibility library used to crash the node on a daemon loss about one time in
        // three (uninitialised callback fields, see Sources/CDNSSD/shim.h).
        for _ in 0..<3 {
            try lan?.lan(["avahi", "tvh1", "stop"])
            Thread.sleep(forTimeInterval: 1)
            try lan?.lan(["avahi", "tvh1", "start"])
            Thread.sleep(forTimeInterval: 1)
            XCTAssertTrue(
                harness.nodes[0].process.isRunning, "the node of tvh1 died when its Avahi went: \(harness.logTail(0))")
        }
        let lan = try XCTUnwrap(lan)
        _ = try harness.startNode(testHost: try lan.holder(2))
        try harness.eventually("a new node on tvh2 and the node of tvh1 find each other", seconds: 30) {
            harness.isFullMesh([0, 1, 2])
        }
    }

    /// A datagram of version 2's shape (PROTOCOL.md §4.6) claiming to come from `sender`, sealed under a random
    /// key instead of the session's: what anyone on the LAN who knows the id can send.
    func datagramFrame(sender: String, seq: UInt64, text: String) throws -> [UInt8] {
        var id: [UInt8] = []
        var hex = Substring(sender)
        while hex.count >= 2 {
            id.append(try XCTUnwrap(UInt8(hex.prefix(2), radix: 16)))
            hex = hex.dropFirst(2)
        }
        XCTAssertEqual(id.count, 16)
        let body = Array("{\"text\":\"\(text)\"}".utf8)
        let prefix = id + withUnsafeBytes(of: seq.bigEndian, Array.init)
        let length = UInt32(prefix.count + body.count + 16)
        let header: [UInt8] = [0x54, 0x56, 2, 6, 0, 0] + withUnsafeBytes(of: length.bigEndian, Array.init)
        let nonce = try ChaChaPoly.Nonce(data: [0, 0, 0, 0] + withUnsafeBytes(of: seq.littleEndian, Array.init))
        let box = try ChaChaPoly.seal(
            body, using: SymmetricKey(size: .bits256), nonce: nonce, authenticating: header + prefix)
        return header + prefix + Array(box.ciphertext) + Array(box.tag)
    }
}
