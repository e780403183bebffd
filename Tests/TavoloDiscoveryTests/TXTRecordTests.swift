import XCTest

@testable import TavoloDiscovery

final class TXTRecordTests: XCTestCase {
    func testRoundTripIsSortedAndLengthPrefixed() throws {
        let bytes = try TXTRecord.encode(["v": "1", "id": "abc"])
        XCTAssertEqual(bytes, [6] + Array("id=abc".utf8) + [3] + Array("v=1".utf8))
        XCTAssertEqual(TXTRecord.decode(bytes), ["v": "1", "id": "abc"])
    }

    func testEmptyRecordIsOneZeroByte() throws {
        XCTAssertEqual(try TXTRecord.encode([:]), [0])
        XCTAssertEqual(TXTRecord.decode([0]), [:])
        XCTAssertEqual(TXTRecord.decode([]), [:])
    }

    func testEmptyValueEncodesWithEquals() throws {
        let bytes = try TXTRecord.encode(["flag": ""])
        XCTAssertEqual(bytes, [5] + Array("flag=".utf8))
        XCTAssertEqual(TXTRecord.decode(bytes), ["flag": ""])
    }

    func testKeyWithoutEqualsDecodesToEmptyValue() {
        let bytes: [UInt8] = [4] + Array("bare".utf8) + [3] + Array("k=v".utf8)
        XCTAssertEqual(TXTRecord.decode(bytes), ["bare": "", "k": "v"])
    }

    func testValueMayContainEquals() throws {
        let bytes = try TXTRecord.encode(["k": "a=b"])
        XCTAssertEqual(TXTRecord.decode(bytes), ["k": "a=b"])
    }

    func testEntryOf255BytesIsAcceptedAnd256Rejected() throws {
        let fits = String(repeating: "x", count: 255 - 2)  // "k=" + 253 bytes = 255
        let bytes = try TXTRecord.encode(["k": fits])
        XCTAssertEqual(bytes.count, 256)
        XCTAssertEqual(bytes.first, 255)
        XCTAssertEqual(TXTRecord.decode(bytes), ["k": fits])

        XCTAssertThrowsError(try TXTRecord.encode(["k": fits + "x"])) { error in
            guard case DiscoveryError.invalidTXT = error else { return XCTFail("unexpected \(error)") }
        }
    }

    func testMultiByteUTF8CountsBytesNotCharacters() {
        let value = String(repeating: "é", count: 127)  // 254 bytes, + "k=" = 256
        XCTAssertThrowsError(try TXTRecord.encode(["k": value]))
    }

    func testInvalidKeysAreRejected() {
        for key in ["", "a=b", "tab\t", "ü"] {
            XCTAssertThrowsError(try TXTRecord.encode([key: "1"]), "key \(key.debugDescription)") { error in
                guard case DiscoveryError.invalidTXT = error else { return XCTFail("unexpected \(error)") }
            }
        }
    }

    func testDecoderToleratesMalformedInput() {
        // Truncated entry: the length byte says 9 but only 3 bytes follow.
        XCTAssertEqual(TXTRecord.decode([3] + Array("a=1".utf8) + [9] + Array("b=2".utf8)), ["a": "1"])
        // Zero-length strings are skipped; an empty key is ignored; the first duplicate wins.
        let bytes: [UInt8] = [0, 2] + Array("=x".utf8) + [3] + Array("a=1".utf8) + [3] + Array("a=2".utf8)
        XCTAssertEqual(TXTRecord.decode(bytes), ["a": "1"])
    }

    func testMatchesAvahiTXTRecordAPI() throws {
        // Cross-check the hand-written decoder against the dns_sd library's own parser via a round trip.
        let txt = ["id": "node-1", "v": "1", "u": "7001", "empty": ""]
        let bytes = try TXTRecord.encode(txt)
        XCTAssertEqual(DNSSDTXT.parse(bytes), txt)
    }
}
