import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloTable
import XCTest

@testable import TavoloDaemon

/// Chat (PROTOCOL.md §12) between real `tavolod` processes: the lobby reaches every node, a table room only its
/// members, the writer is named by its connection, and a sender is held to the rate bound.
final class ChatIntegrationTests: DaemonTestCase {

    func log(_ i: Int, room: String? = nil) throws -> [ChatEntry] {
        try client(i).call(.chatLog(room: room, follow: false))
    }

    func testLobbyReachesEveryNodeAndATableOnlyItsMembers() throws {
        try harness.start(3)
        try harness.eventually("full mesh of 3", seconds: 30) { harness.isFullMesh([0, 1, 2]) }
        let a = harness.name(0)

        let sent = try client(0).call(.chat(room: "lobby", text: "ciao\u{7} a\ttutti"))
        XCTAssertGreaterThanOrEqual(sent.sent, 2)
        try harness.eventually("the lobby message reaches both other nodes", seconds: 15) {
            [1, 2].allSatisfy { i in
                ((try? log(i, room: "lobby")) ?? []).contains { $0.from == a && $0.text == "ciao a tutti" && !$0.mine }
            }
        }

        // A table of nodes 0 and 1: node 2 is not a member, so it neither gets the table's chat nor may write there.
        let info = try client(0).call(.host(game: "othello", players: 2))
        try harness.eventually("node 1 sees the table", seconds: 15) {
            ((try? client(1).call(.tables)) ?? []).contains { $0.id == info.id }
        }
        _ = try client(0).call(.join(table: info.id, game: nil, seat: 0, bot: nil))
        _ = try client(1).call(.join(table: info.id, game: nil, seat: 1, bot: nil))
        try harness.eventually("node 1 is seated as node 0 sees it", seconds: 15) {
            ((try? client(0).call(.tables)) ?? []).first { $0.id == info.id }?.freeSeats.isEmpty
                == true
        }
        XCTAssertEqual(try client(0).call(.chat(room: info.id.rawValue, text: "good luck")).sent, 1)
        try harness.eventually("the table message reaches node 1", seconds: 15) {
            ((try? log(1, room: info.id.rawValue)) ?? []).contains { $0.text == "good luck" && $0.from == a }
        }
        XCTAssertThrowsError(try client(2).call(.chat(room: info.id.rawValue, text: "let me in"))) {
            XCTAssertEqual(($0 as? ControlFailure)?.code, .chatNotMember)
        }
        // A barrier, not a sleep: node 0's lobby line after the table's goes on the same connection to node 2, so
        // once node 2 has it, a table line sent to node 2 would have arrived before it.
        _ = try client(0).call(.chat(room: "lobby", text: "barrier"))
        try harness.eventually("node 0's next lobby line reaches node 2", seconds: 15) {
            ((try? log(2)) ?? []).contains { $0.text == "barrier" && $0.from == a }
        }
        XCTAssertFalse(try log(2).contains { $0.room == info.id.rawValue }, "a non-member got the table's chat")
    }

    /// Chat whose text names a records message, or is a table or records message written out, reaches the other
    /// node as chat (PROTOCOL.md §3.9): the service byte routes it, nothing looks inside. (Before services, a line
    /// mentioning `"records.` went to the records sync and was lost.)
    func testChatThatReadsLikeRecordsOrTableMessagesReachesTheOtherNode() throws {
        try harness.start(2)
        try harness.eventually("full mesh of 2", seconds: 30) { harness.isFullMesh([0, 1]) }
        let before = try client(1).call(.status)
        let texts = [
            #"see "records.summary" here"#, #"{"table":"a-1","type":"table.leave"}"#,
            #"{"buckets":[],"count":0,"type":"records.summary"}"#,
        ]
        // At least node 1: the lobby goes to every connected node, and the nodes of a test running beside this one on
        // the same Avahi may be among them.
        for t in texts {
            XCTAssertGreaterThanOrEqual(try client(0).call(.chat(room: "lobby", text: t)).sent, 1, t)
        }
        try harness.eventually("every line reaches node 1", seconds: 15) {
            let got = Set(((try? log(1, room: "lobby")) ?? []).filter { !$0.mine }.map(\.text))
            return texts.allSatisfy(got.contains)
        }
        let after = try client(1).call(.status)
        XCTAssertEqual(after.tableMessagesRefused, before.tableMessagesRefused)
        XCTAssertEqual(after.unroutedMessages, 0)
        XCTAssertEqual(after.chatMessagesDropped, 0)
        let lines = try String(contentsOfFile: harness.nodes[1].logPath, encoding: .utf8)
        XCTAssertFalse(lines.contains("not a records message"), harness.logTail(1))
    }

    func testASenderIsHeldToTheRateBoundAndBadTextIsRefused() throws {
        try harness.start(1)
        try harness.eventually("node up", seconds: 30) { harness.peers(0) != nil }
        let results = (0..<7).map { n in
            Result { try client(0).call(.chat(room: "lobby", text: "message \(n)")) }
        }
        XCTAssertEqual(results.filter { (try? $0.get()) != nil }.count, 5)
        if case .failure(let e) = results.last { XCTAssertEqual((e as? ControlFailure)?.code, .chatTooFast) }
        XCTAssertThrowsError(try client(0).call(.chat(room: "lobby", text: "\u{1}\u{2} "))) {
            XCTAssertEqual(($0 as? ControlFailure)?.code, .chatBadText)
        }
        XCTAssertThrowsError(try client(0).call(.chat(room: "no room", text: "hi"))) {
            XCTAssertEqual(($0 as? ControlFailure)?.code, .chatBadRoom)
        }
    }
}

/// What `ChatHub` accepts from a peer, with no network: the sender is the connection, never a field; everything the
/// chat service is given is read as chat (PROTOCOL.md §3.9), whatever its text says.
final class ChatHubTests: XCTestCase {
    let me = NodeID(hex: String(repeating: "0", count: 31) + "1")!
    let bob = NodeID(hex: String(repeating: "0", count: 31) + "2")!
    let eve = NodeID(hex: String(repeating: "0", count: 31) + "3")!

    func hub() -> ChatHub {
        let hub = ChatHub(me: me, name: "me", logger: .init(label: "test"))
        hub.peerConnected(bob, name: "bob")
        hub.peerConnected(eve, name: "eve")
        return hub
    }

    func body(_ json: String) -> [UInt8] { Array(json.utf8) }

    func testAcceptsCleanedTextNamedByItsConnection() {
        let h = hub()
        h.received(body(#"{"from":"alice","room":"lobby","text":" hi\u0007 ","type":"chat"}"#), from: bob) { _ in nil }
        XCTAssertEqual(h.recent(room: nil).map(\.from), ["bob"], "a `from` field is ignored")
        XCTAssertEqual(h.recent(room: nil).map(\.text), ["hi"])
        XCTAssertEqual(h.droppedMessages, 0)
    }

    /// Text that names a records message or is a table message written out is chat: the service byte routed it
    /// here, and nothing looks inside to send it elsewhere.
    func testTextThatReadsLikeAnotherServiceIsChat() {
        let h = hub()
        let texts = [#"see "records.summary" here"#, #"{"table":"a-1","type":"table.leave"}"#]
        for t in texts {
            let message = ChatMessage(room: "lobby", text: t)
            h.received((try? WireJSON.encode(message)) ?? [], from: bob) { _ in nil }
        }
        XCTAssertEqual(h.recent(room: "lobby").map(\.text), texts)
        XCTAssertEqual(h.droppedMessages, 0)
    }

    /// A message of the chat service that is no chat message (a table message sent with the chat byte) is dropped
    /// and counted, never passed on.
    func testAMessageThatIsNotChatIsDroppedAndCounted() {
        let h = hub()
        h.received(body(#"{"table":"a-1","type":"table.leave"}"#), from: bob) { _ in nil }
        h.received(body("[1,2]"), from: bob) { _ in nil }
        XCTAssertEqual(h.recent(room: nil).count, 0)
        XCTAssertEqual(h.droppedMessages, 2)
    }

    func testDropsWhatARoomsMembersDidNotWriteAndWhatIsTooFast() {
        let h = hub()
        let members: (String) -> [NodeID]? = { $0 == "a-1" ? [self.me, self.bob] : nil }
        h.received(body(#"{"room":"a-1","text":"in","type":"chat"}"#), from: eve, members: members)
        h.received(body(#"{"room":"b-2","text":"unknown","type":"chat"}"#), from: bob, members: members)
        h.received(body(#"{"room":"a-1","text":"ok","type":"chat"}"#), from: bob, members: members)
        XCTAssertEqual(h.recent(room: nil).map(\.text), ["ok"])
        XCTAssertEqual(h.droppedMessages, 2)
        for n in 0..<10 {
            h.received(body(#"{"room":"lobby","text":"spam \#(n)","type":"chat"}"#), from: eve) { _ in nil }
        }
        // Every chat message counts against the bucket of 5, the dropped table message above included.
        XCTAssertEqual(h.recent(room: "lobby").count, 4, "eve's bucket holds 5, one already spent")
        let long = String(repeating: "x", count: ChatMessage.maxTextBytes + 1)
        h.received(body(#"{"room":"lobby","text":"\#(long)","type":"chat"}"#), from: bob) { _ in nil }
        XCTAssertFalse(h.recent(room: "lobby").contains { $0.text == long })
    }
}
