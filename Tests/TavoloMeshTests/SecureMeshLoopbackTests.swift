import Crypto
import Foundation
import Logging
import NIOCore
import TavoloProtocol
import TavoloTestSupport
import XCTest

@testable import TavoloMesh

/// v2 nodes (a static key each) over real TCP and UDP on 127.0.0.1: the Noise handshake, sealed frames and
/// datagrams end to end, and the packet log still seeing plaintext.
final class SecureMeshLoopbackTests: LoopbackMeshTestCase {
    typealias Key = Curve25519.KeyAgreement.PrivateKey

    final class Recorder: FrameRecorder, @unchecked Sendable {
        private let lock = NSLock()
        private var captured: [CapturedFrame] = []
        func record(_ frame: CapturedFrame) { lock.withLock { captured.append(frame) } }
        var frames: [CapturedFrame] { lock.withLock { captured } }
    }

    /// A v2 node: its static key, its id derived from it.
    func makeKeyedNode(_ name: String, key: Key = Key(), recorder: Recorder? = nil) async throws -> MeshNode {
        try await makeNode(name, id: XCTUnwrap(NodeID.derived(from: key.publicKey))) { config in
            config.staticKey = key
            config.recorder = recorder
        }
    }

    func testFourKeyedNodesMeshAndExchangeSealedMessagesThatThePacketLogSeesInClear() async throws {
        let recorder = Recorder()
        var made = [try await makeKeyedNode("s0", recorder: recorder)]
        for i in 1..<4 { made.append(try await makeKeyedNode("s\(i)")) }
        XCTAssertEqual(made[0].txtRecord[TXTKey.version], "3")
        introduce(made)
        for n in made { try await eventually("\(n.config.name) has 3 peers") { await connectedCount(n) == 3 } }
        let (a, b) = (made[0], made[1])
        let inbox = Inbox(b)
        for i in 0..<50 { try await a.send(["n": i], service: .tables, to: b.id) }
        try await a.send(["d": 1], service: .tables, to: b.id, on: .unreliable)
        try await eventually("50 messages and a datagram") { inbox.messages.count == 51 }
        let reliable = inbox.messages.filter { $0.channel == .reliable }
        XCTAssertEqual(try reliable.map { try $0.decode([String: Int].self)["n"] ?? -1 }, Array(0..<50))
        XCTAssertEqual(inbox.messages.filter { $0.channel == .unreliable }.count, 1)
        // The packet log records the plaintext frames (v1 layout): handshakes with their ids, the messages.
        let tcp = recorder.frames.filter { $0.transport == .tcp }
        let handshakes = tcp.compactMap { f -> Handshake? in
            guard case .handshake(let h)? = try? Frame.parse(f.bytes, maxPayload: 1 << 20) else { return nil }
            return h
        }
        XCTAssertEqual(Set(handshakes.filter { $0.nodeId != a.id }.map(\.nodeId)), Set(made.dropFirst().map(\.id)))
        let sentApplications = tcp.filter { $0.direction == .sent && $0.bytes[3] == MessageType.application.rawValue }
        XCTAssertEqual(sentApplications.count, 50)
        XCTAssertTrue(sentApplications.allSatisfy { (try? Frame.parse($0.bytes, maxPayload: 1 << 20)) != nil })
    }

    func testForgedAndReplayedDatagramsAreDroppedAndCounted() async throws {
        let recorder = Recorder()
        let a = try await makeKeyedNode("a", recorder: recorder)
        let b = try await makeKeyedNode("b")
        introduce([a, b])
        try await eventually("connected") { await connectedCount(b) == 1 }
        let inbox = Inbox(b)
        try await a.send(["v": 1], service: .tables, to: b.id, on: .unreliable)
        try await eventually("the first datagram") { inbox.messages.count == 1 }
        // The packet log has it in clear; the bytes on the wire are what a's datagram key made of it.
        let clear = try XCTUnwrap(recorder.frames.last { $0.transport == .udp && $0.direction == .sent }).bytes
        guard case .datagram(let d) = try Frame.parse(clear, maxPayload: 1200) else { return XCTFail("\(clear)") }
        XCTAssertEqual(d.seq, 1)
        let key = try await a.eventLoop.submit { a.peers[b.id]?.datagramKeys?.send }.get()
        // What is sealed is the body with its service byte (§4.6): the service is hidden too.
        let body = Datagram.Body(service: d.service, message: d.body).bytes
        XCTAssertEqual(body.first, Service.tables.rawValue)
        let sealed: [UInt8] = DatagramSeal.seal(body: body, sender: a.id, seq: 1, key: try XCTUnwrap(key))
        // Replayed as it was: authentic, but not newer than the last accepted.
        sendUDP(sealed, port: b.udpPort)
        try await eventually("the replay counted stale") { await b.statistics().datagramsStale == 1 }
        // A flipped byte anywhere (header, id, seq, body, tag), with a fresh seq so only authentication can refuse.
        var fresh = sealed
        fresh[33] = 0x7f
        for position in [4, 12, 33, 40, fresh.count - 1] {
            var forged = fresh
            forged[position] ^= 0x01
            sendUDP(forged, port: b.udpPort)
        }
        // Sealed under a key that is not the session's; and a clear v1 datagram.
        let stranger = (0..<32).map { _ in UInt8.random(in: 0...255) }
        sendUDP(
            DatagramSeal.seal(body: [1] + Array("{}".utf8), sender: a.id, seq: 1 << 40, key: stranger) as [UInt8],
            port: b.udpPort)
        let clearDatagram = Datagram(sender: a.id, seq: 1 << 41, service: .tables, body: Array("{}".utf8))
        sendUDP(try Frame.datagram(clearDatagram).encoded(), port: b.udpPort)
        try await eventually("seven rejected") { await b.statistics().datagramsRejected == 7 }
        try await a.send(["v": 2], service: .tables, to: b.id, on: .unreliable)
        try await eventually("the next real datagram") { inbox.messages.count == 2 }
        XCTAssertEqual(try inbox.messages.map { try $0.decode([String: Int].self)["v"] }, [1, 2])
        let stats = await b.statistics()
        XCTAssertEqual(stats.datagramsReceived, 2)
        XCTAssertEqual(stats.datagramsStale, 1)
        XCTAssertEqual(stats.datagramsRejected, 7)
    }

    func testAnIdThatIsNotTheKeysIsRefusedAtStart() async throws {
        var config = MeshConfiguration(name: "liar")
        config.host = "127.0.0.1"
        config.staticKey = Key()
        do {
            let node = try await MeshNode.start(id: .random(), config: config, logger: Logger(label: "test.liar"))
            nodes.append(node)
            XCTFail("started with an id its key does not give")
        } catch let e as MeshError {
            guard case .invalidConfiguration = e else { return XCTFail("\(e)") }
        }
    }
}
