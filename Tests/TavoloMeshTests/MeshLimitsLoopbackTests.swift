import Foundation
import Logging
import NIOConcurrencyHelpers
import TavoloProtocol
import TavoloTestSupport
import XCTest

@testable import TavoloMesh

/// The §3.4 bounds on a real node over loopback (the rules themselves: `ResourceLimitTests`).
extension MeshLoopbackTests {
    /// A handshake padded with leading whitespace (valid JSON), so it can be sent in parts.
    func paddedHandshake(_ id: NodeID, padding: Int) throws -> [UInt8] {
        let json =
            Array(repeating: UInt8(ascii: " "), count: padding)
            + (try WireJSON.encode(Handshake(nodeId: id, name: "padded", udpPort: 1, capabilities: [])))
        var frame: [UInt8] = []
        FrameHeader(type: .handshake, length: UInt32(json.count)).encode(into: &frame)
        return frame + json
    }

    func pendingBytes(_ node: MeshNode) async -> Int {
        (try? await node.loop.submit { node.pending.totalBytes }.get()) ?? -1
    }

    /// A dial whose connect fails leaves nothing behind (its channel never became active, so only the handlers'
    /// removal tells the node), and says why in words (issue 34: `peers` once showed NIO's `NIOConnectionError`).
    func testFailedDialsAreForgotten() async throws {
        let a = try await makeNode("a", id: NodeID(hex: "00000000000000000000000000000000"))
        let unreachable = try XCTUnwrap(NodeID(hex: "ffffffffffffffffffffffffffffffff"))
        let port = try freeTCPPort()
        a.discovered(
            DiscoveredNode(
                name: "nobody", address: "127.0.0.1", port: port,
                txt: [TXTKey.id: unreachable.hex, TXTKey.version: "1", TXTKey.udpPort: String(port)]))
        try await eventually("the dial failed") {
            await a.peerList().first?.reason?.contains("cannot connect") ?? false
        }
        let reason = await a.peerList().first?.reason
        XCTAssertEqual(
            reason,
            "cannot connect to 127.0.0.1:\(port): nothing listens there (the node may have stopped or restarted on "
                + "another port); retrying")
        try await eventually("no session left") {
            ((try? await a.loop.submit { a.sessions.count }.get()) ?? -1) == 0
        }
    }

    /// The peer would close the connection over a body that is not JSON, so `post` refuses to send one.
    func testPostRefusesABodyThatIsNotJSON() async throws {
        let a = try await makeNode("a")
        let b = try await makeNode("b")
        introduce([a, b])
        try await eventually("connected") { await connectedCount(a) == 1 }
        let inbox = Inbox(b)
        a.post(Array("{nope".utf8), service: .tables, to: [b.id])
        a.post(Array(#"{"after":1}"#.utf8), service: .tables, to: [b.id])
        try await eventually("the valid message") { inbox.messages.count == 1 }
        XCTAssertEqual(inbox.messages.first?.body, Array(#"{"after":1}"#.utf8))
        let stillConnected = await connectedCount(a)
        XCTAssertEqual(stillConnected, 1)
    }

    func testTooManyPendingConnectionsFromOneAddressAreRefusedAsBusy() async throws {
        let a = try await makeNode("a") { $0.maxPendingPerAddress = 2 }
        let first = try RawPeer(port: a.tcpPort)
        let second = try RawPeer(port: a.tcpPort)
        // Each node handshake read proves the node has accepted that connection.
        guard case .handshake = try first.readFrame(), case .handshake = try second.readFrame() else {
            return XCTFail("no handshake from the node")
        }
        let third = try RawPeer(port: a.tcpPort)
        XCTAssertEqual(try third.readGoodbye().code, .busy)
        XCTAssertTrue(third.isClosedByPeer())
        // The two waiting ones are unaffected and may still complete their handshake.
        let smallID = try XCTUnwrap(NodeID(hex: "00000000000000000000000000000004"))
        try first.send(.handshake(Handshake(nodeId: smallID, name: "first", udpPort: 1, capabilities: [])))
        try await eventually("first connected") { await connectedCount(a) == 1 }
        _ = second
    }

    func testTheOldestPendingConnectionIsCutWhenTogetherTheyHoldTooMuch() async throws {
        let a = try await makeNode("a") { $0.maxPendingBytes = 1_000 }
        let oldID = try XCTUnwrap(NodeID(hex: "00000000000000000000000000000005"))
        let youngID = try XCTUnwrap(NodeID(hex: "00000000000000000000000000000006"))
        let oldBytes = try paddedHandshake(oldID, padding: 700)
        let youngBytes = try paddedHandshake(youngID, padding: 700)
        // Each alone fits the budget (about 820 bytes); 600 of each together do not.
        XCTAssertLessThan(youngBytes.count, 1_000)
        let old = try RawPeer(port: a.tcpPort)
        old.send(Array(oldBytes.prefix(600)))
        try await eventually("600 bytes pending") { await pendingBytes(a) == 600 }
        let young = try RawPeer(port: a.tcpPort)
        young.send(Array(youngBytes.prefix(600)))
        XCTAssertEqual(try old.readGoodbye().code, .busy)
        XCTAssertTrue(old.isClosedByPeer())
        try await eventually("only the young one's bytes count") { await pendingBytes(a) == 600 }
        young.send(Array(youngBytes.dropFirst(600)))
        try await eventually("young connected") { await connectedCount(a) == 1 }
        let pendingAfter = await pendingBytes(a)
        XCTAssertEqual(pendingAfter, 0, "an admitted connection no longer counts")
    }

    func testAFirstFrameLargerThanAHandshakeIsRefused() async throws {
        let a = try await makeNode("a")
        let big = try RawPeer(port: a.tcpPort)
        var header: [UInt8] = []
        FrameHeader(type: .handshake, length: UInt32(FrameLimits.maxHandshakePayload + 1)).encode(into: &header)
        big.send(header)
        XCTAssertEqual(try big.readGoodbye().code, .frameTooLarge)
    }

    func testLostPeersBeyondTheBoundAreForgotten() async throws {
        let a = try await makeNode("a") { $0.maxLostPeers = 1 }
        let ids = try ["00000000000000000000000000000007", "00000000000000000000000000000008"].map {
            try XCTUnwrap(NodeID(hex: $0))
        }
        for (i, id) in ids.enumerated() {
            var peer: RawPeer? = try RawPeer(port: a.tcpPort)
            try peer?.send(.handshake(Handshake(nodeId: id, name: "gone\(i)", udpPort: 1, capabilities: [])))
            try await eventually("gone\(i) connected") {
                await a.peerList().contains { $0.id == id && $0.state == .connected }
            }
            peer = nil  // closes the socket
            try await eventually("gone\(i) lost") { await a.peerList().contains { $0.id == id && $0.state == .lost } }
        }
        try await eventually("only the most recently lost is remembered") {
            await a.peerList().map(\.id) == [ids[1]]
        }
    }

    func testConnectionLogLinesAreLimitedPerAddress() async throws {
        let lines = NIOLockedValueBox<[String]>([])
        var logger = Logger(label: "test.log") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .info
        let a = try await makeNode("a", logger: logger)
        for _ in 0..<20 {
            let garbage = try RawPeer(port: a.tcpPort)
            garbage.send(Array("GET / HTTP/1.1\r\n\r\n".utf8))
            XCTAssertEqual(try garbage.readGoodbye().code, .badFrame)
            XCTAssertTrue(garbage.isClosedByPeer())
        }
        try await eventually("a line was logged") { lines.withLockedValue { $0.contains { $0.contains("bad-frame") } } }
        let logged = lines.withLockedValue { $0.filter { $0.contains("127.0.0.1") && $0.contains("closed") } }
        // One per 10 s per address: even a very slow run of 20 connections cannot need more than a few.
        XCTAssertGreaterThanOrEqual(logged.count, 1)
        XCTAssertLessThan(logged.count, 5, "\(logged)")
    }
}

extension MeshLoopbackTests {
    /// A host that makes up a new node id for every connection still gets only a few lines per interval.
    func testMadeUpIdsDoNotMultiplyLogLines() async throws {
        let lines = NIOLockedValueBox<[String]>([])
        var logger = Logger(label: "test.log") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .info
        let a = try await makeNode("a", id: NodeID(hex: "ff000000000000000000000000000000"), logger: logger)
        for i in 0..<40 {
            var bytes = [UInt8](repeating: 0, count: 16)
            bytes[15] = UInt8(i + 1)
            let id = try XCTUnwrap(NodeID(bytes: bytes))
            let peer = try RawPeer(port: a.tcpPort)
            try peer.send(.handshake(Handshake(nodeId: id, name: "mint\(i)", udpPort: 1, capabilities: [])))
            try peer.send(.goodbye(Goodbye(code: .shutdown, reason: "bye")))
            XCTAssertTrue(peer.isClosedByPeer())
        }
        try await eventually("all forty seen and lost") {
            await a.peerList().filter { $0.state == .lost }.count == 40
        }
        let logged = lines.withLockedValue { $0.filter { $0.contains("mint") } }
        // Unlimited, this would be 80 lines (connected and lost for each); 32 per 10 s per address at most.
        XCTAssertGreaterThanOrEqual(logged.count, 1)
        XCTAssertLessThanOrEqual(logged.count, 64, "\(logged.count) lines")
    }
}

/// Keeps every log line (message only) for a test.
struct CapturingLogHandler: LogHandler {
    let lines: NIOLockedValueBox<[String]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.withLockedValue { $0.append(event.message.description) }
    }
}

final class MeshConfigurationTests: XCTestCase {
    /// A node whose handshake every peer would refuse does not start.
    func testANameOrCapabilityPeersWouldRefuseIsAnError() async throws {
        for configure in [
            { (c: inout MeshConfiguration) in c.name = "bad\nname" },
            { (c: inout MeshConfiguration) in c.name = String(repeating: "n", count: 64) },
            { (c: inout MeshConfiguration) in c.capabilities = ["Upper"] },
        ] {
            var config = MeshConfiguration(name: "fine")
            config.host = "127.0.0.1"
            configure(&config)
            do {
                let node = try await MeshNode.start(id: .random(), config: config, logger: Logger(label: "test.config"))
                await node.shutdown()
                XCTFail("started with \(config.name) \(config.capabilities)")
            } catch let e as MeshError {
                guard case .invalidConfiguration = e else { return XCTFail("\(e)") }
            }
        }
    }
}
