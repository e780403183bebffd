import NIOCore
import NIOEmbedded
import TavoloProtocol
import XCTest

@testable import TavoloMesh

/// `HeartbeatHandler` alone in an `EmbeddedChannel`, time moved by hand: what it writes, what it asks the session
/// for (outbound user events, recorded at the head of the pipeline), and when.
final class HeartbeatHandlerTests: XCTestCase {
    /// Records the outbound user events that reach the head of the pipeline (the session's place), and counts the
    /// frames written through it as `PeerSession.framesWritten` does; `nodeSends` stands for the node's own frames,
    /// which reach the session without passing the heartbeat handler.
    final class SessionRequests: ChannelOutboundHandler {
        typealias OutboundIn = Frame
        var requests: [PeerSessionRequest] = []
        var framesWritten: UInt64 = 0

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            framesWritten += 1
            context.write(data, promise: promise)
        }

        func nodeSends() { framesWritten += 1 }

        func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
            if let request = event as? PeerSessionRequest { requests.append(request) }
            promise?.succeed()
        }
    }

    var channel: EmbeddedChannel!
    var session: SessionRequests!

    override func setUp() {
        let session = SessionRequests()
        self.session = session
        channel = EmbeddedChannel()
        XCTAssertNoThrow(try channel.pipeline.syncOperations.addHandler(session))
        XCTAssertNoThrow(
            try channel.pipeline.syncOperations.addHandler(
                HeartbeatHandler(interval: .seconds(1), timeout: .seconds(3)) { session.framesWritten }))
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

    /// Heartbeats only where the session is silent (§4.7): after the first, a tick sends one only if nothing was
    /// written since the previous tick, the node's frames and the handler's own acks alike.
    func testAHeartbeatOnlyWhenNothingWasSentSinceTheLastTick() throws {
        established()
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        guard case .heartbeat(let first)? = try written() else { return XCTFail("the first tick always sends one") }
        XCTAssertEqual(first.seq, 1)
        session.nodeSends()
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        XCTAssertNil(try written(), "the node sent a frame during the interval: no heartbeat")
        try channel.writeInbound(Frame.heartbeat(Heartbeat(seq: 1, sentAt: 5)))
        XCTAssertEqual(try written(), .heartbeatAck(Heartbeat(seq: 1, sentAt: 5)))
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        XCTAssertNil(try written(), "the ack was this interval's frame: no heartbeat")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        guard case .heartbeat(let second)? = try written() else {
            return XCTFail("silent for an interval: a heartbeat")
        }
        XCTAssertEqual(second.seq, 2)
    }

    /// A busy session still sends a heartbeat every `refreshTicks` ticks, so its round-trip time stays fresh.
    func testABusySessionRefreshesItsRoundTripNowAndThen() throws {
        established()
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        XCTAssertNotNil(try written())
        var heartbeats: [Int] = []
        for tick in 2...(2 * HeartbeatHandler.refreshTicks + 1) {
            session.nodeSends()
            try channel.writeInbound(Frame.heartbeatAck(Heartbeat(seq: 1, sentAt: 0)))  // the peer is busy too
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
            if case .heartbeat? = try written() { heartbeats.append(tick) }
        }
        XCTAssertEqual(heartbeats, [1 + HeartbeatHandler.refreshTicks, 1 + 2 * HeartbeatHandler.refreshTicks])
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
