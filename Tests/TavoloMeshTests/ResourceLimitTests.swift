import NIOCore
import NIOEmbedded
import TavoloProtocol
import XCTest

@testable import TavoloMesh

/// The bounds of PROTOCOL.md §3.4 that keep one peer, or many connections, from growing a node's memory or log.
final class ResourceLimitTests: XCTestCase {
    let t0 = NIODeadline.uptimeNanoseconds(1_000_000_000_000)

    // MARK: First frame

    func header(_ type: MessageType, length: Int) -> ByteBuffer {
        var bytes: [UInt8] = []
        FrameHeader(type: type, length: UInt32(length)).encode(into: &bytes)
        return ByteBufferAllocator().buffer(bytes: bytes)
    }

    /// Before its handshake, a connection cannot make the node buffer more than a handshake's worth.
    func testTheFirstFrameIsLimitedToAHandshakesSize() throws {
        let channel = EmbeddedChannel(
            handler: ByteToMessageHandler(FrameSplitter(maxFirstPayload: FrameLimits.maxHandshakePayload)))
        XCTAssertThrowsError(
            try channel.writeInbound(header(.handshake, length: FrameLimits.maxHandshakePayload + 1))
        ) { error in
            XCTAssertEqual(
                error as? FrameError,
                .tooLarge(length: FrameLimits.maxHandshakePayload + 1, limit: FrameLimits.maxHandshakePayload))
            XCTAssertEqual((error as? FrameError)?.goodbyeCode, .frameTooLarge)
        }
        _ = try? channel.finish()
    }

    func testLaterFramesMayUseTheWholeMegabyte() throws {
        let channel = EmbeddedChannel(
            handler: ByteToMessageHandler(FrameSplitter(maxFirstPayload: FrameLimits.maxHandshakePayload)))
        var first = header(.handshake, length: 2)
        first.writeString("{}")
        try channel.writeInbound(first)
        XCTAssertNotNil(try channel.readInbound(as: ByteBuffer.self))
        var big = header(.application, length: 100_000)
        big.writeRepeatingByte(0x20, count: 100_000)
        try channel.writeInbound(big)
        XCTAssertEqual(try channel.readInbound(as: ByteBuffer.self)?.readableBytes, 100_010)
        XCTAssertTrue(try channel.finish().isClean)
    }

    // MARK: Pending connections

    func testPendingConnectionsPerAddress() {
        var p = PendingConnections(limits: .init(perAddress: 2, totalBytes: 1_000))
        let a1 = p.opened(from: "10.0.0.1")
        let a2 = p.opened(from: "10.0.0.1")
        XCTAssertNotNil(a1)
        XCTAssertNotNil(a2)
        XCTAssertNil(p.opened(from: "10.0.0.1"), "a third from the same address")
        XCTAssertNotNil(p.opened(from: "10.0.0.2"), "another address is not affected")
        p.finished(a1 ?? 0)
        XCTAssertNotNil(p.opened(from: "10.0.0.1"), "a slot is free again once one is admitted or closed")
    }

    func testTheOldestPendingConnectionsAreCutFirstWhenTheBudgetIsExceeded() throws {
        var p = PendingConnections(limits: .init(perAddress: 8, totalBytes: 1_000))
        let old = try XCTUnwrap(p.opened(from: "a"))
        let middle = try XCTUnwrap(p.opened(from: "b"))
        let young = try XCTUnwrap(p.opened(from: "c"))
        XCTAssertEqual(p.received(400, on: old), [])
        XCTAssertEqual(p.received(400, on: middle), [])
        XCTAssertEqual(p.totalBytes, 800)
        // The youngest pushes the total over: the oldest goes, and that is enough.
        XCTAssertEqual(p.received(300, on: young), [old])
        XCTAssertEqual(p.totalBytes, 700)
        XCTAssertEqual(p.count, 2)
        // One connection alone over the budget cuts everything older, then itself.
        XCTAssertEqual(p.received(2_000, on: young), [middle, young])
        XCTAssertEqual(p.totalBytes, 0)
        XCTAssertEqual(p.received(10, on: old), [], "bytes on a connection already cut are not counted")
        XCTAssertEqual(p.totalBytes, 0)
    }

    func testAnAdmittedConnectionNoLongerCounts() throws {
        var p = PendingConnections(limits: .init(perAddress: 8, totalBytes: 1_000))
        let a = try XCTUnwrap(p.opened(from: "a"))
        _ = p.received(900, on: a)
        p.finished(a)
        XCTAssertEqual(p.totalBytes, 0)
        XCTAssertEqual(p.received(5_000, on: a), [])
        XCTAssertEqual(p.count, 0)
    }

    // MARK: Lost peers

    func id(_ n: UInt8) -> NodeID { NodeID(bytes: [UInt8](repeating: 0, count: 15) + [n])! }

    func testLostPeersAreForgottenAfterRetentionOrBeyondTheCount() {
        let r = LostPeerRetention(maxRemembered: 2, keepFor: .seconds(60))
        let lost = [
            (id: id(1), since: t0), (id: id(2), since: t0 + .seconds(10)), (id: id(3), since: t0 + .seconds(20)),
        ]
        // Too many: the longest lost goes.
        XCTAssertEqual(r.toForget(lost, now: t0 + .seconds(30)), [id(1)])
        // Too old: gone whatever the count.
        XCTAssertEqual(r.toForget(lost, now: t0 + .seconds(71)), [id(1), id(2)])
        XCTAssertEqual(r.toForget(Array(lost.prefix(2)), now: t0 + .seconds(30)), [])
        XCTAssertEqual(r.toForget([], now: t0), [])
    }

    // MARK: Log lines

    func testOneLogLinePerKeyPerIntervalAndTheRestSummarised() {
        var limiter = LogRateLimiter(interval: .seconds(10))
        XCTAssertTrue(limiter.admit("10.0.0.9", now: t0).write)
        for i in 1...50 { XCTAssertFalse(limiter.admit("10.0.0.9", now: t0 + .milliseconds(Int64(i * 100))).write) }
        XCTAssertTrue(limiter.admit("10.0.0.8", now: t0 + .seconds(1)).write, "another peer has its own allowance")
        let next = limiter.admit("10.0.0.9", now: t0 + .seconds(10))
        XCTAssertTrue(next.write)
        XCTAssertEqual(next.leftOut, 50)
        XCTAssertEqual(limiter.admit("10.0.0.9", now: t0 + .seconds(20)).leftOut, 0)
    }

    func testABurstAllowsSeveralLinesPerInterval() {
        var limiter = LogRateLimiter(interval: .seconds(10), burst: 3)
        let written = (0..<10).filter { limiter.admit("10.0.0.7", now: t0 + .milliseconds(Int64($0))).write }
        XCTAssertEqual(written, [0, 1, 2])
        let next = limiter.admit("10.0.0.7", now: t0 + .seconds(10))
        XCTAssertEqual(next.write, true)
        XCTAssertEqual(next.leftOut, 7)
    }

    func testTheLimiterRemembersABoundedNumberOfKeys() {
        var limiter = LogRateLimiter(interval: .seconds(10), maxKeys: 4)
        for i in 0..<100 { XCTAssertTrue(limiter.admit("peer\(i)", now: t0).write) }
        // Keys past the bound are not remembered, so they are never silenced wrongly; old windows make room.
        XCTAssertTrue(limiter.admit("peer99", now: t0 + .seconds(1)).write)
        XCTAssertFalse(limiter.admit("peer0", now: t0 + .seconds(1)).write)
        XCTAssertTrue(limiter.admit("late", now: t0 + .seconds(11)).write)
        XCTAssertFalse(limiter.admit("late", now: t0 + .seconds(12)).write)
    }
}
