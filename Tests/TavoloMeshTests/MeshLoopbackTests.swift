import Foundation
import Logging
import TavoloProtocol
import TavoloTestSupport
import XCTest

@testable import TavoloMesh

/// Real TCP and UDP on 127.0.0.1 between in-process nodes; discovery is fed by hand (the DNS-SD path is
/// covered by the daemon integration tests).
final class MeshLoopbackTests: LoopbackMeshTestCase {
    func testFullMeshOfFourAndOrderedReliableMessages() async throws {
        var made: [MeshNode] = []
        for i in 0..<4 { made.append(try await makeNode("n\(i)")) }
        introduce(made)
        for n in made { try await eventually("\(n.config.name) has 3 peers") { await connectedCount(n) == 3 } }
        let (a, b) = (made[0], made[1])
        let inbox = Inbox(b)
        for i in 0..<100 { try await a.send(["n": i], service: .tables, to: b.id) }
        try await eventually("100 messages") { inbox.messages.count == 100 }
        let messages = inbox.messages
        XCTAssertEqual(try messages.map { try $0.decode([String: Int].self)["n"] ?? -1 }, Array(0..<100))
        XCTAssertTrue(messages.allSatisfy { $0.from == a.id && $0.channel == .reliable })
        let sentTo = try await a.broadcast(["all": 1], service: .tables)
        XCTAssertEqual(sentTo, 3)
    }

    func testDatagramsArriveAndStaleOnesAreDropped() async throws {
        let a = try await makeNode("a")
        let b = try await makeNode("b")
        introduce([a, b])
        try await eventually("connected") { await connectedCount(b) == 1 }
        let inbox = Inbox(b)
        // Through the API first (sequence numbers from 1).
        try await a.send(["v": 0], service: .tables, to: b.id, on: .unreliable)
        try await eventually("API datagram") { inbox.messages.count == 1 }
        XCTAssertEqual(inbox.messages.last?.channel, .unreliable)
        // Then forged by hand from a's address with chosen sequence numbers.
        func datagram(_ seq: UInt64, _ v: Int) throws -> [UInt8] {
            try Frame.datagram(
                Datagram(sender: a.id, seq: seq, service: .tables, body: Array("{\"v\":\(v)}".utf8))
            ).encoded()
        }
        // Each step waits for the counters, not for a clock: UDP on loopback keeps order, but the test does not
        // rely on it.
        sendUDP(try datagram(100, 1), port: b.udpPort)
        try await eventually("datagram 100") { inbox.messages.count == 2 }
        sendUDP(try datagram(50, 2), port: b.udpPort)  // stale
        sendUDP(try datagram(100, 3), port: b.udpPort)  // duplicate: stale too
        try await eventually("two stale") { await b.statistics().datagramsStale == 2 }
        // A body that is not JSON is rejected (check 1), even with a fresh sequence number.
        let payload = a.id.bytes + [0, 0, 0, 0, 0, 0, 0, 102] + Array("{nope".utf8)
        var notJSON: [UInt8] = []
        FrameHeader(type: .datagram, length: UInt32(payload.count)).encode(into: &notJSON)
        sendUDP(notJSON + payload, port: b.udpPort)
        try await eventually("not JSON rejected") { await b.statistics().datagramsRejected == 1 }
        sendUDP(try datagram(101, 4), port: b.udpPort)
        try await eventually("three datagrams") { inbox.messages.count == 3 }
        let messages = inbox.messages
        XCTAssertEqual(try messages.map { try $0.decode([String: Int].self)["v"] }, [0, 1, 4])
        XCTAssertTrue(messages.allSatisfy { $0.channel == .unreliable })
        let stats = await b.statistics()
        XCTAssertEqual(stats.datagramsStale, 2)
        XCTAssertEqual(stats.datagramsRejected, 1)
        // Received counts accepted datagrams only: every datagram is in exactly one of the three counters.
        XCTAssertEqual(stats.datagramsReceived, 3)
        let sent = await a.statistics().datagramsSent
        XCTAssertEqual(sent, 1)
        do {
            try await a.send(String(repeating: "x", count: 2_000), service: .tables, to: b.id, on: .unreliable)
            XCTFail("oversized datagram was sent")
        } catch let e as MeshError {
            guard case .datagramTooLarge = e else { return XCTFail("\(e)") }
        }
    }

    func testDatagramFromUnknownSenderIsRejected() async throws {
        let b = try await makeNode("b")
        let stranger = NodeID.random()
        let empty = Datagram(sender: stranger, seq: 1, service: .tables, body: [])
        sendUDP(try Frame.datagram(empty).encoded(), port: b.udpPort)
        sendUDP(Array("garbage".utf8), port: b.udpPort)
        try await eventually("both rejected") { await b.statistics().datagramsRejected == 2 }
        let stats = await b.statistics()
        XCTAssertEqual(stats.datagramsReceived, 0)
        XCTAssertEqual(stats.datagramsStale, 0)
    }

    /// Garbage, a wrong version and an oversized length each get a goodbye with a reason and a close,
    /// while the link between the two real nodes stays up.
    func testBadPeersAreCutOffAndTheMeshStaysWhole() async throws {
        let a = try await makeNode("a")
        let b = try await makeNode("b")
        introduce([a, b])
        try await eventually("connected") { await connectedCount(a) == 1 }

        let garbage = try RawPeer(port: a.tcpPort)
        garbage.send(Array("hello, is this HTTP?\r\n\r\n".utf8))
        XCTAssertEqual(try garbage.readGoodbye().code, .badFrame)
        XCTAssertTrue(garbage.isClosedByPeer())

        let wrongVersion = try RawPeer(port: a.tcpPort)
        var header: [UInt8] = []
        FrameHeader(version: 9, type: .handshake, length: 0).encode(into: &header)
        wrongVersion.send(header)
        XCTAssertEqual(try wrongVersion.readGoodbye().code, .versionMismatch)
        XCTAssertTrue(wrongVersion.isClosedByPeer())

        let huge = try RawPeer(port: a.tcpPort)
        var big: [UInt8] = []
        FrameHeader(type: .application, length: UInt32(FrameLimits.maxReliablePayload + 1)).encode(into: &big)
        huge.send(big)
        XCTAssertEqual(try huge.readGoodbye().code, .frameTooLarge)

        let noHandshake = try RawPeer(port: a.tcpPort)
        try noHandshake.send(.application(.tables, Array("{}".utf8)))
        XCTAssertEqual(try noHandshake.readGoodbye().code, .handshakeRequired)

        // A handshake that is JSON but breaks §4.1 (upper-case id, port out of range, port written as 1.0).
        for bad in [
            #"{"capabilities":[],"name":"x","nodeId":"0100000000000000000000000000000A","udpPort":1,"version":1}"#,
            #"{"capabilities":[],"name":"x","nodeId":"01000000000000000000000000000000","udpPort":70000,"version":1}"#,
            #"{"capabilities":[],"name":"x","nodeId":"01000000000000000000000000000000","udpPort":1.0,"version":1}"#,
        ] {
            let invalid = try RawPeer(port: a.tcpPort)
            var frame: [UInt8] = []
            FrameHeader(type: .handshake, length: UInt32(bad.utf8.count)).encode(into: &frame)
            invalid.send(frame + Array(bad.utf8))
            XCTAssertEqual(try invalid.readGoodbye().code, .badFrame, bad)
            XCTAssertTrue(invalid.isClosedByPeer(), bad)
        }

        // An application frame whose payload is not JSON, after a good handshake.
        let notJSON = try RawPeer(port: a.tcpPort)
        let smallID = try XCTUnwrap(NodeID(hex: "00000000000000000000000000000003"))
        try notJSON.send(.handshake(Handshake(nodeId: smallID, name: "liar", udpPort: 1, capabilities: [])))
        try await eventually("liar connected") { await connectedCount(a) == 2 }
        var nope: [UInt8] = []
        FrameHeader(type: .application, length: 5).encode(into: &nope)
        notJSON.send(nope + Array("{nope".utf8))
        XCTAssertEqual(try notJSON.readGoodbye().code, .badFrame)
        XCTAssertTrue(notJSON.isClosedByPeer())
        try await eventually("liar lost") { await connectedCount(a) == 1 }

        let aPeers = await connectedCount(a)
        let bPeers = await connectedCount(b)
        XCTAssertEqual(aPeers, 1)
        XCTAssertEqual(bPeers, 1)
        let inbox = Inbox(b)
        try await a.send(["still": 1], service: .tables, to: b.id)
        try await eventually("message after the attacks") { inbox.messages.count == 1 }
    }

    func testHandshakeRulesWrongDialerSelfAndDuplicate() async throws {
        let mid = try XCTUnwrap(NodeID(hex: "80000000000000000000000000000000"))
        let a = try await makeNode("a", id: mid)

        let larger = try RawPeer(port: a.tcpPort)
        try larger.send(
            .handshake(
                Handshake(
                    nodeId: NodeID(hex: "ff000000000000000000000000000000")!, name: "big", udpPort: 1, capabilities: [])
            ))
        XCTAssertEqual(try larger.readGoodbye().code, .wrongDialer)

        let me = try RawPeer(port: a.tcpPort)
        try me.send(.handshake(Handshake(nodeId: mid, name: "me", udpPort: 1, capabilities: [])))
        XCTAssertEqual(try me.readGoodbye().code, .selfConnection)

        let smallID = NodeID(hex: "01000000000000000000000000000000")!
        let first = try RawPeer(port: a.tcpPort)
        try first.send(.handshake(Handshake(nodeId: smallID, name: "small", udpPort: 1, capabilities: [])))
        try await eventually("small connected") { await connectedCount(a) == 1 }
        let second = try RawPeer(port: a.tcpPort)
        try second.send(.handshake(Handshake(nodeId: smallID, name: "small", udpPort: 1, capabilities: [])))
        // The newer connection wins; the older one is told why it is closed.
        XCTAssertEqual(try first.readGoodbye().code, .duplicateConnection)
        try await eventually("still one peer, connected") {
            let peers = await a.peerList()
            return peers.count == 1 && peers[0].state == .connected
        }
        _ = second
    }

    func testSilentPeerIsLostAfterTimeout() async throws {
        let a = try await makeNode("a")
        let silent = try RawPeer(port: a.tcpPort)
        let smallID = NodeID(hex: "00000000000000000000000000000001")!
        try silent.send(.handshake(Handshake(nodeId: smallID, name: "silent", udpPort: 1, capabilities: [])))
        try await eventually("silent connected") { await connectedCount(a) == 1 }
        // How long it takes is PeerSessionTests' business (virtual time); here: it happens, with the right goodbye.
        try await eventually("silent lost") { await a.peerList().first?.state == .lost }
        XCTAssertEqual(try silent.readGoodbye().code, .timeout)
        let reason = await a.peerList().first?.reason ?? ""
        XCTAssertTrue(reason.contains("timeout"), reason)
    }

    func testShutdownSaysGoodbyeAndPeersSeeItLost() async throws {
        let a = try await makeNode("a")
        let b = try await makeNode("b")
        introduce([a, b])
        try await eventually("connected") { await connectedCount(a) == 1 }
        await b.shutdown()
        try await eventually("a sees b lost") { await a.peerList().first?.state == .lost }
        let reason = await a.peerList().first?.reason ?? ""
        XCTAssertTrue(reason.contains("shutdown"), reason)
    }

    func testReconnectsWhenThePeerComesBack() async throws {
        let a = try await makeNode("a")
        var b = try await makeNode("b")
        introduce([a, b])
        try await eventually("connected") { await connectedCount(a) == 1 }
        let bID = b.id
        await b.shutdown()
        try await eventually("lost") { await a.peerList().first?.state == .lost }
        b = try await makeNode("b", id: bID)
        introduce([a, b])
        try await eventually("reconnected") {
            let ca = await connectedCount(a)
            let cb = await connectedCount(b)
            return ca == 1 && cb == 1
        }
    }

    func testSlowReaderIsDroppedInsteadOfGrowingMemory() async throws {
        let a = try await makeNode("a") { $0.maxQueuedBytes = 256 << 10 }
        let reader = try RawPeer(port: a.tcpPort)
        let smallID = NodeID(hex: "00000000000000000000000000000002")!
        try reader.send(.handshake(Handshake(nodeId: smallID, name: "slow", udpPort: 1, capabilities: [])))
        try await eventually("slow connected") { await connectedCount(a) == 1 }
        let chunk = String(repeating: "x", count: 60_000)
        var dropped = false
        for _ in 0..<2_000 {
            do { try await a.send(chunk, service: .tables, to: smallID) } catch {
                dropped = true
                break
            }
        }
        XCTAssertTrue(dropped, "a peer that never reads was never dropped")
        let reason = await a.peerList().first?.reason ?? ""
        XCTAssertTrue(reason.contains("slow"), reason)
    }
}

/// Collects a node's messages for the whole test (an AsyncStream has one consumer and ends when it is cancelled).
final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [MeshMessage] = []
    private var task: Task<Void, Never>?

    init(_ node: MeshNode) {
        task = Task { [weak self] in
            for await e in node.events {
                if case .message(let m) = e { self?.append(m) }
            }
        }
    }

    private func append(_ m: MeshMessage) { lock.withLock { received.append(m) } }
    var messages: [MeshMessage] { lock.withLock { received } }
}
