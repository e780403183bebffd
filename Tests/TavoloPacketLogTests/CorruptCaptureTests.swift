import Foundation
import TavoloPacketLog
import TavoloProtocol
import XCTest

/// Damaged files are decoded as far as possible, the damage is located, and nothing crashes or hangs.
final class CorruptCaptureTests: XCTestCase {
    /// Byte offsets where each block starts.
    func blockOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var p = 0
        while p + 8 <= bytes.count {
            offsets.append(p)
            let len = Int(bytes[p + 4]) | Int(bytes[p + 5]) << 8 | Int(bytes[p + 6]) << 16 | Int(bytes[p + 7]) << 24
            p += len
        }
        return offsets
    }

    func testNotACaptureAndEmpty() {
        XCTAssertThrowsError(try PacketLog.decode([])) { XCTAssertEqual($0 as? PacketLogReadError, .empty) }
        XCTAssertThrowsError(try PacketLog.decode(Array("hello world".utf8))) { e in
            XCTAssertEqual(e as? PacketLogReadError, .notACapture(firstBytes: "68656c6c"))
        }
        XCTAssertThrowsError(try PacketLog.read(path: "/nonexistent/file.pcapng")) { e in
            XCTAssertEqual("\(e)", "cannot read /nonexistent/file.pcapng: no such file")
        }
    }

    func testCutInsideABlockIsReportedWithBlockAndOffset() throws {
        let bytes = Fixtures.pcapng(Fixtures.records(bigBody: 10))
        let offsets = blockOffsets(bytes)
        // Cut in the middle of block 6 (the 4th packet).
        let cut = offsets[5] + 30
        let log = try PacketLog.decode(Array(bytes[..<cut]))
        XCTAssertEqual(log.frames.count, 3)
        let issue = try XCTUnwrap(log.issues.last)
        XCTAssertEqual(issue.kind, .truncatedFile)
        XCTAssertEqual(issue.block, 6)
        XCTAssertEqual(issue.offset, offsets[5])
        XCTAssertTrue(issue.stopsDecoding)
        XCTAssertTrue(
            issue.description.contains("the file ends inside this enhanced packet block: it needs"), issue.description)
    }

    func testCutInsideAFrameSplitAcrossSegments() throws {
        let records = Array(Fixtures.records(bigBody: 70_000).prefix(11))
        let bytes = Fixtures.pcapng(records)
        let offsets = blockOffsets(bytes)
        // The last frame takes the last two blocks; keep the first of them.
        let log = try PacketLog.decode(Array(bytes[..<offsets[offsets.count - 1]]))
        XCTAssertEqual(log.frames.count, 10)
        XCTAssertEqual(log.issues.count, 1, "\(log.issues)")
        let issue = try XCTUnwrap(log.issues.first)
        XCTAssertEqual(issue.kind, .truncatedFrame)
        XCTAssertEqual(issue.packet, 11)
        XCTAssertTrue(
            issue.message.contains("the capture ends inside a application frame (65000 of its 70034 bytes)"),
            issue.message)
    }

    func testFlippedPayloadByteIsCaughtByTheChecksum() throws {
        var bytes = Fixtures.pcapng(Fixtures.records(bigBody: 10))
        let offsets = blockOffsets(bytes)
        // Block 3 is the first packet: EPB header 28 bytes, IPv4 20, TCP 20, then the frame; change a JSON byte.
        let at = offsets[2] + 28 + 40 + 20
        bytes[at] ^= 0x01
        let log = try PacketLog.decode(bytes)
        let issue = try XCTUnwrap(log.issues.first)
        XCTAssertEqual(issue.kind, .checksum)
        XCTAssertEqual(issue.packet, 1)
        XCTAssertEqual(issue.block, 3)
        XCTAssertEqual(issue.offset, offsets[2])
        XCTAssertEqual(log.frames.count, 13, "the frame is still decoded as far as it goes")
    }

    func testDamagedBlockLengthIsSkippedAndDecodingGoesOn() throws {
        var bytes = Fixtures.pcapng(Fixtures.records(bigBody: 10))
        let offsets = blockOffsets(bytes)
        bytes[offsets[7] + 4] ^= 0x40  // block 8's leading length: packet 6, bravo's heartbeat-ack
        let log = try PacketLog.decode(bytes)
        let issue = try XCTUnwrap(log.issues.first)
        XCTAssertEqual(issue.kind, .corruptBlock)
        XCTAssertEqual(issue.block, 8)
        XCTAssertEqual(issue.offset, offsets[7])
        XCTAssertTrue(issue.message.contains("skipped"), issue.message)
        // One heartbeat-ack is gone, so bravo's TCP stream has a gap: reported, then decoding resumes.
        XCTAssertEqual(log.frames.count, 12)
        XCTAssertTrue(log.issues.contains { $0.kind == .streamGap }, "\(log.issues)")
    }

    func testEveryTruncationAndEveryFlippedByteIsSurvived() throws {
        let bytes = Fixtures.pcapng(Fixtures.records(bigBody: 200))
        let whole = try PacketLog.decode(bytes)
        XCTAssertEqual(whole.issues, [])
        for cut in stride(from: 1, to: bytes.count, by: 3) {
            let log = try? PacketLog.decode(Array(bytes[..<cut]))
            if let log, cut >= 4 {
                XCTAssertFalse(
                    log.issues.isEmpty && log.frames.count == whole.frames.count, "cut at \(cut) went unnoticed")
            }
        }
        var unnoticed: [Int] = []
        for i in 0..<bytes.count {
            var b = bytes
            b[i] ^= 0x20
            guard let log = try? PacketLog.decode(b) else { continue }
            let same =
                log.frames.count == whole.frames.count
                && zip(log.frames, whole.frames).allSatisfy { $0.bytes == $1.bytes }
            if log.issues.isEmpty && !same { unnoticed.append(i) }
        }
        XCTAssertEqual(unnoticed, [], "bytes whose change altered the frames without a report")
    }
}
