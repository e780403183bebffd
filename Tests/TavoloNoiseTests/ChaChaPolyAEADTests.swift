import Crypto
import XCTest

@testable import TavoloNoise

/// libsodium's ChaCha20-Poly1305 (the transport's) against swift-crypto's (BoringSSL), an independent
/// implementation of the same RFC 8439 construction, on Noise's nonces (4 zero bytes, then the counter
/// little-endian): the same bytes out, the same bytes back, and nothing back from a flipped byte.
final class ChaChaPolyAEADTests: XCTestCase {
    func testSealsAsSwiftCryptoDoesAndOpensWhatItSealed() throws {
        var rng = SystemRandomNumberGenerator()
        func random(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        for length in [0, 1, 15, 16, 17, 60, 63, 64, 65, 255, 1_000, 65_535] {
            let key = random(32)
            let plaintext = random(length)
            let ad = random(length % 40)
            let n = UInt64.random(in: 0..<UInt64.max, using: &rng)
            let sealed = ChaChaPolyAEAD.seal(key: key, nonce: n, plaintext: plaintext, ad: ad)

            let nonce = try ChaChaPoly.Nonce(data: [0, 0, 0, 0] + withUnsafeBytes(of: n.littleEndian, Array.init))
            let box = try ChaChaPoly.seal(plaintext, using: SymmetricKey(data: key), nonce: nonce, authenticating: ad)
            XCTAssertEqual(sealed, Array(box.ciphertext) + Array(box.tag), "length \(length)")

            XCTAssertEqual(ChaChaPolyAEAD.open(key: key, nonce: n, sealed: sealed, ad: ad), plaintext)
            XCTAssertNil(ChaChaPolyAEAD.open(key: key, nonce: n &+ 1, sealed: sealed, ad: ad), "another nonce")
            XCTAssertNil(ChaChaPolyAEAD.open(key: key, nonce: n, sealed: sealed, ad: ad + [0]), "other data")
            for position in [0, sealed.count / 2, sealed.count - 1] {
                var forged = sealed
                forged[position] ^= 0x80
                XCTAssertNil(ChaChaPolyAEAD.open(key: key, nonce: n, sealed: forged, ad: ad), "byte \(position)")
            }
        }
        XCTAssertNil(ChaChaPolyAEAD.open(key: random(32), nonce: 0, sealed: random(15), ad: []), "shorter than a tag")
    }

    func testTheCipherStateCountsNoncesAndRefusesAForgery() throws {
        let key = (0..<32).map { UInt8($0) }
        var a = NoiseCipherState(key: key)
        var b = NoiseCipherState(key: key)
        for i in 0..<3 {
            let sealed = try a.encrypt(associatedData: [UInt8(i)], plaintext: Array("frame \(i)".utf8))
            XCTAssertEqual(try b.decrypt(associatedData: [UInt8(i)], ciphertext: sealed), Array("frame \(i)".utf8))
        }
        XCTAssertEqual(a.nonce, 3)
        var forged = try a.encrypt(associatedData: [], plaintext: [1, 2, 3])
        forged[0] ^= 1
        XCTAssertThrowsError(try b.decrypt(associatedData: [], ciphertext: forged))
        XCTAssertEqual(b.nonce, 3, "a frame that did not authenticate does not advance the nonce")
    }
}
