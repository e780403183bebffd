import Foundation
import TavoloCore
import XCTest

final class CanonicalEncodingTests: XCTestCase {
    func testWriterIsBigEndianWithCounts() {
        var w = CanonicalWriter()
        w.u8(0xAB)
        w.bool(true)
        w.u16(0x0102)
        w.u32(0x0304_0506)
        w.u64(0x0708_090A_0B0C_0D0E)
        w.i32(-2)
        w.string("é")
        w.byteList([9, 8])
        XCTAssertEqual(
            w.bytes,
            [
                0xAB, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xFF, 0xFF, 0xFF, 0xFE, 0, 2, 0xC3, 0xA9, 0, 2,
                9, 8,
            ])
    }

    /// SHA-256 of the empty string and of "abc" (FIPS 180-2 examples) through StateHash.
    func testStateHashIsSHA256() {
        XCTAssertEqual(
            StateHash(canonical: []).hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(
            StateHash(canonical: Array("abc".utf8)).hex,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    func testHexRoundTripAndRejects() throws {
        let h = StateHash(canonical: [1, 2, 3])
        XCTAssertEqual(StateHash(hex: h.hex), h)
        XCTAssertEqual(StateHash(hex: h.hex.uppercased()), h)
        XCTAssertNil(StateHash(hex: "abc"))
        XCTAssertNil(StateHash(hex: String(repeating: "g", count: 64)))
        XCTAssertNil(StateHash(hex: "00"))
        let json = try JSONEncoder().encode([h])
        XCTAssertEqual(try JSONDecoder().decode([StateHash].self, from: json), [h])
        XCTAssertThrowsError(try JSONDecoder().decode([StateHash].self, from: Data("[\"zz\"]".utf8)))
    }

    /// A short hash (the first 8 bytes, PROTOCOL.md §13.2) agrees with the hash it starts, from either side, and
    /// with nothing else; a full one only with itself; JSON claims take 64 or 16 digits and no other length.
    func testShortHashesAgreeWithTheHashTheyStart() throws {
        let h = StateHash(canonical: [1, 2, 3])
        let other = StateHash(canonical: [4])
        XCTAssertEqual(h.short.bytes, Array(h.bytes.prefix(8)))
        XCTAssertTrue(h.short.agrees(with: h))
        XCTAssertTrue(h.agrees(with: h.short))
        XCTAssertTrue(h.agrees(with: h))
        XCTAssertFalse(other.short.agrees(with: h))
        XCTAssertFalse(other.agrees(with: h))
        XCTAssertFalse(h.short.agrees(with: other.short))
        var flipped = h.bytes
        flipped[31] ^= 1
        XCTAssertFalse(StateHash(bytes: flipped).agrees(with: h), "a full hash must be equal, not only start alike")
        XCTAssertFalse(StateHash(bytes: Array(h.bytes.prefix(4))).agrees(with: h), "4 bytes are not a short hash")
        XCTAssertEqual(StateHash(claimedHex: String(h.hex.prefix(16))), h.short)
        XCTAssertEqual(StateHash(claimedHex: h.hex), h)
        for bad in [String(h.hex.prefix(32)), String(h.hex.prefix(15)), String(h.hex.prefix(14)) + "zz", ""] {
            XCTAssertNil(StateHash(claimedHex: bad), bad)
        }
        XCTAssertNil(StateHash(hex: String(h.hex.prefix(16))), "every other hash stays 64 digits")
    }

    func testTranscriptIsOrderSensitive() {
        let a = StateHash(canonical: [1])
        let b = StateHash(canonical: [2])
        var x = TranscriptHasher()
        x.add(a)
        x.add(b)
        var y = TranscriptHasher()
        y.add(b)
        y.add(a)
        XCTAssertNotEqual(x.finalize(), y.finalize())
    }
}
