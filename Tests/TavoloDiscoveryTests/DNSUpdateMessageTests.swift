import Foundation
import TavoloTestSupport
import XCTest

@testable import TavoloDiscovery

/// The DNS UPDATE messages of PROTOCOL.md §6.1 against `Protocol/vectors/dns-update.json`, which dnspython wrote
/// (`generate_dns_update_vectors.py`): the same service must give the same bytes.
final class DNSUpdateMessageTests: XCTestCase {
    struct Vectors: Decodable {
        struct Service: Decodable {
            var instance, domain, host, address: String
            var port: UInt16
            var ttl: UInt32
            var txt: [String: String]
        }
        struct Message: Decodable {
            var id: UInt16
            var lease: UInt32?
            var hex: String
        }
        var service: Service
        var registration: Message
        var withdrawal: Message
    }

    func load() throws -> (WideAreaService, Vectors) {
        let data = try ProtocolVectors.data("dns-update.json")
        let v = try JSONDecoder().decode(Vectors.self, from: data)
        let address = v.service.address.split(separator: ".").compactMap { UInt8($0) }
        let service = WideAreaService(
            instance: v.service.instance, domain: v.service.domain, host: v.service.host, port: v.service.port,
            txt: v.service.txt, address: address, ttl: v.service.ttl)
        return (service, v)
    }

    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    func testTheRegistrationIsTheVectorsBytes() throws {
        let (service, v) = try load()
        XCTAssertNil(service.problem)
        let message = service.registration(id: v.registration.id, lease: v.registration.lease)
        XCTAssertEqual(hex(message.encoded()), v.registration.hex)
    }

    func testTheWithdrawalIsTheVectorsBytes() throws {
        let (service, v) = try load()
        XCTAssertEqual(hex(service.withdrawal(id: v.withdrawal.id).encoded()), v.withdrawal.hex)
    }

    func testNamesThatCannotGoOnTheWireAreRefused() throws {
        var (service, _) = try load()
        service.instance = String(repeating: "x", count: 64)
        XCTAssertNotNil(service.problem, "a 64-byte label")
        service.instance = "ok"
        service.address = [10, 0, 0]
        XCTAssertNotNil(service.problem, "a 3-byte address")
        service.address = [10, 0, 0, 1]
        service.txt["k"] = String(repeating: "v", count: 300)
        XCTAssertNotNil(service.problem, "a TXT entry over 255 bytes")
    }

    func testAResponseIsReadOnlyFromAnUpdateAnswer() {
        // id 0x1234, QR=1, opcode 5, rcode 5 (REFUSED)
        let refused: [UInt8] = [0x12, 0x34, 0xa8, 0x05] + [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(DNSUpdateResponse(refused)?.id, 0x1234)
        XCTAssertEqual(DNSUpdateResponse(refused)?.rcodeName, "REFUSED")
        let query: [UInt8] = [0x12, 0x34, 0x80, 0x00] + [UInt8](repeating: 0, count: 8)  // opcode 0: no update answer
        XCTAssertNil(DNSUpdateResponse(query))
        XCTAssertNil(DNSUpdateResponse(Array(refused.prefix(11))), "shorter than a header")
    }
}
