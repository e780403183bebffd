import NIOCore
import NIOEmbedded
import TavoloProtocol
import XCTest

@testable import TavoloMesh

/// `HeartbeatHandler` alone in an `EmbeddedChannel`, time moved by hand: what it writes, what it asks the session
/// for (outbound user events, recorded at the head of the pipeline), and when.
final class HeartbeatHandlerTests: XCTestCase {
    /// Records the outbound user events that reach the head of the pipeline (the session's place).
    final class SessionRequests: ChannelOutboundHandler {
        typealias OutboundIn = Frame
        var requests: [PeerSessionRequest] = []

        func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
            if let request = event as? PeerSessionRequest { requests.append(request) }
            promise?.succeed()
        }
    }

    var channel: EmbeddedChannel!
    var session: SessionRequests!

    override func setUp() {
        session = SessionRequests()
        channel = EmbeddedChannel()
        XCTAssertNoThrow(try channel.pipeline.syncOperations.addHandler(session))
        XCTAssertNoThrow(
            try channel.pipeline.syncOperations.addHandler(
                HeartbeatHandler(interval: .seconds(1), timeout: .seconds(3))))
    }

    override func tearDown() {
        _ = try? channel.finish()
    }

    /// The next frame written; the handler writes without flushing (the session flushes once per read), so the test
    /// flushes as the session would.
    func written() throws -> Frame? {
        channel.flush()
        return try channel.readOutbound(as: Frame.self)
    }

    func established() {
        channel.pipeline.fireUserInboundEventTriggered(PeerSessionEvent.established)
    }

    func testNothingIsSentBeforeTheSessionIsEstablished() throws {
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        XCTAssertNil(try written())
        XCTAssertTrue(session.requests.isEmpty)
    }

    func testAHeartbeatEveryIntervalNumberedFromOne() throws {
        established()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(999))
        XCTAssertNil(try written(), "nothing before the first interval")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        guard case .heartbeat(let first)? = try written() else {
            return XCTFail("no heartbeat after one interval")
        }
        XCTAssertEqual(first.seq, 1)
        channel.pipeline.fireChannelRead(NIOAny(Frame.heartbeatAck(first)))  // heard from the peer
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        guard case .heartbeat(let second)? = try written() else {
            return XCTFail("no second heartbeat")
        }
        XCTAssertEqual(second.seq, 2)
    }

    func testAPeersHeartbeatIsAnsweredWithItsAck() throws {
        established()
        let theirs = Heartbeat(seq: 7, sentAt: 123)
        try channel.writeInbound(Frame.heartbeat(theirs))
        XCTAssertEqual(try written(), .heartbeatAck(theirs))
    }

    func testAnAckGivesARoundTripAndOneFromTheFutureNone() throws {
        established()
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        guard case .heartbeat(let sent)? = try written() else {
            return XCTFail("no heartbeat")
        }
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(40))
        try channel.writeInbound(Frame.heartbeatAck(sent))
        guard case .roundTrip(let rtt)? = session.requests.last else { return XCTFail("no round trip reported") }
        XCTAssertEqual(rtt, .milliseconds(40))
        let count = session.requests.count
        try channel.writeInbound(Frame.heartbeatAck(Heartbeat(seq: 9, sentAt: .max)))
        XCTAssertEqual(session.requests.count, count, "an ack claiming a send time in the future is no round trip")
    }

    func testSilenceLongerThanTheTimeoutAsksForGoodbyeTimeout() throws {
        established()
        channel.embeddedEventLoop.advanceTime(by: .seconds(3))
        XCTAssertTrue(session.requests.isEmpty, "exactly the timeout is not past it")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        guard case .goodbye(let code, _)? = session.requests.last else { return XCTFail("no goodbye asked for") }
        XCTAssertEqual(code, .timeout)
        // And nothing more after it: the repeated task is cancelled.
        let count = session.requests.count
        while (try? written()) != nil {}
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        XCTAssertEqual(session.requests.count, count)
        XCTAssertNil(try written())
    }

    func testAnyFrameCountsAsHearingFromThePeer() throws {
        established()
        for _ in 0..<5 {
            channel.embeddedEventLoop.advanceTime(by: .seconds(2))
            try channel.writeInbound(Frame.heartbeat(Heartbeat(seq: 1, sentAt: 0)))
        }
        XCTAssertFalse(session.requests.contains { if case .goodbye = $0 { true } else { false } })
    }
}

/// `PendingBytesHandler`: every byte of a connection not yet accepted is reported, passed on, and the handler
/// leaves the pipeline once the node says the connection no longer counts as pending.
final class PendingBytesHandlerTests: XCTestCase {
    func testReportsPassesOnAndLeavesOnceNotPending() throws {
        var reported: [Int] = []
        var stillPending = true
        let handler = PendingBytesHandler { n in
            reported.append(n)
            return stillPending
        }
        let channel = EmbeddedChannel(handler: handler)
        defer { _ = try? channel.finish() }
        try channel.writeInbound(channel.allocator.buffer(bytes: [1, 2, 3]))
        XCTAssertEqual(try channel.readInbound(as: ByteBuffer.self)?.readableBytes, 3)
        stillPending = false
        try channel.writeInbound(channel.allocator.buffer(bytes: [4, 5]))
        XCTAssertEqual(try channel.readInbound(as: ByteBuffer.self)?.readableBytes, 2, "the last read still passes on")
        XCTAssertThrowsError(try channel.pipeline.syncOperations.handler(type: PendingBytesHandler.self))
        try channel.writeInbound(channel.allocator.buffer(bytes: [6]))
        XCTAssertEqual(reported, [3, 2], "nothing is reported once the handler left")
        XCTAssertEqual(try channel.readInbound(as: ByteBuffer.self)?.readableBytes, 1)
    }
}
