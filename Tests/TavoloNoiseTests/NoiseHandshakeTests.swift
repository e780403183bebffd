import Crypto
import TavoloNoise
import XCTest

/// Properties of the handshake the vectors do not show: tampering, wrong turns, wrong keys.
final class NoiseHandshakeTests: XCTestCase {
    typealias PrivateKey = Curve25519.KeyAgreement.PrivateKey

    private func pair() -> (NoiseHandshakeState, NoiseHandshakeState) {
        let p = TavoloKeyDerivation.prologue
        return (
            NoiseHandshakeState(initiator: true, prologue: p, staticKey: PrivateKey()),
            NoiseHandshakeState(initiator: false, prologue: p, staticKey: PrivateKey())
        )
    }

    func testAFlippedByteInAnyHandshakeMessageFailsAuthentication() throws {
        // Message 1 carries no MAC; a flip there changes the ephemeral key and so message 2 no longer opens.
        for target in 0..<3 {
            var (i, r) = pair()
            var m1 = try i.writeMessage(payload: [])
            if target == 0 { m1[5] ^= 0x01 }
            _ = try r.readMessage(m1)
            var m2 = try r.writeMessage(payload: Array("bravo".utf8))
            if target == 1 { m2[m2.count - 1] ^= 0x80 }
            if target <= 1 {
                XCTAssertThrowsError(try i.readMessage(m2), "target \(target)") {
                    XCTAssertEqual($0 as? NoiseError, .authenticationFailed)
                }
                continue
            }
            _ = try i.readMessage(m2)
            var m3 = try i.writeMessage(payload: Array("alpha".utf8))
            m3[40] ^= 0x01
            XCTAssertThrowsError(try r.readMessage(m3)) { XCTAssertEqual($0 as? NoiseError, .authenticationFailed) }
            XCTAssertFalse(r.isComplete)
        }
    }

    func testDifferentProloguesDoNotAgree() throws {
        var i = NoiseHandshakeState(initiator: true, prologue: Array("tavolo/v2".utf8), staticKey: PrivateKey())
        var r = NoiseHandshakeState(initiator: false, prologue: Array("tavolo/v3".utf8), staticKey: PrivateKey())
        _ = try r.readMessage(try i.writeMessage(payload: []))
        XCTAssertThrowsError(try i.readMessage(try r.writeMessage(payload: [])))
    }

    func testOutOfTurnAndTruncatedMessagesAreRefused() throws {
        var (i, r) = pair()
        XCTAssertThrowsError(try r.writeMessage(payload: [])) { XCTAssertEqual($0 as? NoiseError, .outOfTurn) }
        XCTAssertThrowsError(try i.readMessage([])) { XCTAssertEqual($0 as? NoiseError, .outOfTurn) }
        XCTAssertThrowsError(try r.readMessage(Array(repeating: 1, count: 31))) {
            XCTAssertEqual($0 as? NoiseError, .truncatedMessage)
        }
        XCTAssertThrowsError(try i.split()) { XCTAssertEqual($0 as? NoiseError, .outOfTurn) }
    }

    func testTransportRefusesReplayedReorderedAndTamperedMessages() throws {
        var (i, r) = pair()
        _ = try r.readMessage(try i.writeMessage(payload: []))
        _ = try i.readMessage(try r.writeMessage(payload: []))
        _ = try r.readMessage(try i.writeMessage(payload: []))
        var (send, _) = try i.split()
        var (_, receive) = try r.split()
        let ad: [UInt8] = [1, 2, 3]
        let first = try send.encrypt(associatedData: ad, plaintext: [42])
        let second = try send.encrypt(associatedData: ad, plaintext: [43])
        XCTAssertThrowsError(try receive.decrypt(associatedData: ad, ciphertext: second))  // reordered
        XCTAssertThrowsError(try receive.decrypt(associatedData: [9], ciphertext: first))  // other header
        var flipped = first
        flipped[0] ^= 1
        XCTAssertThrowsError(try receive.decrypt(associatedData: ad, ciphertext: flipped))
        XCTAssertEqual(try receive.decrypt(associatedData: ad, ciphertext: first), [42])
        XCTAssertThrowsError(try receive.decrypt(associatedData: ad, ciphertext: first))  // replayed
        XCTAssertEqual(try receive.decrypt(associatedData: ad, ciphertext: second), [43])
    }
}
