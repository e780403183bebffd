import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloTable
import TavoloTestSupport
import XCTest

/// A hostile peer against real `tavolod` nodes on loopback (issue 12): a raw client that completes the handshake
/// and then says what it likes, or floods the node before any handshake. Figures measured here are printed (and
/// belong in scripts/bench); the assertions are bounds with a wide margin, never timings.
final class HostileIntegrationTests: DaemonTestCase {

    /// An authenticated stranger: a peer with its own key that dialed `port`, ran the real Noise handshake
    /// (PROTOCOL.md §3.7) and had its Tavolo handshake accepted, so every frame it sends next is sealed and reaches
    /// the node's table layer. Its id is below every node's, so the node accepts its connection (§4.7).
    func attacker(port: Int, name: String = "evil") throws -> RawPeer {
        let ids = try harness.nodes.indices.map { try XCTUnwrap(NodeID(hex: try harness.status($0).id)) }
        let key = RawPeer.strangerKey(below: ids)
        let raw = try RawPeer(port: port)
        try raw.noiseHandshake(
            key: key,
            handshake: Handshake(
                version: 3, nodeId: RawPeer.nodeID(of: key), name: name, udpPort: 9, capabilities: ["tables"]))
        return raw
    }

    func sendTable(_ raw: RawPeer, _ m: TableMessage) throws {
        try raw.send(Frame.application(.tables, try CanonicalJSON.encode(m)))
    }

    func rssKiB(_ pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    func waitFor(
        _ what: String, seconds: Double = 15, file: StaticString = #filePath, line: UInt = #line,
        _ condition: () throws -> Bool
    ) throws {
        try eventuallySync(what, within: seconds, file: file, line: line, condition)
    }

    /// deal, a forged offer, move, stop and reject from a connected non-member, to both members, mid-game:
    /// nothing changes, and the human on node 0 plays the game to its end against node 1's bot.
    func testANonMembersTableMessagesChangeNothingAndTheGameFinishes() throws {
        try harness.start(2)
        try harness.eventually("full mesh of 2", seconds: 30) { harness.isFullMesh([0, 1]) }
        let info = try client(0).call(.host(game: "othello", players: 2))
        try waitFor("node 1 sees the table") {
            try client(1).call(.tables).contains { $0.id == info.id }
        }
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 0, bot: nil))
        _ = try client(1).call(.join(table: info.id, game: nil, seat: 1, bot: "random"))
        try waitFor("seats taken") {
            try client(0).call(.tables).first { $0.id == info.id }?.freeSeats.isEmpty == true
        }
        _ = try client(0).call(.start(table: info.id))
        var state = try client(0).call(.state(table: info.id))
        try waitFor("black to play") {
            state = try client(0).call(.state(table: info.id))
            return state.turn == 0 && !state.legalMoves.isEmpty
        }
        let hash = try XCTUnwrap(state.stateHash)
        let legal = try XCTUnwrap(state.legalMoves.first)
        var forged = state.info
        forged.host = try XCTUnwrap(NodeID(bytes: [UInt8](repeating: 0, count: 15) + [1]))
        forged.revision += 10
        forged.phase = .stopped
        let attacks: [TableMessage] = [
            .deal(table: info.id, number: 1, cards: [1, 2, 3]), .offer(forged),
            .move(table: info.id, number: 0, seat: 0, move: legal, stateHash: hash),
            .stop(table: info.id, code: .hashMismatch, reason: "forged"),
            .reject(table: info.id, number: 0, code: .illegal, reason: "forged"),
        ]
        var attackers: [RawPeer] = []
        for node in 0..<2 {
            let raw = try attacker(port: try harness.status(node).tcpPort)
            for m in attacks { try sendTable(raw, m) }
            attackers.append(raw)
        }
        // The node's answer to anything the attacker sent would be on these connections: only heartbeats and the
        // table's offer (which every connected node gets, §9.1) may come; a reject or a stop would be an answer.
        for raw in attackers {
            raw.setTimeout(0.3)
            let until = Date().addingTimeInterval(1)
            while Date() < until, let frame = try? raw.readFrame() {
                let decoded: TableMessage?
                switch frame {
                case .application(.tables, let b): decoded = try? TableMessage.decode(b, form: .json)
                case .compact(.tables, let b): decoded = try? TableMessage.decode(b, form: .compact)
                default: continue  // records sync, chat
                }
                guard let table = decoded else { continue }
                let body = (try? table.wireBytes()) ?? []
                if case .offer = table { continue }
                XCTFail("answered a non-member: \(String(decoding: body, as: UTF8.self))")
            }
        }
        for node in 0..<2 {
            let seen = try client(node).call(.state(table: info.id))
            XCTAssertEqual(seen.info.host, info.host, "node \(node)")
            XCTAssertEqual(seen.info.phase, .playing, "node \(node)")
        }
        // A table message too large to read, one that is no table message, then a flood of forged moves: all
        // counted, none acted on, and the log says so in a few lines, not one per message (§9.1).
        let oversized =
            #"{"type":"table.stop","table":"\#(info.id.rawValue)","code":"x","reason":""#
            + String(repeating: "a", count: TableMessage.maxBodyBytes) + #""}"#
        try attackers[0].send(Frame.application(.tables, Array(oversized.utf8)))
        try attackers[0].send(Frame.application(.tables, Array(#"{"type":"table.nope","table":"x"}"#.utf8)))
        let flood = 500
        for n in 0..<flood {
            try sendTable(attackers[0], .move(table: info.id, number: n, seat: 0, move: legal, stateHash: hash))
        }
        try waitFor("node 0 counted every refused message") {
            try client(0).call(.status).tableMessagesRefused >= attacks.count + 2 + flood
        }
        let log = try String(contentsOfFile: harness.nodes[0].logPath, encoding: .utf8)
        let lines = log.split(separator: "\n").filter { $0.contains("from evil") }
        XCTAssertLessThanOrEqual(lines.count, 12, "rate-limited:\n\(lines.suffix(5).joined(separator: "\n"))")
        XCTAssertGreaterThan(lines.count, 0, "the refusals are logged")
        // Node 0's human plays every move to the end.
        var finished = false
        for _ in 0..<200 where !finished {
            let s = try client(0).call(.state(table: info.id))
            if s.info.phase == .finished { finished = true } else if s.info.phase != .playing { break }
            if s.turn == 0, let move = s.legalMoves.first {
                _ = try? client(0).call(.move(table: info.id, move: move))
            } else {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        XCTAssertTrue(finished, "the game finished on node 0")
        try waitFor("node 1 finished too") {
            try client(1).call(.state(table: info.id)).info.phase == .finished
        }
    }

    /// A 511-deep move (1 KiB) costs the node nothing: the connection gets goodbye bad-frame, the node answers.
    func testADeeplyNestedMoveIsABadFrameAndTheNodeKeepsAnswering() throws {
        try harness.start(2)
        try harness.eventually("full mesh of 2", seconds: 30) { harness.isFullMesh([0, 1]) }
        let raw = try attacker(port: try harness.status(0).tcpPort)
        let deep = String(repeating: "[", count: 511) + "0" + String(repeating: "]", count: 511)
        let body = #"{"move":\#(deep),"number":0,"seat":0,"stateHash":"00","table":"x-1","type":"table.move"}"#
        try raw.send(Frame.application(.tables, Array(body.utf8)))
        let goodbye = try raw.readUntilGoodbye().goodbye
        XCTAssertEqual(goodbye.code, .badFrame, goodbye.reason)
        XCTAssertTrue(goodbye.reason.contains("deeper"), goodbye.reason)
        let start = Date()
        XCTAssertNotNil(harness.peers(0), "the node answers peers")
        print("bench: peers answered \(Int(Date().timeIntervalSince(start) * 1000)) ms after a 511-deep move")
        XCTAssertTrue(harness.isFullMesh([0, 1]))
    }

    /// Half Noise messages and sealed handshakes with names far over the limit, from many connections: memory stays
    /// bounded (the 1 MiB pre-handshake budget, 32 pending connections per address) and the node answers `peers`.
    /// The long names come from authenticated strangers: each ran the real Noise handshake with its own key.
    func testHalfFrameAndLongNameFloodsKeepMemoryBoundedAndTheNodeAnswers() throws {
        try harness.start(1)
        try harness.eventually("node up", seconds: 30) { harness.peers(0) != nil }
        let port = try harness.status(0).tcpPort
        let nodeID = try XCTUnwrap(NodeID(hex: try harness.status(0).id))
        let pid = harness.pid(0)
        let before = try rssKiB(pid)
        // The largest Noise handshake message a node accepts (§3.7), announced and half sent.
        let announced = FrameLimits.maxHandshakePayload + 96
        let half =
            [FrameHeader.magic.0, FrameHeader.magic.1, 3, 7, 0, 0]
            + withUnsafeBytes(of: UInt32(announced).bigEndian, Array.init)
            + [UInt8](repeating: 0x42, count: announced / 2)
        let strangers = (0..<4).map { _ in RawPeer.strangerKey(below: [nodeID]) }
        var peak = before
        var refusedLongNames = 0
        for round in 0..<8 {
            var open: [RawPeer] = []
            for i in 0..<60 {
                guard let raw = try? RawPeer(port: port, timeout: 1) else { continue }
                if round % 2 == 0 {
                    raw.send(half)
                } else {
                    let key = strangers[i % strangers.count]
                    let long = Handshake(
                        version: 3, nodeId: RawPeer.nodeID(of: key), name: String(repeating: "x", count: 8_000),
                        udpPort: 9, capabilities: [])
                    if (try? raw.noiseHandshake(key: key, handshake: long)) != nil,
                        (try? raw.readGoodbye())?.code == .badFrame
                    {
                        refusedLongNames += 1
                    }
                }
                open.append(raw)
            }
            peak = max(peak, try rssKiB(pid))
            open.removeAll()
        }
        XCTAssertGreaterThan(refusedLongNames, 0, "no sealed long-name handshake was answered with bad-frame")
        let start = Date()
        XCTAssertNotNil(harness.peers(0), "the node answers peers after the floods")
        let ms = Int(Date().timeIntervalSince(start) * 1000)
        peak = max(peak, try rssKiB(pid))
        print("bench: flood RSS \(before) KiB before, \(peak) KiB peak; peers answered in \(ms) ms")
        XCTAssertLessThan(peak - before, 32 * 1024, "RSS grew by more than 32 MiB during the floods")
        XCTAssertTrue(harness.nodes[0].process.isRunning)
    }
}
