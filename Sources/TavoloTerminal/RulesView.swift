import TavoloGames

/// A game's rules as screen lines, wrapped to the width.
public enum RulesView {
    public static func lines(game: String, width: Int) -> [Line] {
        guard let text = GameRules.text(for: game) else { return [Line("No rules are known for \(game).")] }
        var out: [Line] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            let style: Style = line.hasPrefix("#") ? .bold : .plain
            let shown = line.hasPrefix("#") ? line.drop { $0 == "#" || $0 == " " }.description : line
            for piece in wrap(shown, width: max(20, width - 1)) { out.append(Line(piece, style)) }
        }
        return out
    }

    /// Words onto lines of at most `width` characters, keeping a list item's indentation.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard text.count > width else { return [text] }
        let indent = String(text.prefix { $0 == " " })
        let hanging =
            indent + (text.dropFirst(indent.count).first.map { "-0123456789".contains($0) } == true ? "   " : "")
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? (lines.isEmpty ? indent : hanging) + word : current + " " + word
            if candidate.count > width && !current.isEmpty {
                lines.append(current)
                current = hanging + word
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
