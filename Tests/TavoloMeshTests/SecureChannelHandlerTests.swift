import Crypto
import NIOCore
import NIOEmbedded
import TavoloProtocol
import XCTest

@testable import TavoloMesh

/// `SecureChannelHandler` alone: two `EmbeddedChannel`s, an initiator and a responder, with the bytes each writes
/// carried to the other by hand. A collector at the tail records what would reach the rest of the pipeline.
final class SecureChannelHandlerTests: XCTestCase {
    typealias Key = Curve25519.KeyAgreement.PrivateKey

    final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var frames: [[UInt8]] = []
        var errors: [Error] = []
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            frames.append(Array(unwrapInboundIn(data).readableBytesView))
        }
        func errorCaught(context: ChannelHandlerContext, error: Error) { errors.append(error) }
    }

    struct End {
        var channel: EmbeddedChannel
        var collector: Collector
        var key: Key
    }

    private func end(initiator: Bool, key: Key = Key()) throws -> End {
        let collector = Collector()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(SecureChannelHandler(initiator: initiator, staticKey: key))
        try channel.pipeline.syncOperations.addHandler(collector)
        return End(channel: channel, collector: collector, key: key)
    }

    private func handshakeFrame(_ key: Key, claiming id: NodeID? = nil, name: String) throws -> ByteBuffer {
        let derived = try XCTUnwrap(NodeID.derived(from: key.publicKey))
        let h = Handshake(version: 3, nodeId: id ?? derived, name: name, udpPort: 4000, capabilities: ["tables"])
        return ByteBuffer(bytes: try Frame.handshake(h).encoded())
    }

    /// Moves everything `from` wrote into `to`; returns the wire frames carried (whole writes).
    @discardableResult
    private func carry(_ from: End, _ to: End, tamper: ((inout [UInt8]) -> Void)? = nil) throws -> Int {
        var n = 0
        while let out = try from.channel.readOutbound(as: ByteBuffer.self) {
            var bytes = Array(out.readableBytesView)
            if let tamper { tamper(&bytes) }
            try to.channel.writeInbound(ByteBuffer(bytes: bytes))
            n += 1
        }
        return n
    }

    /// Connects both ends and lets each session write its handshake; runs the three Noise messages.
    private func connect(
        _ a: End, _ b: End, aClaims: NodeID? = nil, bClaims: NodeID? = nil,
        tamperMessage: Int? = nil
    ) throws {
        let address = try SocketAddress(ipAddress: "127.0.0.1", port: 1)
        try b.channel.connect(to: address).wait()
        try b.channel.writeOutbound(try handshakeFrame(b.key, claiming: bClaims, name: "bravo"))
        try a.channel.connect(to: address).wait()
        try a.channel.writeOutbound(try handshakeFrame(a.key, claiming: aClaims, name: "alpha"))
        let flip: (Int) -> ((inout [UInt8]) -> Void)? = { m in
            tamperMessage == m ? { $0[$0.count - 1] ^= 0x01 } : nil
        }
        XCTAssertEqual(try carry(a, b, tamper: flip(1)), 1)  // message 1
        try carry(b, a, tamper: flip(2))  // message 2
        try carry(a, b, tamper: flip(3))  // message 3
    }

    private func application(_ json: String) -> ByteBuffer {
        ByteBuffer(bytes: (try? Frame.application(.tables, Array(json.utf8)).encoded()) ?? [])
    }

    func testHandshakeDeliversEachPeersHandshakeThenFramesTravelSealed() throws {
        let a = try end(initiator: true)
        let b = try end(initiator: false)
        try connect(a, b)
        XCTAssertEqual(a.collector.frames.count, 1)
        XCTAssertEqual(b.collector.frames.count, 1)
        XCTAssertEqual(a.collector.frames.first, Array(try handshakeFrame(b.key, name: "bravo").readableBytesView))
        XCTAssertEqual(b.collector.frames.first, Array(try handshakeFrame(a.key, name: "alpha").readableBytesView))
        let frame = application(#"{"kind":"hello"}"#)
        try a.channel.writeOutbound(frame)
        let wire = try XCTUnwrap(try a.channel.readOutbound(as: ByteBuffer.self))
        XCTAssertEqual(wire.getBytes(at: 0, length: 4), [0x54, 0x56, 3, 5])
        XCTAssertEqual(wire.readableBytes, frame.readableBytes + 16)
        XCTAssertNil(String(decoding: wire.readableBytesView, as: UTF8.self).range(of: "hello"))
        try b.channel.writeInbound(wire)
        try b.channel.writeOutbound(application(#"{"kind":"back"}"#))
        try carry(b, a)
        XCTAssertEqual(b.collector.frames.last, Array(frame.readableBytesView))
        XCTAssertEqual(a.collector.frames.last, Array(application(#"{"kind":"back"}"#).readableBytesView))
        XCTAssertTrue(a.collector.errors.isEmpty && b.collector.errors.isEmpty)
    }

    func testAFlippedByteInAnySealedFrameCutsTheConnectionAndDeliversNothing() throws {
        let frame = application(#"{"kind":"hello","n":12345}"#)
        let sealedSize = frame.readableBytes + 16
        for position in [0, 2, 3, 4, 5, 10, 20, sealedSize - 17, sealedSize - 1] {
            let a = try end(initiator: true)
            let b = try end(initiator: false)
            try connect(a, b)
            try a.channel.writeOutbound(frame)
            try a.channel.writeOutbound(application(#"{"kind":"after"}"#))
            try carry(a, b) { if $0.count == sealedSize { $0[position] ^= 0x01 } }
            XCTAssertEqual(b.collector.frames.count, 1, "byte \(position): only the handshake was delivered")
            XCTAssertEqual(b.collector.errors.count, 1, "byte \(position)")
        }
    }

    func testAFlippedByteInAnyHandshakeMessageFailsAndDeliversNothing() throws {
        for message in 1...3 {
            let a = try end(initiator: true)
            let b = try end(initiator: false)
            try connect(a, b, tamperMessage: message)
            XCTAssertTrue(b.collector.frames.isEmpty, "message \(message)")
            if message < 3 { XCTAssertTrue(a.collector.frames.isEmpty, "message \(message)") }
            // The side that failed authentication says circle-mismatch in clear (§3.8); the other side fails on
            // that refusal (or has nothing more to read).
            let errors = (a.collector.errors + b.collector.errors).map { "\($0)" }
            XCTAssertTrue((1...2).contains(errors.count), "message \(message): \(errors)")
            XCTAssertEqual(
                errors.filter { $0.contains("authentication failed") }.count, 1, "message \(message): \(errors)")
            if errors.count == 2 { XCTAssertTrue(errors.contains { $0.contains("circle-mismatch") }, "\(errors)") }
        }
    }

    func testAResponderClaimingAnIdItsKeyDoesNotGiveIsRefused() throws {
        let a = try end(initiator: true)
        let b = try end(initiator: false)
        let stolen = try XCTUnwrap(NodeID.derived(from: Key().publicKey))
        try connect(a, b, bClaims: stolen)
        XCTAssertTrue(a.collector.frames.isEmpty)
        XCTAssertTrue(b.collector.frames.isEmpty, "the initiator never sent message 3")
        guard case .identityMismatch(let claimed, _)? = a.collector.errors.first as? SecureChannelError else {
            return XCTFail("expected identity mismatch, got \(a.collector.errors)")
        }
        XCTAssertEqual(claimed, stolen)
    }

    func testAnInitiatorClaimingAnIdItsKeyDoesNotGiveIsRefused() throws {
        let a = try end(initiator: true)
        let b = try end(initiator: false)
        try connect(a, b, aClaims: try XCTUnwrap(NodeID.derived(from: Key().publicKey)))
        XCTAssertTrue(b.collector.frames.isEmpty)
        XCTAssertTrue(b.collector.errors.first is SecureChannelError)
        try a.channel.writeOutbound(application(#"{"kind":"x"}"#))
        try carry(a, b)
        XCTAssertTrue(b.collector.frames.isEmpty, "nothing after a failed handshake is delivered")
    }

    func testAClearV1FrameInsteadOfTheHandshakeIsRefused() throws {
        let b = try end(initiator: false)
        try b.channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try b.channel.writeInbound(application(#"{"kind":"clear"}"#))
        XCTAssertTrue(b.collector.frames.isEmpty)
        XCTAssertEqual(b.collector.errors.first as? FrameError, .unsupportedVersion(1, expected: 3))
    }
}
