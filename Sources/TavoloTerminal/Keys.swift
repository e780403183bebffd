/// A key press as the play screen understands it.
public enum Key: Equatable, Sendable {
    case up, down, left, right, enter, backspace, escape, pageUp, pageDown, home, end
    /// Ctrl-D: stop watching (the seat stays with the node).
    case endOfInput
    case character(Character)
}

/// Turns the bytes a terminal in raw mode sends into keys (xterm and VT100 arrow sequences, both cursor modes).
/// Pure: one chunk of bytes as `read` returned it in, keys out. A lone ESC at the end of a chunk is the Escape key.
public enum KeyDecoder {
    public static func keys(_ bytes: [UInt8]) -> [Key] {
        var out: [Key] = []
        var i = 0
        var text: [UInt8] = []
        func flushText() {
            if !text.isEmpty {
                for ch in String(decoding: text, as: UTF8.self) { out.append(.character(ch)) }
                text = []
            }
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B, i + 2 < bytes.count, bytes[i + 1] == 0x5B || bytes[i + 1] == 0x4F {
                flushText()
                var j = i + 2
                var params: [UInt8] = []
                while j < bytes.count, (0x30...0x3F).contains(bytes[j]) {
                    params.append(bytes[j])
                    j += 1
                }
                guard j < bytes.count else { break }
                switch (bytes[j], params) {
                case (0x41, _): out.append(.up)
                case (0x42, _): out.append(.down)
                case (0x43, _): out.append(.right)
                case (0x44, _): out.append(.left)
                case (0x48, _): out.append(.home)
                case (0x46, _): out.append(.end)
                case (0x7E, [0x35]): out.append(.pageUp)
                case (0x7E, [0x36]): out.append(.pageDown)
                default: break
                }
                i = j + 1
                continue
            }
            switch b {
            case 0x1B:
                flushText()
                out.append(.escape)
            case 0x0D, 0x0A:
                flushText()
                out.append(.enter)
            case 0x7F, 0x08:
                flushText()
                out.append(.backspace)
            case 0x04:
                flushText()
                out.append(.endOfInput)
            case 0x00..<0x20: flushText()
            default: text.append(b)
            }
            i += 1
        }
        flushText()
        return out
    }
}
