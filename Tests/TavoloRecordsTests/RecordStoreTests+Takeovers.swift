import Foundation
import TavoloControl
import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloRecordFormat
import TavoloTable
import XCTest

@testable import TavoloRecords

/// Records of games where a bot took a seat over (the record store tests, continued).
extension RecordStoreTests {
    func testATakeoverThatDoesNotMatchTheSeatsOrTheGameIsRefused() throws {
        let verifier = RecordVerifier(catalog: .standard)
        let (_, genuine) = try forfeitRecord()
        func refusal(_ change: (inout RecordBody) -> Void) throws -> String {
            var b = genuine
            change(&b)
            let bytes = try CanonicalJSON.encode(b)
            guard case .failure(let why) = verifier.verify(id: RecordedGame.id(of: bytes), body: bytes) else {
                XCTFail("accepted")
                return ""
            }
            return why.description
        }
        XCTAssertEqual(
            try refusal { $0.takeovers![0].heir = $0.seats[0].node },
            "takeover: seat 1 is not owned at the end by its last heir's bot")
        XCTAssertEqual(try refusal { $0.takeovers![0].seats = [2] }, "takeover 0: seats")
        XCTAssertEqual(try refusal { $0.takeovers![0].seats = [] }, "takeover 0: seats")
        XCTAssertEqual(try refusal { $0.takeovers![0].appliedAt = $0.moves.count + 1 }, "takeover 0: move numbers")
        XCTAssertEqual(try refusal { $0.takeovers![0].member = "eve" }, "takeover 0: node ids")
        XCTAssertEqual(
            try refusal { $0.takeovers![0].bot = "random" },
            "takeover: seat 1 is not owned at the end by its last heir's bot")
        // The seat passed twice: the first heir's bot is no kind of the game's.
        XCTAssertEqual(
            try refusal {
                var first = $0.takeovers![0]
                first.bot = "nobody"
                first.heir = String(format: "%032x", 8)
                $0.takeovers!.insert(first, at: 0)
            }, "takeover 0: unknown bot kind")
        XCTAssertEqual(try refusal { $0.takeovers = [] }, "takeovers: 1 to 16 when present")
    }

    /// A game log's takeovers go into the record; a seatless host that left passed no seat and is left out.
    func testARecordCarriesTheLogsTakeovers() throws {
        let b = try record(seed: 3, bot: "greedy").decodedBody()
        let gil = String(repeating: "07", count: 16)
        func takeover(_ member: String, _ name: String, _ seats: [Int], _ forfeit: Bool) -> [String: Any] {
            [
                "member": member, "memberName": name, "seats": seats, "heir": b.seats[1].node, "bot": "greedy",
                "number": 4, "appliedAt": 5, "forfeit": forfeit,
            ]
        }
        let log = try gameLog(
            of: b,
            extra: [
                "takeovers": [
                    takeover(String(repeating: "09", count: 16), "eve", [], true), takeover(gil, "gil", [1], false),
                ]
            ])
        let made = try XCTUnwrap(RecordedGame.body(of: log))
        XCTAssertEqual(
            made.takeovers,
            [
                .init(
                    member: gil, name: "gil", seats: [1], heir: b.seats[1].node, bot: "greedy", number: 4, appliedAt: 5,
                    forfeit: false)
            ])
        XCTAssertNil(try XCTUnwrap(RecordedGame.body(of: try gameLog(of: b))).takeovers)
        // The copy of the member that left, stopped by its leave, is no record of its own (the others' is).
        let left = try gameLog(of: b, extra: ["stopped": "table/member-left: gil left the game"])
        XCTAssertNil(RecordedGame.body(of: left))
        XCTAssertNotNil(RecordedGame.body(of: try gameLog(of: b, extra: ["stopped": "table/timeout: no deal"])))
    }
}
