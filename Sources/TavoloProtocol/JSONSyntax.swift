/// RFC 8259 syntax checks on raw bytes, without building values.
///
/// The mesh passes application payloads up as bytes, so it cannot lean on a decoder to notice that a payload is
/// not JSON; PROTOCOL.md §3.5 nevertheless makes such a frame a `bad-frame`. And `JSONDecoder` reads `1.0` or
/// `1e2` as the integer 1 or 100, which §4 refuses where an integer is required: only the token tells.
/// The scanner is iterative (an explicit stack), so deeply nested input cannot exhaust the thread's stack.
public enum JSONSyntax {
    /// What a JSON value is, as far as the checks here need.
    public enum Kind: Equatable, Sendable {
        case object, array, string, bool, null
        /// A number without fraction or exponent: `-?(0|[1-9][0-9]*)`.
        case integer
        /// Any other number (`1.0`, `1e2`).
        case number
    }

    /// Most arrays and objects open at once in any JSON payload of the protocol (PROTOCOL.md §3.4). Every message
    /// of §4 and §9 needs at most 4; `JSONDecoder` costs time cubic in the depth (511 levels, about 1 KiB, took
    /// a second), so a deeper payload is refused before any decoder sees it.
    public static let maxDepth = 16

    /// True if `bytes` are exactly one JSON value of any type, with optional whitespace around it, in valid UTF-8,
    /// with at most `maxDepth` arrays and objects open at once.
    public static func isWellFormed(_ bytes: [UInt8], maxDepth: Int = JSONSyntax.maxDepth) -> Bool {
        scan(bytes, maxDepth: maxDepth).wellFormed
    }

    /// Checks like `isWellFormed` and also says how many bytes were read before the verdict: the work done, which
    /// for a payload nested too deep is bounded by the depth limit, not by the payload's length.
    public static func scan(_ bytes: [UInt8], maxDepth: Int = JSONSyntax.maxDepth) -> (wellFormed: Bool, bytesRead: Int)
    {
        var scanner = Scanner(bytes, maxDepth: maxDepth)
        let ok = scanner.scanDocument(onMember: nil)
        return (ok, scanner.i)
    }

    /// The kinds of the members of a top-level object, keyed by name (escapes resolved). Nil if the bytes are not
    /// a well-formed JSON object (within `maxDepth`), or if a member name occurs twice (which would make the object ambiguous).
    public static func memberKinds(_ bytes: [UInt8]) -> [String: Kind]? {
        var scanner = Scanner(bytes, maxDepth: maxDepth)
        var kinds: [String: Kind] = [:]
        var duplicate = false
        let ok = scanner.scanDocument { name, kind in
            if kinds.updateValue(kind, forKey: name) != nil { duplicate = true }
        }
        guard ok, !duplicate, bytes.first(where: { !Scanner.isWhitespace($0) }) == UInt8(ascii: "{") else {
            return nil
        }
        return kinds
    }
}

private struct Scanner {
    let b: [UInt8]
    let maxDepth: Int
    var i = 0

    init(_ bytes: [UInt8], maxDepth: Int) {
        b = bytes
        self.maxDepth = maxDepth
    }

    enum Container { case object, array }
    enum State { case value, key, afterValue }

    static func isWhitespace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    mutating func skipWhitespace() {
        while i < b.count, Self.isWhitespace(b[i]) { i += 1 }
    }

    /// Scans one whole document; `onMember` sees the name and kind of each member of a top-level object.
    mutating func scanDocument(onMember: ((String, JSONSyntax.Kind) -> Void)?) -> Bool {
        var stack: [Container] = []
        var state = State.value
        var memberName: String?
        while true {
            skipWhitespace()
            switch state {
            case .value:
                guard i < b.count, let (kind, next) = scanValueStart(&stack) else { return false }
                if let name = memberName {
                    onMember?(name, kind)
                    memberName = nil
                }
                state = next
            case .key:
                guard i < b.count, b[i] == UInt8(ascii: "\"") else { return false }
                let start = i
                guard scanString() else { return false }
                if onMember != nil && stack.count == 1 {
                    guard let name = Self.unescape(Array(b[start..<i])) else { return false }
                    memberName = name
                }
                skipWhitespace()
                guard i < b.count, b[i] == UInt8(ascii: ":") else { return false }
                i += 1
                state = .value
            case .afterValue:
                guard let top = stack.last else { return i == b.count }
                guard i < b.count else { return false }
                let c = b[i]
                i += 1
                if c == UInt8(ascii: ",") {
                    state = top == .object ? .key : .value
                } else if (top == .object && c == UInt8(ascii: "}")) || (top == .array && c == UInt8(ascii: "]")) {
                    stack.removeLast()
                } else {
                    return false
                }
            }
        }
    }

    /// Scans a scalar whole, or an opening bracket (pushing it unless the container is empty, which it closes);
    /// returns the value's kind and what comes next: a key in a new object, a value in a new array, or whatever
    /// follows a value.
    private mutating func scanValueStart(_ stack: inout [Container]) -> (JSONSyntax.Kind, State)? {
        func scalar(_ kind: JSONSyntax.Kind?) -> (JSONSyntax.Kind, State)? { kind.map { ($0, .afterValue) } }
        switch b[i] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = b[i] == UInt8(ascii: "{")
            guard stack.count < maxDepth else { return nil }
            i += 1
            skipWhitespace()
            let kind: JSONSyntax.Kind = isObject ? .object : .array
            if i < b.count, b[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                i += 1
                return (kind, .afterValue)
            }
            stack.append(isObject ? .object : .array)
            return (kind, isObject ? .key : .value)
        case UInt8(ascii: "\""): return scalar(scanString() ? .string : nil)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return scalar(scanNumber())
        case UInt8(ascii: "t"): return scalar(scanLiteral("true") ? .bool : nil)
        case UInt8(ascii: "f"): return scalar(scanLiteral("false") ? .bool : nil)
        case UInt8(ascii: "n"): return scalar(scanLiteral("null") ? .null : nil)
        default: return nil
        }
    }

    private mutating func scanLiteral(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard b.count - i >= n else { return false }
        for k in 0..<n where b[i + k] != word.utf8Start[k] { return false }
        i += n
        return true
    }

    private mutating func digits() -> Int {
        let start = i
        while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") { i += 1 }
        return i - start
    }

    private mutating func scanNumber() -> JSONSyntax.Kind? {
        if b[i] == UInt8(ascii: "-") { i += 1 }
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits() == 0 {
            return nil
        }
        var kind = JSONSyntax.Kind.integer
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return nil }
            kind = .number
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return nil }
            kind = .number
        }
        return kind
    }

    /// From the opening quote through the closing one: escapes, no raw control characters, valid UTF-8.
    private mutating func scanString() -> Bool {
        i += 1
        while i < b.count {
            let c = b[i]
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                return true
            case UInt8(ascii: "\\"):
                guard i + 1 < b.count else { return false }
                switch b[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard b.count - i >= 6, b[(i + 2)..<(i + 6)].allSatisfy(Self.isHexDigit) else { return false }
                    i += 6
                default: return false
                }
            case 0..<0x20: return false
            case 0x20..<0x80: i += 1
            default:
                guard let n = utf8SequenceLength() else { return false }
                i += n
            }
        }
        return false
    }

    static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f"))
            || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "F"))
    }

    /// The length of the well-formed UTF-8 sequence at `i` (Unicode Table 3-7), or nil.
    private func utf8SequenceLength() -> Int? {
        let c = b[i]
        let second: ClosedRange<UInt8>
        let length: Int
        switch c {
        case 0xC2...0xDF: (second, length) = (0x80...0xBF, 2)
        case 0xE0: (second, length) = (0xA0...0xBF, 3)
        case 0xE1...0xEC, 0xEE...0xEF: (second, length) = (0x80...0xBF, 3)
        case 0xED: (second, length) = (0x80...0x9F, 3)
        case 0xF0: (second, length) = (0x90...0xBF, 4)
        case 0xF1...0xF3: (second, length) = (0x80...0xBF, 4)
        case 0xF4: (second, length) = (0x80...0x8F, 4)
        default: return nil
        }
        guard b.count - i >= length, second.contains(b[i + 1]) else { return nil }
        for k in 2..<length where !(0x80...0xBF).contains(b[i + k]) { return nil }
        return length
    }

    /// A member name with its escapes resolved (only member names of handshakes and the like are unescaped).
    static func unescape(_ token: [UInt8]) -> String? {
        guard !token.contains(UInt8(ascii: "\\")) else {
            return try? WireJSON.decode(String.self, token)
        }
        return String(decoding: token.dropFirst().dropLast(), as: UTF8.self)
    }
}
