import Foundation
import TavoloPacketLog
import TavoloProtocol
import XCTest

final class PcapngRoundTripTests: XCTestCase {
    func testFramesComeBackWithTimesDirectionsAndAddresses() throws {
        let records = Fixtures.records()
        let log = try PacketLog.decode(Fixtures.pcapng(records))
        XCTAssertEqual(log.issues, [])
        XCTAssertEqual(log.format, "pcapng")
        XCTAssertEqual(log.frames.count, records.count)
        XCTAssertEqual(log.packets, records.count + 1, "the 70 kB frame takes two segments")
        for (r, f) in zip(records, log.frames) {
            XCTAssertEqual(f.bytes, r.bytes)
            XCTAssertEqual(f.direction, r.direction)
            XCTAssertEqual(f.transport, r.transport)
            XCTAssertEqual(f.timeNanos, r.timeNanos)
            XCTAssertNotNil(f.frame, f.error ?? "")
            let (src, dst) = r.direction == .sent ? (r.local, r.remote) : (r.remote, r.local)
            XCTAssertEqual(
                f.destination, dst.isUnspecified ? PacketEndpoint(ip: "127.0.0.1", port: Int(dst.port)) : dst)
            if r.transport == .tcp { XCTAssertEqual(f.source, src) }
        }
        // A UDP socket bound to 0.0.0.0 is shown at the address its TCP connections to that peer use.
        XCTAssertEqual(log.frames[8].source, PacketEndpoint(ip: "127.0.0.1", port: 7001))
    }

    func testPeersAreNamedFromHandshakes() throws {
        let log = try PacketLog.decode(Fixtures.pcapng(Fixtures.records()))
        XCTAssertEqual(log.directory.local?.name, "alpha")
        XCTAssertEqual(
            log.frames.map { log.peer(of: $0) },
            [
                "bravo", "bravo", "charlie", "charlie", "bravo", "bravo", "bravo", "charlie", "bravo", "bravo",
                "charlie",
                "bravo", "charlie",
            ])
        XCTAssertEqual(log.frames(matching: PacketLogFilter(peer: "charlie")).count, 5)
        XCTAssertEqual(log.frames(matching: PacketLogFilter(peer: "2222")).count, 5)
        XCTAssertEqual(log.frames(matching: PacketLogFilter(type: "join")).count, 1)
        XCTAssertEqual(log.frames(matching: PacketLogFilter(type: "heartbeat")).count, 1)
        XCTAssertEqual(log.frames(matching: PacketLogFilter(channel: "unreliable")).count, 2)
        let byPeer = log.applicationMessagesByPeer()
        XCTAssertEqual(byPeer["bravo"]?.count, 3)
        XCTAssertEqual(byPeer["charlie"]?.map(\.frame), [8, 11])
    }

    /// `tavolo log show` hides heartbeats unless asked, and `--table` keeps one table's messages (issue 34).
    func testHeartbeatsHiddenUnlessAskedAndOneTablesMessages() throws {
        var records = Fixtures.records(bigBody: 100)
        let last = try XCTUnwrap(records.last)
        for (i, table) in ["3a1b2c4d-1-1", "3a1b2c4d-1-2", "99aa88bb-2-1"].enumerated() {
            let body = Array(#"{"number":\#(i),"table":"\#(table)","type":"table.confirm"}"#.utf8)
            records.append(
                PacketRecord(
                    timeNanos: last.timeNanos + UInt64(i + 1) * 1_000, direction: .received, transport: .tcp,
                    local: Fixtures.alphaTCP, remote: Fixtures.bravoTCP,
                    bytes: Fixtures.frame(.application(.tables, body))))
        }
        let log = try PacketLog.decode(Fixtures.pcapng(records))
        let all = log.frames(matching: PacketLogFilter())
        let quiet = log.frames(matching: PacketLogFilter(heartbeats: false))
        XCTAssertEqual(all.count - quiet.count, 2, "the heartbeat and its ack are left out")
        XCTAssertFalse(quiet.contains { $0.typeName.hasPrefix("heartbeat") })
        XCTAssertEqual(log.frames(matching: PacketLogFilter(type: "heartbeat", heartbeats: false)).count, 1)
        XCTAssertEqual(log.frames(matching: PacketLogFilter(table: "3a1b2c4d-1-2")).map(\.tableID), ["3a1b2c4d-1-2"])
        XCTAssertEqual(log.frames(matching: PacketLogFilter(table: "3a1b2c4d")).count, 2, "an id's start")
    }

    func testStatistics() throws {
        let records = Fixtures.records(bigBody: 100)
        let log = try PacketLog.decode(Fixtures.pcapng(records))
        let s = PacketLogStatistics(log)
        XCTAssertEqual(s.frames, 13)
        XCTAssertEqual(s.bytes, records.map(\.bytes.count).reduce(0, +))
        XCTAssertEqual(
            s.byType.mapValues(\.frames),
            [
                "handshake": 4, "heartbeat": 1, "heartbeat-ack": 1, "application": 3, "datagram": 2, "goodbye": 2,
            ])
        XCTAssertEqual(s.byType["handshake"]?.bytes, records.prefix(4).map(\.bytes.count).reduce(0, +))
        XCTAssertEqual(s.byChannel.mapValues(\.frames), ["reliable": 11, "unreliable": 2])
        XCTAssertEqual(s.byPeer.mapValues(\.frames), ["bravo": 8, "charlie": 5])
        XCTAssertEqual(s.byKind.mapValues(\.frames), ["hello": 1, "join": 1, "big": 1])
        XCTAssertEqual(s.byDirection.mapValues(\.frames), ["sent": 7, "received": 6])
        let json = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(PacketLogReport.statsJSON(s).utf8)) as? [String: Any])
        XCTAssertEqual(json["frames"] as? Int, 13)
        XCTAssertEqual((json["byType"] as? [String: [String: Int]])?["datagram"]?["frames"], 2)
        XCTAssertNotNil(json["byChannel"])
        XCTAssertNotNil(json["byPeer"])
    }

    func testShowTextAndJSON() throws {
        let log = try PacketLog.decode(Fixtures.pcapng(Fixtures.records(bigBody: 10)))
        let lines = PacketLogReport.showText(log, frames: log.frames)
        XCTAssertEqual(lines.first, "capture of node alpha (00112233445566778899aabbccddeeff)")
        let join = try XCTUnwrap(lines.first { $0.contains("application:join") })
        XCTAssertTrue(join.contains("received"), join)
        XCTAssertTrue(join.contains("charlie"), join)
        XCTAssertTrue(join.contains("seat=2 type=join"), join)
        XCTAssertTrue(join.contains(" tables "), "the service column (§3.9): \(join)")
        let dg = try XCTUnwrap(lines.first { $0.contains(" datagram ") })
        XCTAssertTrue(dg.contains("unreliable") && dg.contains("seq=1") && dg.contains(#"body={"x":1}"#), dg)
        let json = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(PacketLogReport.showJSON(log, frames: log.frames).utf8))
                as? [String: Any])
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.count, 13)
        XCTAssertEqual(frames[0]["type"] as? String, "handshake")
        XCTAssertEqual((frames[0]["fields"] as? [String: Any])?["name"] as? String, "alpha")
        XCTAssertEqual(frames[0]["peerId"] as? String, Fixtures.bravoID.hex)
        XCTAssertNil(frames[0]["service"], "a handshake names no service")
        XCTAssertEqual(frames.first { $0["kind"] as? String == "join" }?["service"] as? String, "tables")
        XCTAssertEqual((json["issues"] as? [Any])?.count, 0)
    }

    func testPacketLogFileAndEndpoints() throws {
        let path = Fixtures.temporaryPath("roundtrip.pcapng")
        let file = try PacketLogFile(path: path)
        file.flushThreshold = 100
        for r in Fixtures.records() { try file.append(r) }
        try file.close()
        try file.close()
        let log = try PacketLog.read(path: path)
        XCTAssertEqual(log.frames.count, 13)
        XCTAssertEqual(log.issues, [])
        XCTAssertEqual(PacketEndpoint(ip: "fe80::1:2%lo", port: 1)?.ipString, "fe80::1:2")
        XCTAssertEqual(PacketEndpoint(ip: "::ffff:1.2.3.4", port: 9)?.description, "[::ffff:102:304]:9")
        XCTAssertEqual(PacketEndpoint(ip: "127.0.0.1", port: 80)?.description, "127.0.0.1:80")
        XCTAssertNil(PacketEndpoint(ip: "1.2.3", port: 1))
        XCTAssertNil(PacketEndpoint(ip: "1::2::3", port: 1))
    }

    func testUnwritablePathsAreErrorsNotCrashes() {
        XCTAssertThrowsError(try PacketLogFile(path: "/nonexistent-dir/x.pcapng")) { e in
            XCTAssertTrue("\(e)".contains("cannot open packet log /nonexistent-dir/x.pcapng"), "\(e)")
        }
        if FileManager.default.fileExists(atPath: "/dev/full") {
            XCTAssertThrowsError(try PacketLogFile(path: "/dev/full")) { e in
                XCTAssertTrue("\(e)".contains("cannot write packet log /dev/full"), "\(e)")
            }
        }
    }
}
