import NIOCore
import NIOEmbedded
import NIOTestUtils
import TavoloMesh
import TavoloProtocol
import XCTest

final class FrameDecoderTests: XCTestCase {
    let id = NodeID(bytes: Array(0..<16))!

    func frames() -> [Frame] {
        [
            .handshake(Handshake(nodeId: id, name: "a", udpPort: 1, capabilities: ["datagrams"])),
            .heartbeat(Heartbeat(seq: 1, sentAt: 2)),
            .heartbeatAck(Heartbeat(seq: 1, sentAt: 2)),
            .goodbye(Goodbye(code: .shutdown, reason: "bye")),
            .application(.tables, Array(#"{"k":1}"#.utf8)),
            .application(.tables, Array("[]".utf8)),
        ]
    }

    func buffer(_ bytes: [UInt8]) -> ByteBuffer { ByteBufferAllocator().buffer(bytes: bytes) }

    /// NIO's verifier feeds the input whole, byte by byte and in random chunks, and checks leftovers.
    func testVerifierByteAtATimeAndChunks() throws {
        let pairs = try frames().map { (buffer(try $0.encoded()), [$0]) }
        XCTAssertNoThrow(
            try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: pairs) { FrameDecoder() })
    }

    func testManyFramesInOneBuffer() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder()))
        var all: [UInt8] = []
        for f in frames() { all += try f.encoded() }
        try channel.writeInbound(buffer(all))
        for f in frames() { XCTAssertEqual(try channel.readInbound(as: Frame.self), f) }
        XCTAssertNil(try channel.readInbound(as: Frame.self))
        XCTAssertTrue(try channel.finish().isClean)
    }

    func testOneByteAtATime() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder()))
        let f = frames()[0]
        for b in try f.encoded() {
            XCTAssertNil(try channel.readInbound(as: Frame.self))
            try channel.writeInbound(buffer([b]))
        }
        XCTAssertEqual(try channel.readInbound(as: Frame.self), f)
        XCTAssertTrue(try channel.finish().isClean)
    }

    /// An oversized length is refused from the header alone: no payload is ever buffered.
    func testOversizedFrameRejectedFromHeader() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder(maxPayload: 100)))
        var header: [UInt8] = []
        FrameHeader(type: .application, length: 101).encode(into: &header)
        XCTAssertThrowsError(try channel.writeInbound(buffer(header))) { error in
            XCTAssertEqual(error as? FrameError, .tooLarge(length: 101, limit: 100))
        }
        _ = try? channel.finish()
    }

    func testGarbageRejected() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder()))
        XCTAssertThrowsError(try channel.writeInbound(buffer(Array("GET / HTTP/1.1\r\n".utf8)))) { error in
            guard case .badMagic? = error as? FrameError else { return XCTFail("\(error)") }
        }
        _ = try? channel.finish()
    }

    func testWrongVersionRejected() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder()))
        var header: [UInt8] = []
        FrameHeader(version: 2, type: .heartbeat, length: 0).encode(into: &header)
        XCTAssertThrowsError(try channel.writeInbound(buffer(header))) { error in
            XCTAssertEqual(error as? FrameError, .unsupportedVersion(2, expected: 1))
            XCTAssertEqual((error as? FrameError)?.goodbyeCode, .versionMismatch)
        }
        _ = try? channel.finish()
    }

    func testTruncatedFrameAtEndOfStreamIsReported() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder()))
        let bytes = try frames()[1].encoded()
        try channel.writeInbound(buffer(Array(bytes.dropLast(3))))
        XCTAssertThrowsError(try channel.finish()) { error in
            XCTAssertEqual(error as? FrameError, .truncated(needed: bytes.count, got: bytes.count - 3))
        }
    }

    func testBadPayloadRejected() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder()))
        var bytes: [UInt8] = []
        FrameHeader(type: .handshake, length: 2).encode(into: &bytes)
        bytes += Array("{}".utf8)
        XCTAssertThrowsError(try channel.writeInbound(buffer(bytes))) { error in
            guard case .badPayload(.handshake, _)? = error as? FrameError else { return XCTFail("\(error)") }
        }
        _ = try? channel.finish()
    }
}
