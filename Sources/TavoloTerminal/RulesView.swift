import TavoloGames

/// A game's rules (Markdown) as screen lines: paragraphs and list items reflowed to the width, headings in bold,
/// emphasis and code marks dropped.
public enum RulesView {
    public static func lines(game: String, width: Int) -> [Line] {
        guard let text = GameRules.textWithBots(for: game) else { return [Line("No rules are known for \(game).")] }
        var out: [Line] = []
        for block in blocks(text) {
            if block.hasPrefix("#") {
                out.append(Line(String(block.drop { $0 == "#" || $0 == " " }), .bold))
            } else if block.hasPrefix("|") || block.isEmpty {
                out.append(Line(block))
            } else {
                for piece in wrap(block, width: max(20, width - 1)) { out.append(Line(piece)) }
            }
        }
        return out
    }

    /// Markdown source lines joined into blocks: a heading, a table row, an empty line, or a paragraph or list
    /// item with its continuation lines.
    static func blocks(_ text: String) -> [String] {
        var out: [String] = []
        var open = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw).replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "`", with: "")
            let trimmed = line.drop { $0 == " " }
            let startsBlock =
                trimmed.isEmpty || line.hasPrefix("#") || line.hasPrefix("|") || trimmed.hasPrefix("- ")
                || trimmed.first.map { $0.isNumber } == true && trimmed.contains(". ")
                    && trimmed.prefix { $0.isNumber }.count < 3
                    && trimmed.dropFirst(trimmed.prefix { $0.isNumber }.count).hasPrefix(". ")
            if open && !startsBlock, let last = out.last {
                out[out.count - 1] = last + " " + trimmed
            } else {
                out.append(line)
                open = !(trimmed.isEmpty || line.hasPrefix("#") || line.hasPrefix("|"))
            }
        }
        return out
    }

    /// Words onto lines of at most `width` characters; a list item's later lines hang under its text.
    static func wrap(_ text: String, width: Int, hanging fixed: Int? = nil) -> [String] {
        guard text.count > width else { return [text] }
        let indent = text.prefix { $0 == " " }.count
        let body = text.dropFirst(indent)
        let digits = body.prefix { $0.isNumber }.count
        let marker = body.hasPrefix("- ") ? 2 : digits > 0 && body.dropFirst(digits).hasPrefix(". ") ? digits + 2 : 0
        let hanging = String(repeating: " ", count: fixed ?? (indent + marker))
        var lines: [String] = []
        var current = String(repeating: " ", count: indent)
        for word in body.split(separator: " ") {
            let blank = current.allSatisfy { $0 == " " }
            let candidate = blank ? current + word : current + " " + word
            if candidate.count > width && !blank {
                lines.append(current)
                current = hanging + word
            } else {
                current = candidate
            }
        }
        lines.append(current)
        return lines
    }
}
