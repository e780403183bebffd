/// A chat message on the mesh (PROTOCOL.md §12): an application message of the chat service (§3.9),
/// `{"type": "chat", "room", "text"}`, on the reliable channel. Who wrote it is the connection it came on, never a
/// field.
public struct ChatMessage: Codable, Sendable, Equatable {
    /// The lobby: every connected node.
    public static let lobby = "lobby"
    /// Longest text, in bytes of UTF-8, after control characters are removed.
    public static let maxTextBytes = 500

    public var type: String
    /// `lobby`, or a table id (1–64 ASCII letters, digits and `-`): that table's members.
    public var room: String
    public var text: String

    public init(room: String, text: String) {
        type = "chat"
        self.room = room
        self.text = text
    }

    /// Whether `room` has the form of a room name (`lobby` is also a valid table id, and means the lobby).
    public static func isRoom(_ room: String) -> Bool {
        !room.isEmpty && room.utf8.count <= 64
            && room.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") }
    }

    /// What a person may send or see: control characters (C0, DEL, C1, and the line and paragraph separators)
    /// become nothing, runs of white space one space, and the ends are trimmed. Nil when nothing is left or it
    /// is longer than `maxTextBytes`.
    public static func clean(_ text: String) -> String? {
        var out = String.UnicodeScalarView()
        var lastWasSpace = true
        for u in text.unicodeScalars {
            let v = u.value
            let control =
                v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || HiddenCharacters.contains(u)
            let space = v == 0x20 || v == 0x09 || v == 0x0A || v == 0x0D
            if space {
                if !lastWasSpace { out.append(" ") }
                lastWasSpace = true
            } else if !control {
                out.append(u)
                lastWasSpace = false
            }
        }
        var s = String(out)
        while s.last == " " { s.removeLast() }
        guard !s.isEmpty, s.utf8.count <= maxTextBytes else { return nil }
        return s
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (48...57).contains(self) || (65...90).contains(self) || (97...122).contains(self)
    }
}
