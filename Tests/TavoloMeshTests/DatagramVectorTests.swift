import Foundation
import TavoloProtocol
import TavoloTestSupport
import XCTest

@testable import TavoloMesh

/// The protected datagrams of Protocol/vectors/noise.json (written by the Python generator, PROTOCOL.md §4.6): each
/// opens under its direction's key into its service byte and message (§3.9), and sealing them again gives the same
/// bytes; one byte changed anywhere and it does not open.
final class DatagramVectorTests: XCTestCase {
    func vectors() throws -> [String: Any] {
        let data = try ProtocolVectors.data("noise.json")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func hex(_ s: Any?) throws -> [UInt8] { try XCTUnwrap([UInt8](hexString: try XCTUnwrap(s as? String))) }

    func testSealedDatagramsOpenIntoTheirServiceAndMessage() throws {
        let v = try vectors()
        let keys = try XCTUnwrap(v["datagramKeys"] as? [String: String])
        let cases = try XCTUnwrap(v["datagrams"] as? [[String: Any]])
        XCTAssertEqual(cases.count, 2)
        for c in cases {
            let fromInitiator = c["from"] as? String == "initiator"
            let key = try hex(fromInitiator ? keys["initiatorToResponder"] : keys["responderToInitiator"])
            let wire = try hex(c["frame"])
            let body = try hex(c["body"])
            XCTAssertEqual(wire[2], 3, "the wire's version (§3.6)")
            let d = try XCTUnwrap(DatagramSeal.open(wire, key: key))
            XCTAssertEqual(d.service, .tables)
            XCTAssertEqual(d.form, .json)
            XCTAssertEqual([d.service.rawValue] + d.body, body)
            XCTAssertEqual(DatagramSeal.seal(body: body, sender: d.sender, seq: d.seq, key: key) as [UInt8], wire)
            var flipped = wire
            flipped[flipped.count - 20] ^= 0x01
            XCTAssertNil(DatagramSeal.open(flipped, key: key))
        }
    }
}
