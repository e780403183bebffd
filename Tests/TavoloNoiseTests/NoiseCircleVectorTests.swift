import Crypto
import Foundation
import TavoloNoise
import TavoloTestSupport
import XCTest

/// Replays the private-circle part of Protocol/vectors/noise.json (Python: `hashlib.scrypt` and `noiseprotocol`'s
/// Noise_XXpsk3): the passphrase's PSK, the circle tag, the psk3 handshake byte for byte, and a message 3 written
/// under another passphrase, which the responder must refuse.
final class NoiseCircleVectorTests: XCTestCase {
    typealias PrivateKey = Curve25519.KeyAgreement.PrivateKey

    private func vectors() throws -> [String: Any] {
        let data = try ProtocolVectors.data("noise.json")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func key(_ hex: String?) throws -> PrivateKey {
        try PrivateKey(rawRepresentation: try XCTUnwrap(hex.flatMap(bytes(hex:))))
    }

    private func states(_ v: [String: Any], psk: [UInt8]) throws -> (NoiseHandshakeState, NoiseHandshakeState) {
        let i = try XCTUnwrap(v["initiator"] as? [String: String])
        let r = try XCTUnwrap(v["responder"] as? [String: String])
        let prologue = TavoloKeyDerivation.prologue
        return (
            NoiseHandshakeState(
                initiator: true, prologue: prologue, staticKey: try key(i["static"]),
                ephemeral: try key(i["ephemeral"]),
                psk: psk),
            NoiseHandshakeState(
                initiator: false, prologue: prologue, staticKey: try key(r["static"]),
                ephemeral: try key(r["ephemeral"]),
                psk: psk)
        )
    }

    func testThePassphrasesKeyAndTheCircleTagMatchPython() throws {
        let c = try XCTUnwrap(try vectors()["circle"] as? [String: Any])
        let name = try XCTUnwrap(c["name"] as? String)
        let psk = try CircleKey.psk(passphrase: try XCTUnwrap(c["passphrase"] as? String), circle: name)
        XCTAssertEqual(hex(psk), c["psk"] as? String)
        XCTAssertEqual(CircleKey.tag(circle: name), c["tag"] as? String)
        XCTAssertEqual(hex(CircleKey.salt(circle: name)), (c["scrypt"] as? [String: Any])?["salt"] as? String)
        XCTAssertEqual(c["protocol"] as? String, NoiseHandshakeState.pskProtocolName)
    }

    func testThePsk3HandshakeAndAFrameAfterItMatchPython() throws {
        let v = try vectors()
        let c = try XCTUnwrap(v["circle"] as? [String: Any])
        let psk = try XCTUnwrap((c["psk"] as? String).flatMap(bytes(hex:)))
        var (initiator, responder) = try states(v, psk: psk)
        let messages = try XCTUnwrap(c["handshake"] as? [[String: String]])
        for (index, m) in messages.enumerated() {
            let payload = try XCTUnwrap(m["payload"].flatMap(bytes(hex:)))
            let wire =
                index % 2 == 0
                ? try initiator.writeMessage(payload: payload) : try responder.writeMessage(payload: payload)
            XCTAssertEqual(hex(wire), m["message"], "message \(index + 1)")
            let read = index % 2 == 0 ? try responder.readMessage(wire) : try initiator.readMessage(wire)
            XCTAssertEqual(read, payload)
        }
        XCTAssertEqual(hex(initiator.handshakeHash), c["handshakeHash"] as? String)
        var (send, _) = try initiator.split()
        let t = try XCTUnwrap(c["transport"] as? [String: String])
        let sealed = try send.encrypt(
            associatedData: try XCTUnwrap(t["ad"].flatMap(bytes(hex:))),
            plaintext: try XCTUnwrap(t["plaintext"].flatMap(bytes(hex:))))
        XCTAssertEqual(hex(sealed), t["ciphertext"])
    }

    func testAMessage3UnderAnotherPassphraseIsRefused() throws {
        let v = try vectors()
        let c = try XCTUnwrap(v["circle"] as? [String: Any])
        let psk = try XCTUnwrap((c["psk"] as? String).flatMap(bytes(hex:)))
        var (initiator, responder) = try states(v, psk: psk)
        let messages = try XCTUnwrap(c["handshake"] as? [[String: String]])
        _ = try responder.readMessage(try initiator.writeMessage(payload: []))
        _ = try initiator.readMessage(
            try responder.writeMessage(payload: try XCTUnwrap(messages[1]["payload"].flatMap(bytes(hex:)))))
        let wrong = try XCTUnwrap((c["wrongPassphraseMessage3"] as? String).flatMap(bytes(hex:)))
        XCTAssertThrowsError(try responder.readMessage(wrong))
        // And plain XX never talks to XXpsk3: with a PSK, `e` is mixed into the key, so even message 1's (empty)
        // payload is sealed, and one side cannot read the other's first message.
        var plain = NoiseHandshakeState(
            initiator: true, prologue: TavoloKeyDerivation.prologue, staticKey: PrivateKey())
        var circle = NoiseHandshakeState(
            initiator: false, prologue: TavoloKeyDerivation.prologue, staticKey: PrivateKey(), psk: psk)
        XCTAssertThrowsError(try circle.readMessage(try plain.writeMessage(payload: [])))
        var circleInitiator = NoiseHandshakeState(
            initiator: true, prologue: TavoloKeyDerivation.prologue, staticKey: PrivateKey(), psk: psk)
        var plainResponder = NoiseHandshakeState(
            initiator: false, prologue: TavoloKeyDerivation.prologue, staticKey: PrivateKey())
        _ = try plainResponder.readMessage(try circleInitiator.writeMessage(payload: []))
        XCTAssertThrowsError(try circleInitiator.readMessage(try plainResponder.writeMessage(payload: [])))
    }
}
