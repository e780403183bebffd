import Foundation
import TavoloCore
import TavoloProtocol
import TavoloTestSupport
import XCTest

/// PROTOCOL.md §12 and §3.9 against Protocol/vectors/chat.json (written by generate_chat_vectors.py): the frame a
/// lobby message makes, chat frames whose text reads like another service's message, the text a receiver keeps,
/// the room names, and the rate bound.
final class ChatMessageTests: XCTestCase {
    func vectors() throws -> [String: Any] {
        let data = try ProtocolVectors.data("chat.json")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testFrameVector() throws {
        let v = try XCTUnwrap(try vectors()["frame"] as? [String: Any])
        try checkChatFrame(v)
    }

    /// A chat message whose text names `records.summary`, or is a table or records message written out, is a chat
    /// frame like any other: its service byte says chat, and that is all a receiver routes on.
    func testChatThatReadsLikeAnotherServiceIsStillChat() throws {
        let cases = try XCTUnwrap(try vectors()["routed"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(cases.count, 3)
        for c in cases { try checkChatFrame(c) }
    }

    /// Encodes the case's message as a node sends it and compares the bytes; decodes them back to the service and
    /// the message.
    func checkChatFrame(_ v: [String: Any]) throws {
        let message = ChatMessage(room: try XCTUnwrap(v["room"] as? String), text: try XCTUnwrap(v["text"] as? String))
        XCTAssertEqual(v["service"] as? Int, Int(Service.chat.rawValue))
        let bytes = try Frame.application(.chat, try WireJSON.encode(message)).encoded()
        XCTAssertEqual(bytes.map { String(format: "%02x", $0) }.joined(), v["hex"] as? String, message.text)
        let frame = try Frame.parse(bytes, maxPayload: FrameLimits.maxReliablePayload)
        guard case .application(let service, let body) = frame else { return XCTFail("not an application frame") }
        XCTAssertEqual(service, .chat)
        XCTAssertEqual(try WireJSON.decode(ChatMessage.self, body), message)
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
