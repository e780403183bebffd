import Logging
import NIOCore
import NIOEmbedded
import TavoloProtocol
import XCTest

@testable import TavoloMesh

/// The UDP pipeline in an `EmbeddedChannel`: every datagram is recorded, and counted under exactly one verdict.
final class DatagramHandlerTests: XCTestCase {
    final class Judge: DatagramHandlerDelegate {
        var verdict = DatagramVerdict.accepted
        var asked: [Datagram] = []
        func datagram(_ datagram: Datagram, from address: SocketAddress) -> DatagramVerdict {
            asked.append(datagram)
            return verdict
        }
        func sealedDatagram(
            _ bytes: UnsafeRawBufferPointer, sender: NodeID, seq: UInt64, from address: SocketAddress
        ) -> DatagramVerdict {
            .rejected
        }
    }

    final class Recorder: FrameRecorder, @unchecked Sendable {
        var frames: [CapturedFrame] = []
        func record(_ frame: CapturedFrame) { frames.append(frame) }
    }

    let sender = NodeID(hex: "00112233445566778899aabbccddeeff")!

    func testEveryDatagramIsRecordedAndCountedOnce() throws {
        let recorder = Recorder()
        let tap = TrafficTap(recorder: recorder)
        let judge = Judge()
        let handler = DatagramHandler(tap: tap, logger: Logger(label: "test.udp"))
        handler.delegate = judge
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(DatagramTrafficHandler(tap: tap))
        try channel.pipeline.syncOperations.addHandler(handler)
        let from = try SocketAddress(ipAddress: "127.0.0.1", port: 5000)
        func arrive(_ bytes: [UInt8]) throws {
            try channel.writeInbound(
                AddressedEnvelope(remoteAddress: from, data: channel.allocator.buffer(bytes: bytes)))
        }
        func datagram(_ seq: UInt64, body: String) throws -> [UInt8] {
            try Frame.datagram(Datagram(sender: sender, seq: seq, service: .tables, body: Array(body.utf8))).encoded()
        }

        try arrive(try datagram(1, body: #"{"v":1}"#))
        judge.verdict = .stale
        try arrive(try datagram(1, body: #"{"v":1}"#))
        judge.verdict = .rejected
        try arrive(try datagram(2, body: #"{"v":2}"#))
        judge.verdict = .accepted
        // Refused before the node is asked: not a frame, a body that is not JSON, too large.
        try arrive(Array("garbage".utf8))
        var notJSON = try datagram(3, body: "[]")
        notJSON[notJSON.count - 1] = UInt8(ascii: "[")
        try arrive(notJSON)
        try arrive(try datagram(4, body: "\"\(String(repeating: "x", count: 1_200))\""))

        XCTAssertEqual(judge.asked.map(\.seq), [1, 1, 2])
        XCTAssertEqual(tap.stats.datagramsReceived, 1)
        XCTAssertEqual(tap.stats.datagramsStale, 1)
        XCTAssertEqual(tap.stats.datagramsRejected, 4)
        XCTAssertEqual(recorder.frames.count, 6, "rejected datagrams are in the packet log too")
        XCTAssertTrue(recorder.frames.allSatisfy { $0.direction == .received && $0.transport == .udp })

        // Sent datagrams are counted and recorded on their way out.
        let out = try datagram(5, body: "{}")
        try channel.writeOutbound(AddressedEnvelope(remoteAddress: from, data: channel.allocator.buffer(bytes: out)))
        XCTAssertEqual(tap.stats.datagramsSent, 1)
        XCTAssertEqual(recorder.frames.last?.bytes, out)
        XCTAssertEqual(recorder.frames.last?.direction, .sent)
        // The envelope went on to the (embedded) socket; nothing else is left in the channel.
        XCTAssertNotNil(try channel.readOutbound(as: AddressedEnvelope<ByteBuffer>.self))
        XCTAssertTrue(try channel.finish().isClean)
    }
}
