import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers
import TavoloProtocol
import TavoloTestSupport
import XCTest

@testable import TavoloMesh

/// §3.4: connections from one address that begin their handshake, a minute. The rule alone, then a real keyed node
/// that a host floods with fresh keys over loopback while an established peer plays on.
final class NewConnectionRateTests: LoopbackMeshTestCase {
    typealias Key = Curve25519.KeyAgreement.PrivateKey

    func testAnAddressGetsItsConnectionsAMinuteAndIsSaidOverOnce() {
        var rate = NewConnectionRate(perMinute: 3)
        let t0 = ContinuousClock.now
        XCTAssertEqual(
            (0..<3).map { _ in rate.opened(from: "10.0.0.9", now: t0) }, Array(repeating: .admitted, count: 3))
        XCTAssertEqual(rate.opened(from: "10.0.0.9", now: t0), .refused(firstThisMinute: true))
        XCTAssertEqual(rate.opened(from: "10.0.0.9", now: t0 + .seconds(59)), .refused(firstThisMinute: false))
        XCTAssertEqual(rate.opened(from: "10.0.0.8", now: t0), .admitted, "another address has its own")
        XCTAssertEqual(rate.opened(from: "10.0.0.9", now: t0 + .seconds(60)), .admitted, "a new minute")
    }

    /// One keyed node `a`; `b` (smaller id, so it dials) connects first. Then ten fresh keys from the same address
    /// run the Noise handshake: with 4 a minute, b's connection and three of them begin theirs; the other seven get
    /// `busy` in clear, are counted, and logged once. b's messages still go both ways.
    func testFreshKeysFromOneAddressGetTheirShareAndAnEstablishedPeerPlaysOn() async throws {
        let lines = NIOLockedValueBox<[String]>([])
        var logger = Logger(label: "test.rate") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .info
        let keyA = Key()
        let idA = try XCTUnwrap(NodeID.derived(from: keyA.publicKey))
        let a = try await makeNode("a", id: idA, logger: logger) {
            $0.staticKey = keyA
            $0.maxNewConnectionsPerAddressPerMinute = 4
        }
        let keyB = RawPeer.strangerKey(below: [idA])
        let b = try await makeNode("b", id: try XCTUnwrap(NodeID.derived(from: keyB.publicKey))) { $0.staticKey = keyB }
        introduce([a, b])
        try await eventually("a has b") { await connectedCount(a) == 1 }
        try await eventually("b has a") { await connectedCount(b) == 1 }

        var admitted: [RawPeer] = []
        var refused = 0
        for k in 0..<10 {
            let key = RawPeer.strangerKey(below: [idA])
            let raw = try RawPeer(port: a.tcpPort)
            let hello = Handshake(
                version: 3, nodeId: RawPeer.nodeID(of: key), name: "fresh\(k)", udpPort: 9, capabilities: [])
            do {
                _ = try raw.noiseHandshake(key: key, handshake: hello)
                admitted.append(raw)
            } catch {
                XCTAssertTrue("\(error)".contains("busy"), "\(error)")
                refused += 1
            }
        }
        XCTAssertEqual(admitted.count, 3, "b's connection and three fresh keys began their handshake this minute")
        XCTAssertEqual(refused, 7)
        try await eventually("the refusals are counted") { await a.statistics().connectionsRefused == 7 }
        let said = lines.withLockedValue { $0.filter { $0.contains("new a minute") } }
        XCTAssertEqual(said.count, 1, "\(said)")

        let (inA, inB) = (Inbox(a), Inbox(b))
        try await a.send(["to": 1], service: .tables, to: b.id)
        try await b.send(["to": 0], service: .tables, to: a.id)
        try await eventually("b's game goes on both ways") { inA.messages.count == 1 && inB.messages.count == 1 }
        _ = admitted
    }
}
