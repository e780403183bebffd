import Logging
import NIOCore
import NIOEmbedded
import NIOTestUtils
import TavoloProtocol
import XCTest

@testable import TavoloMesh

/// One connection's whole pipeline (`PeerPipeline`) in an `EmbeddedChannel`: bytes in, bytes out, and time moved
/// by hand with `advanceTime`, so timeouts and heartbeats are tested without waiting and without a clock.
final class PeerSessionTests: XCTestCase {
    let localID = NodeID(hex: "80000000000000000000000000000000")!
    let peerID = NodeID(hex: "01000000000000000000000000000000")!

    final class Delegate: PeerSessionDelegate {
        var verdict = HandshakeAdmission.Verdict.accept(replacesExisting: false)
        var admitted: [Handshake] = []
        var established = 0
        var messages: [[UInt8]] = []
        var roundTrips: [TimeAmount] = []
        var closed: [String] = []

        func session(_ session: PeerSession, admit handshake: Handshake) -> HandshakeAdmission.Verdict {
            admitted.append(handshake)
            return verdict
        }
        func sessionEstablished(_ session: PeerSession) { established += 1 }
        var services: [Service] = []
        func session(_ session: PeerSession, received body: [UInt8], for service: Service, form: MessageForm) {
            messages.append(body)
            services.append(service)
        }
        func session(_ session: PeerSession, measured roundTrip: TimeAmount) { roundTrips.append(roundTrip) }
        func sessionClosed(_ session: PeerSession, reason: String) { closed.append(reason) }
    }

    final class Recorder: FrameRecorder, @unchecked Sendable {
        var frames: [CapturedFrame] = []
        func record(_ frame: CapturedFrame) { frames.append(frame) }
    }

    var channel: EmbeddedChannel!
    var delegate: Delegate!
    var session: PeerSession!
    var tap: TrafficTap!
    var recorder: Recorder!

    func open(maxQueuedBytes: Int = 8 << 20) throws {
        channel = EmbeddedChannel()
        delegate = Delegate()
        recorder = Recorder()
        tap = TrafficTap(recorder: recorder)
        var logger = Logger(label: "test.session")
        logger.logLevel = .critical
        let settings = PeerSession.Settings(
            localHandshake: Handshake(nodeId: localID, name: "local", udpPort: 4000, capabilities: ["datagrams"]),
            handshakeTimeout: .seconds(5), maxQueuedBytes: maxQueuedBytes, logger: logger)
        session = PeerSession(settings: settings, outbound: false, expectedPeer: nil)
        session.delegate = delegate
        try PeerPipeline.install(
            on: channel, session: session, tap: tap, heartbeatInterval: .seconds(1), heartbeatTimeout: .seconds(5))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 4001)).wait()
    }

    override func tearDown() {
        _ = try? channel?.finish(acceptAlreadyClosed: true)
    }

    func deliver(_ frame: Frame) throws { try deliver(try frame.encoded()) }

    func deliver(_ bytes: [UInt8]) throws {
        try channel.writeInbound(channel.allocator.buffer(bytes: bytes))
    }

    /// Frames the session has written so far (after letting scheduled flushes run).
    func written() throws -> [Frame] {
        channel.embeddedEventLoop.run()
        var frames: [Frame] = []
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            frames.append(try Frame.parse(bytes, maxPayload: FrameLimits.maxReliablePayload))
        }
        return frames
    }

    func peerHandshake(udpPort: Int = 4001) -> Frame {
        .handshake(Handshake(nodeId: peerID, name: "peer", udpPort: udpPort, capabilities: ["datagrams", "tables"]))
    }

    func goodbyeCode(_ frames: [Frame]) -> GoodbyeCode? {
        for case .goodbye(let g) in frames { return g.code }
        return nil
    }

    func establish() throws {
        try open()
        try deliver(peerHandshake())
        XCTAssertEqual(delegate.established, 1)
        XCTAssertEqual(try written().map(\.type), [.handshake])
    }

    // MARK: Handshake

    func testSendsItsHandshakeAtOnce() throws {
        try open()
        guard case .handshake(let h)? = try written().first else { return XCTFail("no handshake first") }
        XCTAssertEqual(h.nodeId, localID)
    }

    func testHandshakeTimeoutClosesWithAGoodbye() throws {
        try open()
        _ = try written()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(4_999))
        XCTAssertTrue(try written().isEmpty)
        XCTAssertTrue(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        XCTAssertEqual(goodbyeCode(try written()), .handshakeTimeout)
        XCTAssertFalse(channel.isActive)
        XCTAssertEqual(delegate.closed.count, 1)
        XCTAssertTrue(delegate.closed[0].hasPrefix("handshake-timeout"), delegate.closed[0])
    }

    func testSomethingOtherThanAHandshakeFirstIsRefused() throws {
        try open()
        try deliver(.application(.tables, Array("{}".utf8)))
        XCTAssertEqual(goodbyeCode(try written()), .handshakeRequired)
        XCTAssertFalse(channel.isActive)
        XCTAssertTrue(delegate.messages.isEmpty)
    }

    func testAdmissionRefusalIsSentAsTheGoodbye() throws {
        try open()
        delegate.verdict = .refuse(.init(code: .wrongDialer, reason: "smaller id dials"))
        try deliver(peerHandshake())
        XCTAssertEqual(goodbyeCode(try written()), .wrongDialer)
        XCTAssertFalse(channel.isActive)
        XCTAssertEqual(delegate.established, 0)
    }

    /// A malformed handshake never reaches admission: `bad-frame`.
    func testInvalidHandshakesAreBadFrames() throws {
        for port in [70000, -5, 99_999_999_999, 0] {
            try open()
            try deliver(peerHandshake(udpPort: port))
            XCTAssertEqual(goodbyeCode(try written()), .badFrame, "udpPort \(port)")
            XCTAssertFalse(channel.isActive)
            XCTAssertTrue(delegate.admitted.isEmpty)
        }
        try open()
        var bytes: [UInt8] = []
        let json = Array(
            #"{"capabilities":[],"name":"p","nodeId":"0100000000000000000000000000000A","udpPort":1,"version":1}"#.utf8)
        FrameHeader(type: .handshake, length: UInt32(json.count)).encode(into: &bytes)
        try deliver(bytes + json)
        XCTAssertEqual(goodbyeCode(try written()), .badFrame)
        XCTAssertTrue(delegate.admitted.isEmpty)
    }

    // MARK: Established

    func testApplicationMessagesArePassedUpAndNonJSONIsABadFrame() throws {
        try establish()
        try deliver(.application(.tables, Array(#"{"type":"x"}"#.utf8)))
        XCTAssertEqual(delegate.messages, [Array(#"{"type":"x"}"#.utf8)])
        var bytes: [UInt8] = []
        FrameHeader(type: .application, length: 5).encode(into: &bytes)
        try deliver(bytes + Array("{nope".utf8))
        XCTAssertEqual(goodbyeCode(try written()), .badFrame)
        XCTAssertFalse(channel.isActive)
        XCTAssertEqual(delegate.messages.count, 1)
        XCTAssertTrue(delegate.closed.first?.hasPrefix("bad-frame") ?? false, "\(delegate.closed)")
    }

    func testHeartbeatsEveryIntervalAcksAndRoundTrips() throws {
        try establish()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(999))
        XCTAssertTrue(try written().isEmpty)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        guard case .heartbeat(let first)? = try written().first else { return XCTFail("no heartbeat after 1 s") }
        XCTAssertEqual(first.seq, 1)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(30))
        try deliver(.heartbeatAck(first))
        XCTAssertEqual(delegate.roundTrips, [.milliseconds(30)])
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(970))
        guard case .heartbeat(let second)? = try written().first else { return XCTFail("no second heartbeat") }
        XCTAssertEqual(second.seq, 2)
        // The peer's heartbeat is answered at once with the same values.
        try deliver(.heartbeat(Heartbeat(seq: 7, sentAt: 42)))
        XCTAssertEqual(try written(), [.heartbeatAck(Heartbeat(seq: 7, sentAt: 42))])
        // An ack claiming to come from the future is not a round trip.
        try deliver(.heartbeatAck(Heartbeat(seq: 3, sentAt: UInt64.max)))
        XCTAssertEqual(delegate.roundTrips.count, 1)
    }

    func testSilentPeerGetsGoodbyeTimeoutAndAnyFrameCountsAsHearing() throws {
        try establish()
        // Heard at 3 s (an application message), so the 5 s timeout runs from there.
        channel.embeddedEventLoop.advanceTime(by: .seconds(3))
        try deliver(.application(.tables, Array("[]".utf8)))
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        XCTAssertNil(goodbyeCode(try written()))
        XCTAssertTrue(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        XCTAssertEqual(goodbyeCode(try written()), .timeout)
        XCTAssertFalse(channel.isActive)
        XCTAssertTrue(delegate.closed.first?.hasPrefix("timeout") ?? false, "\(delegate.closed)")
    }

    func testSecondHandshakeIsAProtocolError() throws {
        try establish()
        try deliver(peerHandshake())
        XCTAssertEqual(goodbyeCode(try written()), .protocolError)
    }

    func testGoodbyeFromThePeerClosesWithoutAnswer() throws {
        try establish()
        try deliver(.goodbye(Goodbye(code: .shutdown, reason: "bye")))
        XCTAssertTrue(try written().isEmpty)
        XCTAssertFalse(channel.isActive)
        XCTAssertEqual(delegate.closed, ["peer said goodbye: shutdown: bye"])
    }

    // MARK: Slow reader

    /// Bytes written and not yet sent pile up when the peer does not read; past the limit the peer is dropped.
    func testSlowReaderIsDroppedOnceTheQueuePassesTheLimit() throws {
        try open(maxQueuedBytes: 1_000)
        try deliver(peerHandshake())
        _ = try written()
        let frame = try Frame.application(.tables, Array("\"\(String(repeating: "x", count: 387))\"".utf8)).encoded()
        XCTAssertEqual(frame.count, 400)
        // A reader that keeps up is never dropped, however much it is sent.
        for _ in 0..<10 {
            XCTAssertTrue(session.write(frame, type: .application))
            XCTAssertEqual(try written().count, 1)
        }
        // One that does not: nothing is sent between these writes.
        XCTAssertTrue(session.write(frame, type: .application))
        XCTAssertTrue(session.write(frame, type: .application))
        XCTAssertFalse(session.write(frame, type: .application))
        XCTAssertEqual(goodbyeCode(try written()), .slowReader)
        XCTAssertFalse(channel.isActive)
        XCTAssertTrue(delegate.closed.first?.contains("slow reader") ?? false, "\(delegate.closed)")
    }

    // MARK: Counting and capture

    /// Every whole frame is counted and recorded once, in each direction, by the one `TrafficHandler`.
    func testTrafficIsCountedAndRecordedInThePipeline() throws {
        try establish()
        let app = try Frame.application(.tables, Array("[1]".utf8)).encoded()
        try deliver(app)
        XCTAssertTrue(session.write(app, type: .application))
        let out = try written()
        XCTAssertEqual(out.map(\.type), [.application])
        let handshakeOut = try Frame.handshake(
            Handshake(nodeId: localID, name: "local", udpPort: 4000, capabilities: ["datagrams"])
        ).encoded()
        let handshakeIn = try peerHandshake().encoded()
        XCTAssertEqual(tap.stats.framesReceived, 2)
        XCTAssertEqual(tap.stats.bytesReceived, handshakeIn.count + app.count)
        XCTAssertEqual(tap.stats.framesSent, 2)
        XCTAssertEqual(tap.stats.bytesSent, handshakeOut.count + app.count)
        XCTAssertEqual(recorder.frames.map(\.direction), [.sent, .received, .received, .sent])
        XCTAssertEqual(recorder.frames.map(\.bytes), [handshakeOut, handshakeIn, app, app])
        XCTAssertTrue(recorder.frames.allSatisfy { $0.transport == .tcp })
    }

    /// A frame that fails to decode is still in the packet log (it crossed the socket), and so is the goodbye.
    func testABadFrameIsRecordedAndCounted() throws {
        try establish()
        var bytes: [UInt8] = []
        FrameHeader(type: .application, length: 5).encode(into: &bytes)
        bytes += Array("{nope".utf8)
        try deliver(bytes)
        _ = try written()
        XCTAssertEqual(recorder.frames.last(where: { $0.direction == .received })?.bytes, bytes)
        XCTAssertEqual(recorder.frames.last?.direction, .sent)
        XCTAssertEqual(tap.stats.framesReceived, 2)
        XCTAssertEqual(tap.stats.framesSent, 2)  // handshake, goodbye
    }
}
