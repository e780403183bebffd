import XCTest

@testable import TavoloProtocol

/// The short table id of PROTOCOL.md §13.2: exactly the ids a host makes take the 7-byte form; every other id keeps
/// its text, so each id has one encoding.
final class HostTableIDTests: XCTestCase {
    func testHostMadeIdsTakeTheShortForm() throws {
        let id = try XCTUnwrap(HostTableID(Array("1267f349-1-12".utf8)))
        XCTAssertEqual(id.host, [0x12, 0x67, 0xF3, 0x49])
        XCTAssertEqual(id.start, 1)
        XCTAssertEqual(id.count, 12)
        XCTAssertEqual(id.text, "1267f349-1-12")
        var out: [UInt8] = []
        id.append(to: &out)
        XCTAssertEqual(out, [0x00, 0x12, 0x67, 0xF3, 0x49, 0x01, 0x0C])
        let largest = try XCTUnwrap(HostTableID(Array("00000000-0-2147483647".utf8)))
        XCTAssertEqual(largest.count, Int(Int32.max))
        XCTAssertEqual(largest.text, "00000000-0-2147483647")
    }

    func testOtherIdsStayText() {
        for text in [
            "3A1B2C4D-1-1", "3a1b2c4d-01-1", "3a1b2c4d-1-00", "3a1b2c4-1-1", "3a1b2c4d0-1-1", "3a1b2c4d-1",
            "3a1b2c4d-1-1-1", "3a1b2c4d--1", "3a1b2c4d-1-2147483648", "3a1b2c4d-1-99999999999", "my-table", "x",
        ] {
            XCTAssertNil(HostTableID(Array(text.utf8)), text)
        }
    }

    func testShortKindsRoundTripBothForms() throws {
        for table in ["1267f349-1-12", "Not-Host-Made", "3a1b2c4d-01-1"] {
            let m = CompactMessage(kind: .shortConfirm, table: table, number: 300, hash: Array(1...8))
            let body = try m.encoded()
            XCTAssertEqual(try CompactMessage.decode(body), m, table)
        }
        // The long kinds keep the text form even for a host-made id.
        let long = try CompactMessage(
            kind: .confirm, table: "1267f349-1-12", number: 0, hash: Array(repeating: 1, count: 32)
        )
        .encoded()
        XCTAssertEqual(long[1], 13)
        // A short hash in a long kind, or a long one in a short kind, is a sender's bug.
        XCTAssertThrowsError(try CompactMessage(kind: .confirm, table: "t", number: 0, hash: Array(1...8)).encoded())
        XCTAssertThrowsError(
            try CompactMessage(kind: .shortConfirm, table: "t", number: 0, hash: Array(repeating: 1, count: 32))
                .encoded())
    }
}
