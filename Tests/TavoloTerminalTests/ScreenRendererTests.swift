import TavoloTerminal
import XCTest

final class ScreenRendererTests: XCTestCase {
    func testFrameRepaintsFromTheCornerClearsEachLineAndBelow() {
        let r = ScreenRenderer(width: 20, height: 5, colour: false)
        XCTAssertEqual(r.frame(["ab", "cd"]), "\u{1B}[Hab\u{1B}[K\r\ncd\u{1B}[K\u{1B}[J")
    }

    func testLinesAreClippedToTheWidthAndTheLastLineIsKept() {
        let r = ScreenRenderer(width: 20, height: 5, colour: false)
        let lines: [Line] = (1...9).map { Line("line \($0) " + String(repeating: "x", count: 30)) }
        let frame = r.frame(lines)
        XCTAssertTrue(frame.contains("line 1 xxxxxxxxxxxxx\u{1B}[K"))
        XCTAssertFalse(frame.contains("line 5"))
        XCTAssertTrue(frame.contains("line 9"), "the prompt line survives a short screen")
    }

    func testColourIsSGRAroundEachStyledSpanAndTextAloneWithout() {
        let line = Line([Span("[R3]", Style(foreground: 196, bold: true)), Span(" plain")])
        XCTAssertEqual(
            ScreenRenderer(width: 40, height: 5, colour: true).encode(line), "\u{1B}[1;38;5;196m[R3]\u{1B}[0m plain")
        XCTAssertEqual(ScreenRenderer(width: 40, height: 5, colour: false).encode(line), "[R3] plain")
    }

    func testPaddingAndPlainText() {
        XCTAssertEqual(Line("ab").padded(to: 4).text, "ab  ")
        XCTAssertEqual(Line("abcdef").padded(to: 4).text, "abcd")
        XCTAssertEqual(ScreenRenderer.plainText(["a  ", "b"]), "a\nb")
    }
}
