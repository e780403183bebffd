import Logging
import NIOCore
import NIOEmbedded
import TavoloControl
import TavoloCore
import TavoloTestSupport
import XCTest

@testable import TavoloDaemon

/// `ControlConnection` alone in a `NIOAsyncTestingChannel` (its replies are written from a task, so the channel must
/// be thread-safe): each request line is decoded once, answered with one line matching its id, and every line that
/// is not a request gets an error line, never silence or a crash.
final class ControlConnectionTests: XCTestCase {
    /// What the dispatcher saw: the requests in order.
    actor Seen {
        var requests: [(Int?, ControlRequest)] = []
        func add(_ id: Int?, _ r: ControlRequest) { requests.append((id, r)) }
    }

    func makeChannel(_ dispatch: @escaping ControlDispatcher) async throws -> NIOAsyncTestingChannel {
        let channel = try await NIOAsyncTestingChannel(
            handler: ControlConnection(logger: Logger(label: "test"), dispatch: dispatch))
        // Active, as an accepted connection is: a stream reply stops at an inactive channel.
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1))
        return channel
    }

    func send(_ line: String, to channel: NIOAsyncTestingChannel) async throws {
        try await channel.writeInbound(channel.allocator.buffer(string: line))
    }

    /// The next line written back, without its newline, as JSON.
    func reply(from channel: NIOAsyncTestingChannel) async throws -> JSONValue {
        // The reply is written from a task, off the channel's loop: the testing loop runs what it queued.
        var written: ByteBuffer?
        try await eventually("a reply") {
            await channel.testingEventLoop.run()
            written = try await channel.readOutbound(as: ByteBuffer.self)
            return written != nil
        }
        guard var buffer = written else { throw NoReply(description: "no reply") }
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        XCTAssertEqual(bytes.last, UInt8(ascii: "\n"), "a reply is one line")
        return try JSONValue(json: Array(bytes.dropLast()))
    }

    func field(_ value: JSONValue, _ path: String...) -> JSONValue {
        var v = value
        for key in path {
            guard case .object(let o) = v, let next = o[key] else { return .null }
            v = next
        }
        return v
    }

    func testARequestIsDispatchedOnceAndAnsweredWithItsID() async throws {
        let seen = Seen()
        let channel = try await makeChannel { id, request in
            await seen.add(id, request)
            return .ok(["nodes": 1], id: id)
        }
        try await send(#"{"id":3,"op":"status"}"#, to: channel)
        let answer = try await reply(from: channel)
        XCTAssertEqual(field(answer, "id"), .integer(3))
        XCTAssertEqual(field(answer, "ok"), .bool(true))
        let requests = await seen.requests
        XCTAssertEqual(requests.count, 1)
        XCTAssertEqual(requests.first?.0, 3)
        guard case .status? = requests.first?.1 else { return XCTFail("not decoded as status: \(requests)") }
        _ = try await channel.finish()
    }

    func testLinesThatAreNotRequestsGetOneErrorLineEach() async throws {
        let seen = Seen()
        let channel = try await makeChannel { id, request in
            await seen.add(id, request)
            return .ok(["unexpected": true], id: id)
        }
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        let cases: [(line: String, code: String, id: JSONValue)] = [
            ("not json", "control/bad-request", .null),
            (deep, "control/bad-request", .null),
            (#"{"id":5,"op":"no-such-op"}"#, "control/unknown-op", .integer(5)),
            (#"{"id":6}"#, "control/bad-params", .integer(6)),
            ("[1,2]", "control/bad-request", .null),
        ]
        for c in cases {
            try await send(c.line, to: channel)
            let answer = try await reply(from: channel)
            XCTAssertEqual(field(answer, "ok"), .bool(false), c.line)
            XCTAssertEqual(field(answer, "error", "code"), .string(c.code), c.line)
            XCTAssertEqual(field(answer, "id"), c.id, c.line)
        }
        let dispatched = await seen.requests.count
        XCTAssertEqual(dispatched, 0, "nothing that is not a request reaches the dispatcher")
        _ = try await channel.finish()
    }

    func testAStreamReplyWritesItsFirstLineThenEachLineInOrder() async throws {
        let (lines, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let channel = try await makeChannel { _, _ in
            .stream(first: Array(#"{"ok":true}"#.utf8), rest: lines)
        }
        try await send(#"{"op":"peers"}"#, to: channel)
        let first = try await reply(from: channel)
        XCTAssertEqual(field(first, "ok"), .bool(true))
        for n in 1...3 { continuation.yield(Array(#"{"event":\#(n)}"#.utf8)) }
        for n in 1...3 {
            let line = try await reply(from: channel)
            XCTAssertEqual(field(line, "event"), .integer(Int64(n)))
        }
        continuation.finish()
        _ = try await channel.finish()
    }
}

struct NoReply: Error, CustomStringConvertible {
    let description: String
}
