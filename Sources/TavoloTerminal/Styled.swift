/// How a piece of text is drawn. Colours are xterm-256 indices so Spirits! has a true orange; a screen drawn
/// without colour keeps only the text, which always carries the same information (colour letters, markers).
public struct Style: Hashable, Sendable {
    public var foreground: UInt8?
    public var background: UInt8?
    public var bold = false
    public var dim = false
    public var underline = false
    public var inverse = false

    public init(
        foreground: UInt8? = nil, background: UInt8? = nil, bold: Bool = false, dim: Bool = false,
        underline: Bool = false, inverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.inverse = inverse
    }

    public static let plain = Style()
    public static let bold = Style(bold: true)
    public static let dim = Style(dim: true)
    public static let inverse = Style(inverse: true)
    /// Whose turn it is, your turn, legal moves.
    public static let accent = Style(foreground: 214, bold: true)
    public static let alert = Style(foreground: 196, bold: true)
    public static let good = Style(foreground: 40, bold: true)

    /// The SGR escape that sets this style from a reset terminal ("" for plain).
    public var sgr: String {
        var codes: [String] = []
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if underline { codes.append("4") }
        if inverse { codes.append("7") }
        if let f = foreground { codes.append("38;5;\(f)") }
        if let b = background { codes.append("48;5;\(b)") }
        return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    /// This style with `other`'s attributes added (colours of `other` win).
    public func merged(_ other: Style) -> Style {
        Style(
            foreground: other.foreground ?? foreground, background: other.background ?? background,
            bold: bold || other.bold, dim: dim || other.dim, underline: underline || other.underline,
            inverse: inverse || other.inverse)
    }
}

/// A run of text in one style.
public struct Span: Hashable, Sendable {
    public var text: String
    public var style: Style

    public init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }
}

/// One screen line: spans left to right.
public struct Line: Hashable, Sendable, ExpressibleByStringLiteral {
    public var spans: [Span]

    public init(_ spans: [Span] = []) { self.spans = spans }
    public init(_ text: String, _ style: Style = .plain) { spans = [Span(text, style)] }
    public init(stringLiteral value: String) { spans = [Span(value)] }

    /// The text without styles.
    public var text: String { spans.map(\.text).joined() }
    /// Columns the line takes (one per character: the screens use no double-width characters).
    public var width: Int { spans.reduce(0) { $0 + $1.text.count } }

    public static func + (a: Line, b: Line) -> Line { Line(a.spans + b.spans) }
    public static func + (a: Line, b: Span) -> Line { Line(a.spans + [b]) }

    public mutating func append(_ text: String, _ style: Style = .plain) { spans.append(Span(text, style)) }

    /// The first `columns` columns.
    public func clipped(to columns: Int) -> Line {
        var out: [Span] = []
        var left = max(0, columns)
        for s in spans where left > 0 {
            let t = s.text.count <= left ? s.text : String(s.text.prefix(left))
            out.append(Span(t, s.style))
            left -= t.count
        }
        return Line(out)
    }

    /// Padded with spaces to `columns` (for columns side by side).
    public func padded(to columns: Int) -> Line {
        width >= columns ? clipped(to: columns) : self + Span(String(repeating: " ", count: columns - width))
    }
}
