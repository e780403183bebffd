import Crypto
import Foundation
import TavoloNoise
import TavoloTestSupport
import XCTest

/// Replays Protocol/vectors/noise.json (written by the Python `noiseprotocol` package) byte for byte.
final class NoiseVectorTests: XCTestCase {
    typealias PrivateKey = Curve25519.KeyAgreement.PrivateKey

    private struct Pair {
        var initiator: NoiseHandshakeState
        var responder: NoiseHandshakeState
    }

    private func vectors() throws -> [String: Any] {
        let data = try ProtocolVectors.data("noise.json")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func party(_ v: [String: Any], _ name: String) throws -> [String: String] {
        try XCTUnwrap(v[name] as? [String: String])
    }

    private func key(_ hex: String?) throws -> PrivateKey {
        try PrivateKey(rawRepresentation: try XCTUnwrap(hex.flatMap(bytes(hex:))))
    }

    private func handshake(_ v: [String: Any]) throws -> Pair {
        let i = try party(v, "initiator")
        let r = try party(v, "responder")
        let prologue = try XCTUnwrap(bytes(hex: try XCTUnwrap(v["prologue"] as? String)))
        XCTAssertEqual(prologue, TavoloKeyDerivation.prologue)
        XCTAssertEqual(v["protocol"] as? String, NoiseHandshakeState.protocolName)
        return Pair(
            initiator: NoiseHandshakeState(
                initiator: true, prologue: prologue, staticKey: try key(i["static"]),
                ephemeral: try key(i["ephemeral"])),
            responder: NoiseHandshakeState(
                initiator: false, prologue: prologue, staticKey: try key(r["static"]),
                ephemeral: try key(r["ephemeral"])))
    }

    func testHandshakeMessagesAndHashMatchThePythonImplementation() throws {
        let v = try vectors()
        var pair = try handshake(v)
        let messages = try XCTUnwrap(v["handshake"] as? [[String: String]])
        XCTAssertEqual(messages.count, 3)
        for (index, m) in messages.enumerated() {
            let payload = try XCTUnwrap(m["payload"].flatMap(bytes(hex:)))
            let expected = try XCTUnwrap(m["message"].flatMap(bytes(hex:)))
            let wire: [UInt8]
            let read: [UInt8]
            if index % 2 == 0 {
                wire = try pair.initiator.writeMessage(payload: payload)
                read = try pair.responder.readMessage(wire)
            } else {
                wire = try pair.responder.writeMessage(payload: payload)
                read = try pair.initiator.readMessage(wire)
            }
            XCTAssertEqual(hex(wire), hex(expected), "message \(index + 1)")
            XCTAssertEqual(read, payload, "payload \(index + 1)")
        }
        XCTAssertTrue(pair.initiator.isComplete && pair.responder.isComplete)
        XCTAssertEqual(hex(pair.initiator.handshakeHash), v["handshakeHash"] as? String)
        XCTAssertEqual(hex(pair.responder.handshakeHash), v["handshakeHash"] as? String)
        let i = try party(v, "initiator")
        let r = try party(v, "responder")
        XCTAssertEqual(pair.responder.remoteStatic.map { hex(Array($0.rawRepresentation)) }, i["staticPublic"])
        XCTAssertEqual(pair.initiator.remoteStatic.map { hex(Array($0.rawRepresentation)) }, r["staticPublic"])
    }

    func testTransportMessagesWithFrameHeaderAsAssociatedDataMatch() throws {
        let v = try vectors()
        var pair = try handshake(v)
        _ = try pair.responder.readMessage(try pair.initiator.writeMessage(payload: []))
        _ = try pair.initiator.readMessage(try pair.responder.writeMessage(payload: []))
        _ = try pair.responder.readMessage(try pair.initiator.writeMessage(payload: []))
        // The payloads differ from the vectors' but do not change the keys: only the split matters here.
        var (iSend, iReceive) = try pair.initiator.split()
        var (rSend, rReceive) = try pair.responder.split()
        let transport = try XCTUnwrap(v["transport"] as? [[String: String]])
        XCTAssertEqual(transport.count, 5)
        for t in transport {
            let ad = try XCTUnwrap(t["ad"].flatMap(bytes(hex:)))
            let plaintext = try XCTUnwrap(t["plaintext"].flatMap(bytes(hex:)))
            let fromInitiator = t["from"] == "initiator"
            let sealed =
                fromInitiator
                ? try iSend.encrypt(associatedData: ad, plaintext: plaintext)
                : try rSend.encrypt(associatedData: ad, plaintext: plaintext)
            XCTAssertEqual(hex(sealed), t["ciphertext"])
            let opened =
                fromInitiator
                ? try rReceive.decrypt(associatedData: ad, ciphertext: sealed)
                : try iReceive.decrypt(associatedData: ad, ciphertext: sealed)
            XCTAssertEqual(opened, plaintext)
        }
    }

    func testNodeIDsAndDatagramKeysMatch() throws {
        let v = try vectors()
        for name in ["initiator", "responder"] {
            let p = try party(v, name)
            let pub = try XCTUnwrap(p["staticPublic"].flatMap(bytes(hex:)))
            XCTAssertEqual(hex(Array(try key(p["static"]).publicKey.rawRepresentation)), p["staticPublic"])
            XCTAssertEqual(hex(TavoloKeyDerivation.nodeIDBytes(staticPublicKey: pub)), p["nodeId"])
        }
        let h = try XCTUnwrap((v["handshakeHash"] as? String).flatMap(bytes(hex:)))
        let keys = try XCTUnwrap(v["datagramKeys"] as? [String: String])
        let (i2r, r2i) = TavoloKeyDerivation.datagramKeys(handshakeHash: h)
        XCTAssertEqual(hex(i2r), keys["initiatorToResponder"])
        XCTAssertEqual(hex(r2i), keys["responderToInitiator"])
    }
}

func bytes(hex: String) -> [UInt8]? {
    guard hex.count % 2 == 0 else { return nil }
    var out: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
        out.append(byte)
        index = next
    }
    return out
}

func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
