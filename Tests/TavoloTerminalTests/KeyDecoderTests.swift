import TavoloTerminal
import XCTest

final class KeyDecoderTests: XCTestCase {
    func testArrowsInBothCursorModes() {
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D".utf8)), [.up, .down, .right, .left])
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}OA\u{1B}OD".utf8)), [.up, .left])
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}[5~\u{1B}[6~\u{1B}[H".utf8)), [.pageUp, .pageDown, .home])
    }

    func testTextEnterBackspaceEscapeAndEndOfInput() {
        XCTAssertEqual(
            KeyDecoder.keys(Array("d3\r".utf8) + [0x7F, 0x1B, 0x04]),
            [.character("d"), .character("3"), .enter, .backspace, .escape, .endOfInput])
        XCTAssertEqual(KeyDecoder.keys([0x0A]), [.enter])
        XCTAssertEqual(KeyDecoder.keys(Array("é".utf8)), [.character("é")])
    }

    func testUnknownSequencesAndControlBytesAreDropped() {
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}[2~x".utf8) + [0x01]), [.character("x")])
        XCTAssertEqual(KeyDecoder.keys(Array("\u{1B}[".utf8)), [.escape, .character("[")])
    }
}
