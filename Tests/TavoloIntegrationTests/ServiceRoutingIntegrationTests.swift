import Foundation
import Logging
import TavoloControl
import TavoloCore
import TavoloMesh
import TavoloProtocol
import TavoloTestSupport
import XCTest

@testable import TavoloDaemon

/// Services on the wire (PROTOCOL.md §3.6, §3.9) against a real `tavolod`: a message names its service in its
/// first byte, one the node does not have is counted and the connection goes on, and a node of version 2 (before
/// services) is told `version-mismatch` before anything of it is read.
final class ServiceRoutingIntegrationTests: DaemonTestCase {
    /// A peer with its own key that ran the real Noise handshake with node 0 and was admitted: what it sends next is
    /// sealed and reaches the node's router. Its id is below the node's, so the node accepts its connection (§4.7).
    func stranger(name: String) throws -> RawPeer {
        let key = RawPeer.strangerKey(below: [try XCTUnwrap(NodeID(hex: try harness.status(0).id))])
        let raw = try RawPeer(port: try harness.status(0).tcpPort)
        try raw.noiseHandshake(
            key: key,
            handshake: Handshake(
                version: 3, nodeId: RawPeer.nodeID(of: key), name: name, udpPort: 9, capabilities: ["tables"]))
        return raw
    }

    func chat(_ text: String) throws -> Frame {
        .application(.chat, try WireJSON.encode(ChatMessage(room: "lobby", text: text)))
    }

    func testMessagesForNoServiceOfTheNodeAreCountedAndTheConnectionGoesOn() throws {
        try harness.start(1)
        try harness.eventually("node up", seconds: 30) { harness.peers(0) != nil }
        let raw = try stranger(name: "prober")
        try harness.eventually("the prober is connected", seconds: 15) {
            harness.peers(0)?.first { $0.name == "prober" }?.state == .connected
        }
        let confirm = try CompactMessage(
            kind: .shortConfirm, table: "3a1b2c4d-1-1", number: 5, hash: [UInt8](repeating: 7, count: 8)
        ).encoded()
        let chatJSON = try WireJSON.encode(ChatMessage(room: "lobby", text: "lost"))
        let unrouted: [Frame] = [
            .application(Service(rawValue: 0x2A), chatJSON),  // unassigned
            .application(Service(rawValue: 0x00), chatJSON),  // unassigned
            .compact(.chat, confirm),  // chat has no compact form
            .compact(.records, confirm),  // nor have records
        ]
        for f in unrouted { try raw.send(f) }
        // The barrier: sent after them on the same connection, so once it is in, they were all handled.
        try raw.send(try chat("after the probes"))
        try harness.eventually("the chat line after the probes arrives", seconds: 15) {
            let log = (try? client(0).call(.chatLog(room: "lobby", follow: false))) ?? []
            return log.contains { $0.text == "after the probes" }
        }
        let status = try client(0).call(.status)
        XCTAssertEqual(status.unroutedMessages, unrouted.count)
        XCTAssertEqual(status.chatMessagesDropped, 0)
        XCTAssertEqual(status.tableMessagesRefused, 0, "nothing reached the tables")
        let log = try client(0).call(.chatLog(room: nil, follow: false))
        XCTAssertFalse(log.contains { $0.text == "lost" }, "a message for another service is not chat")
        XCTAssertEqual(
            harness.peers(0)?.first { $0.name == "prober" }?.state, .connected, "an unknown service closes nothing")
    }

    /// A version-2 node dialing this one (from a stale DNS-SD record, say) is refused at its first Noise message
    /// with goodbye `version-mismatch`, in clear: no key exists yet (§3.6, §3.7).
    func testAVersion2PeerIsToldVersionMismatchInClear() throws {
        try harness.start(1)
        try harness.eventually("node up", seconds: 30) { harness.peers(0) != nil }
        let key = RawPeer.strangerKey(below: [try XCTUnwrap(NodeID(hex: try harness.status(0).id))])
        let old = try RawPeer(port: try harness.status(0).tcpPort)
        old.wireVersion = 2
        let hello = Handshake(
            version: 2, nodeId: RawPeer.nodeID(of: key), name: "old", udpPort: 9, capabilities: ["tables"])
        XCTAssertThrowsError(try old.noiseHandshake(key: key, handshake: hello)) { error in
            let said = "\(error)"
            XCTAssertTrue(said.contains("node answered type 4"), said)
            XCTAssertTrue(said.contains("version-mismatch"), said)
            XCTAssertTrue(said.contains("version 2"), said)
        }
        XCTAssertTrue(old.isClosedByPeer())
    }
}

/// The router alone (no network): each service gets what it takes, and only that; the rest is counted.
final class ServiceRouterTests: XCTestCase {
    final class Inbox: @unchecked Sendable {
        private let lock = NSLock()
        private var got: [(Service, ServiceRouter.Delivery)] = []
        func add(_ m: MeshMessage) { lock.withLock { got.append((m.service, ServiceRouter.Delivery(m))) } }
        var all: [(Service, ServiceRouter.Delivery)] { lock.withLock { got } }
    }

    let peer = NodeID(hex: String(repeating: "0", count: 31) + "2")!

    func message(_ service: Service, _ channel: MeshChannel, _ form: MessageForm) -> MeshMessage {
        MeshMessage(from: peer, channel: channel, service: service, form: form, body: Array("{}".utf8))
    }

    func router(_ inbox: Inbox) -> ServiceRouter {
        ServiceRouter(
            [
                .tables: .init(takes: [.json, .compact, .datagram]) { inbox.add($0) },
                .records: .init(takes: [.json]) { inbox.add($0) },
                .chat: .init(takes: [.json]) { inbox.add($0) },
            ], logger: Logger(label: "test"))
    }

    func testEachServiceGetsWhatItTakesAndTheRestIsCounted() {
        let inbox = Inbox()
        let r = router(inbox)
        let routed = [
            message(.tables, .reliable, .json), message(.tables, .reliable, .compact),
            message(.tables, .unreliable, .json), message(.tables, .unreliable, .compact),
            message(.records, .reliable, .json), message(.chat, .reliable, .json),
        ]
        let unrouted = [
            message(.records, .reliable, .compact), message(.chat, .reliable, .compact),
            message(.records, .unreliable, .json), message(.chat, .unreliable, .json),
            message(Service(rawValue: 0), .reliable, .json), message(Service(rawValue: 4), .reliable, .json),
            message(Service(rawValue: 0xFF), .unreliable, .compact),
        ]
        for m in routed + unrouted { r.route(m) }
        XCTAssertEqual(inbox.all.map(\.0), routed.map(\.service))
        XCTAssertEqual(
            inbox.all.map(\.1), [.json, .compact, .datagram, .datagram, .json, .json], "each in the form it came")
        XCTAssertEqual(r.unroutedMessages, unrouted.count)
    }

    /// The service bytes of §3.9, and the names the logs and `tavolo log` show.
    func testTheServiceBytesAreTheSpecs() {
        XCTAssertEqual(Service.assigned.map(\.rawValue), [1, 2, 3])
        XCTAssertEqual(Service.assigned.map(\.description), ["tables", "records", "chat"])
        XCTAssertEqual(Service(rawValue: 0x2A).description, "service 0x2a")
    }
}
