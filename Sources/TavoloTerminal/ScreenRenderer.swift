/// Turns screen lines into what a terminal is sent: a full repaint from the top-left corner, each line cleared to
/// its end, everything below the last line cleared. Pure, so tests compare its output as text.
public struct ScreenRenderer: Sendable {
    public var width: Int
    public var height: Int
    public var colour: Bool

    public init(width: Int, height: Int, colour: Bool) {
        self.width = max(20, width)
        self.height = max(5, height)
        self.colour = colour
    }

    /// The escape-coded frame for `lines`, clipped to the screen (the last line is kept: it is the prompt).
    public func frame(_ lines: [Line]) -> String {
        var shown = lines
        if shown.count > height, let last = shown.last { shown = Array(shown.prefix(height - 1)) + [last] }
        var out = "\u{1B}[H"
        for (i, line) in shown.enumerated() {
            out += encode(line.clipped(to: width)) + "\u{1B}[K"
            if i < shown.count - 1 { out += "\r\n" }
        }
        return out + "\u{1B}[J"
    }

    /// One line with its styles as SGR escapes (or plain text without colour).
    public func encode(_ line: Line) -> String {
        guard colour else { return line.text }
        var out = ""
        for span in line.spans {
            let sgr = span.style.sgr
            out += sgr.isEmpty ? span.text : sgr + span.text + "\u{1B}[0m"
        }
        return out
    }

    /// Plain text of a screen, trailing spaces removed: what tests and the line mode print.
    public static func plainText(_ lines: [Line]) -> String {
        lines.map { l in
            var t = l.text
            while t.last == " " { t.removeLast() }
            return t
        }.joined(separator: "\n")
    }
}
