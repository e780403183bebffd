import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// What a stranger on the LAN sees of a game (issue 15, items 7 and 8): a live `tshark -i lo` capture of three real
/// nodes playing Spirits shows the Noise handshakes and ciphertext, no readable table message; the nodes' packet
/// logs still hold every frame in clear (the Tavolo handshakes included) and replay.
final class WireCaptureIntegrationTests: DaemonTestCase {
    var capture: Process?
    override var heartbeat: (interval: Double, timeout: Double) { (1, 20) }

    override func tearDown() {
        if let capture, capture.isRunning { capture.terminate() }
        super.tearDown()
    }

    func testALiveCaptureShowsNoReadableTableMessageWhileThePacketLogsDoAndReplay() throws {
        guard
            let tshark = ["/usr/bin/tshark", "/usr/local/bin/tshark"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { throw XCTSkip("tshark is not installed") }
        // Fixed ports, so the capture (filtered to these nodes: other tests run on lo too) starts before the
        // nodes and sees their handshakes.
        let ports = try (0..<3).map { _ in try freeTCPPort() }
        let pcap = harness.root.appendingPathComponent("lo.pcapng").path
        let stderrPath = harness.root.appendingPathComponent("tshark.err").path
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tshark)
        p.arguments = ["-i", "lo", "-w", pcap, "-f", ports.map { "port \($0)" }.joined(separator: " or ")]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try p.run()
        capture = p
        var started = false
        // Not failing here: a capture that cannot start is a skip (no permission) or a failure said below.
        try? eventuallySync("tshark capturing", within: 20, every: 0.1, failing: false) {
            started = ((try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "").contains("Capturing on")
            return started || !p.isRunning
        }
        let tsharkErr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        if !p.isRunning || !started {
            if tsharkErr.contains("ermission") || tsharkErr.contains("Operation not permitted") {
                throw XCTSkip("no permission to capture on lo: \(tsharkErr)")
            }
            XCTFail("tshark did not start capturing: \(tsharkErr)")
            return
        }

        let logs = (0..<3).map { harness.root.appendingPathComponent("node\($0).pcapng").path }
        for i in 0..<3 {
            _ = try harness.startNode(extraArguments: ["--port", String(ports[i]), "--packet-log", logs[i]])
        }
        try harness.eventually("full mesh of 3", seconds: 30) { harness.isFullMesh([0, 1, 2]) }
        let info = try client(0).call(.host(game: "spirits", players: 3))
        try harness.eventually("every node sees the table", seconds: 15) {
            (try? (0..<3).allSatisfy { i in
                try client(i).call(.tables).contains { $0.id == info.id }
            }) == true
        }
        for i in 0..<3 {
            _ = try client(i).call(.join(table: info.id, game: nil, seat: i, bot: "random"))
        }
        try harness.eventually("seats taken", seconds: 15) {
            (try? client(0).call(.tables).first { $0.id == info.id }?.freeSeats.isEmpty) == true
        }
        _ = try client(0).call(.start(table: info.id))
        try harness.eventually("the game ends on every node", seconds: 120) {
            (try? (0..<3).allSatisfy { i in
                try client(i).call(.state(table: info.id)).info.phase == .finished
            }) == true
        }
        for i in 0..<3 {  // goodbyes on the wire, and the packet logs closed
            harness.signal(i, SIGTERM)
            XCTAssertNotNil(harness.waitForExit(i, seconds: 20), "node \(i) did not stop on SIGTERM")
        }
        p.interrupt()
        p.waitUntilExit()

        let wire = try [UInt8](Data(contentsOf: URL(fileURLWithPath: pcap)))
        // Frames of version 3: Noise handshake messages (type 7), sealed application and compact frames (5, 8).
        XCTAssertTrue(wire.contains(subsequence: [0x54, 0x56, 3, 7]), "no Noise handshake in the capture")
        XCTAssertTrue(wire.contains(subsequence: [0x54, 0x56, 3, 5]), "no sealed table message in the capture")
        XCTAssertTrue(wire.contains(subsequence: [0x54, 0x56, 3, 8]), "no sealed move in the capture")
        for readable in ["table.", "\"type\"", "\"seat\"", "\"cards\"", harness.name(0), "spirits"] {
            XCTAssertFalse(wire.contains(subsequence: Array(readable.utf8)), "the capture shows \(readable)")
        }

        // The dissector reads the capture as what it is: Noise handshakes and sealed frames.
        let dissector = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Protocol/tavolo.lua").path
        let decoded = try? runProcess(
            tshark,
            ["-r", pcap, "-X", "lua_script:\(dissector)"] + TableIntegrationTests.heuristicFirst + ["-Y", "tavolo"])
        let summary = decoded?.stdout ?? ""
        XCTAssertTrue(summary.contains("noise-handshake"), "dissector: \(summary.prefix(2_000))")
        XCTAssertTrue(summary.contains("sealed application"), "dissector: \(summary.prefix(2_000))")
        XCTAssertFalse(summary.contains("table."), "dissector: \(summary.prefix(2_000))")

        // The host's packet log has the deal and the Tavolo handshakes in clear, and replays.
        let hostLog = try [UInt8](Data(contentsOf: URL(fileURLWithPath: logs[0])))
        XCTAssertTrue(hostLog.contains(subsequence: Array("table.deal".utf8)), "the packet log lost the deal")
        // Moves and confirmations travel compact (§13): frames of type 8 in the log, shown as their JSON.
        XCTAssertTrue(hostLog.contains(subsequence: [0x54, 0x56, 1, 8]), "no compact frame in the packet log")
        let tavolo = harness.binary.deletingLastPathComponent().appendingPathComponent("tavolo").path
        let confirms = try? runProcess(tavolo, ["log", "show", logs[0], "--type", "table.confirm"])
        XCTAssertEqual(confirms?.status, 0, confirms?.stderr ?? "")
        XCTAssertTrue(
            confirms?.stdout.contains("stateHash=") == true, "confirm not shown: \(confirms?.stdout.prefix(500) ?? "")")
        XCTAssertTrue(
            confirms?.stdout.contains(" tables ") == true, "no service shown: \(confirms?.stdout.prefix(500) ?? "")")
        let shown = try? runProcess(tavolo, ["log", "show", logs[0], "--type", "handshake"])
        XCTAssertEqual(shown?.status, 0, shown?.stderr ?? "")
        XCTAssertTrue(shown?.stdout.contains(harness.name(1)) == true, "handshake not shown: \(shown?.stdout ?? "")")
        let replay = try? runProcess(tavolo, ["log", "replay", logs[0]])
        XCTAssertEqual(replay?.status, 0, (replay?.stdout ?? "") + (replay?.stderr ?? ""))
        XCTAssertTrue(replay?.stdout.contains("confirmed") == true, replay?.stdout ?? "")
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs anywhere in these bytes.
    func contains(subsequence needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        let first = needle[0]
        var i = 0
        while i <= count - needle.count {
            if self[i] == first, Array(self[i..<(i + needle.count)]) == needle { return true }
            i += 1
        }
        return false
    }
}
