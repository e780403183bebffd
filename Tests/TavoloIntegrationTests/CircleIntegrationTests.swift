@preconcurrency import Crypto
import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// Private circles with real `tavolod` processes (issue 15, item 4; PROTOCOL.md §3.8): two nodes of a circle
/// play; a node of no circle and a node with the circle's name but another passphrase are `other circle`, never
/// connect and never see the circle's tables; a stranger's handshake gets goodbye `circle-mismatch`.
final class CircleIntegrationTests: DaemonTestCase {
    override func tearDown() {
        unsetenv("TAVOLO_CIRCLE_PASSPHRASE")
        super.tearDown()
    }

    func passphraseFile(_ name: String, _ passphrase: String) throws -> String {
        let path = harness.root.appendingPathComponent(name).path
        try Data((passphrase + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testOnlyNodesWithTheCirclesPassphraseConnectAndSeeItsTables() throws {
        let circle = "cucina-\(harness.runID)"
        let good = try passphraseFile("good", "mescola le carte")
        let bad = try passphraseFile("bad", "taglia il mazzo")
        let member0 = try harness.startNode(extraArguments: ["--circle", circle, "--circle-passphrase-file", good])
        setenv("TAVOLO_CIRCLE_PASSPHRASE", "mescola le carte", 1)  // the second member reads it from the environment
        let member1 = try harness.startNode(extraArguments: ["--circle", circle])
        unsetenv("TAVOLO_CIRCLE_PASSPHRASE")
        let outsider = try harness.startNode()
        let impostor = try harness.startNode(extraArguments: ["--circle", circle, "--circle-passphrase-file", bad])

        // scrypt is slow on purpose (several seconds in a debug build on a loaded machine).
        try harness.eventually("every node is up", seconds: 90) {
            [member0, member1, outsider, impostor].allSatisfy { harness.peers($0) != nil }
        }
        try harness.eventually("the two members connect", seconds: 30) { harness.isFullMesh([member0, member1]) }
        try harness.eventually("members and the outsider see each other as other circle", seconds: 30) {
            harness.view(member0)?[harness.name(outsider)]?.state == .otherCircle
                && harness.view(outsider)?[harness.name(member0)]?.state == .otherCircle
        }
        // Same tag, another key: the dialer's handshake fails with circle-mismatch and it lists the impostor so.
        let ids = try [member0, impostor].map { try harness.status($0).id }
        let (dialer, dialed) = ids[0] < ids[1] ? (member0, impostor) : (impostor, member0)
        try harness.eventually("the handshake with the impostor fails as circle-mismatch", seconds: 30) {
            let p = harness.view(dialer)?[harness.name(dialed)]
            return p?.state == .otherCircle && p?.reason?.contains("circle-mismatch") == true
        }
        let text = try? runProcess(
            harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path,
            ["peers", "--control", harness.nodes[member0].controlPath])
        XCTAssertTrue(text?.stdout.contains("other circle") == true, text?.stdout ?? "")

        // A table of the circle: the other member sees it, the outsider and the impostor never do.
        let info = try client(member0).call(.host(game: "othello", players: 2))
        try harness.eventually("the other member sees the table", seconds: 15) {
            (try? client(member1).call(.tables).contains { $0.id == info.id }) == true
        }
        // No wait for "nothing happened": offers travel only on sessions, and neither has one with the host (the
        // last check below); the table is listed nowhere else.
        for i in [outsider, impostor] {
            XCTAssertFalse(try client(i).call(.tables).contains { $0.id == info.id }, "node \(i)")
            XCTAssertThrowsError(
                try client(i).call(.join(table: info.id, game: nil, seat: 1, bot: nil)))
            XCTAssertNotEqual(harness.view(i)?[harness.name(member0)]?.state, .connected)
        }

        // A stranger's plain Noise XX handshake is refused with the defined goodbye, in clear.
        let raw = try RawPeer(port: try harness.status(member0).tcpPort)
        let key = Curve25519.KeyAgreement.PrivateKey()
        XCTAssertThrowsError(
            try raw.noiseHandshake(
                key: key,
                handshake: Handshake(
                    version: 3, nodeId: RawPeer.nodeID(of: key), name: "stranger", udpPort: 9, capabilities: []))
        ) { error in
            XCTAssertTrue("\(error)".contains("circle-mismatch"), "\(error)")
        }
    }

    func testTavolodRefusesACircleWithoutAPassphraseSource() throws {
        let p = Process()
        p.executableURL = harness.binary
        p.arguments = [
            "--name", harness.name(7), "--state-dir", harness.root.appendingPathComponent("s7").path, "--circle", "x",
        ]
        p.standardInput = FileHandle.nullDevice  // no terminal to ask on
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertNotEqual(p.terminationStatus, 0)
        XCTAssertTrue(stderr.contains("TAVOLO_CIRCLE_PASSPHRASE"), stderr)
        XCTAssertEqual(stderr.split(separator: "\n").count, 1, stderr)
    }
}
