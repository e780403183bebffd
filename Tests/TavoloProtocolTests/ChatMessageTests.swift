import Foundation
import TavoloCore
import TavoloProtocol
import XCTest

/// PROTOCOL.md §12 against Protocol/vectors/chat.json: the frame a lobby message makes, the text a receiver keeps,
/// the room names, and the rate bound.
final class ChatMessageTests: XCTestCase {
    func vectors() throws -> [String: Any] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Protocol/vectors/chat.json"))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testFrameVector() throws {
        let v = try XCTUnwrap(try vectors()["frame"] as? [String: String])
        let message = ChatMessage(room: try XCTUnwrap(v["room"]), text: try XCTUnwrap(v["text"]))
        let bytes = try Frame.application(try WireJSON.encode(message)).encoded()
        XCTAssertEqual(bytes.map { String(format: "%02x", $0) }.joined(), v["hex"])
        let payload = Array(bytes[FrameLimits.headerSize...])
        XCTAssertTrue(ChatMessage.mayBeChat(payload))
        XCTAssertEqual(try WireJSON.decode(ChatMessage.self, payload), message)
    }

    func testCleanVectors() throws {
        let cases = try XCTUnwrap(try vectors()["clean"] as? [[String: Any]])
        XCTAssertGreaterThan(cases.count, 5)
        for c in cases {
            let input = try XCTUnwrap(c["in"] as? String)
            XCTAssertEqual(ChatMessage.clean(input), c["out"] as? String, "clean(\(input.debugDescription))")
        }
    }

    func testRoomVectors() throws {
        let rooms = try XCTUnwrap(try vectors()["rooms"] as? [String: [String]])
        for r in try XCTUnwrap(rooms["valid"]) { XCTAssertTrue(ChatMessage.isRoom(r), r) }
        for r in try XCTUnwrap(rooms["invalid"]) { XCTAssertFalse(ChatMessage.isRoom(r), r) }
    }

    func testTableMessagesAreNotTakenForChat() throws {
        let stop = Array(#"{"code":"x","reason":"said \"type\":\"chat\"","table":"a-1","type":"table.stop"}"#.utf8)
        XCTAssertFalse(ChatMessage.mayBeChat(stop))
        XCTAssertFalse(ChatMessage.mayBeChat(Array(#"{"type":"table.offer"}"#.utf8)))
    }

    func testRateLimitAllowsABurstThenOneASecond() {
        var limit = ChatRateLimit()
        let burst = (0..<10).map { _ in limit.allow("a", now: 100) }
        XCTAssertEqual(burst.filter { $0 }.count, 5)
        XCTAssertTrue(limit.allow("b", now: 100), "each peer has its own bucket")
        XCTAssertFalse(limit.allow("a", now: 100.5))
        XCTAssertTrue(limit.allow("a", now: 101.6))
        XCTAssertFalse(limit.allow("a", now: 101.7))
        limit.forget("a")
        XCTAssertTrue(limit.allow("a", now: 101.8))
    }
}
