/// The rules of each game in English, as in `docs/rules/<game>.md` (embedded in the binary by `scripts/gen-rules`,
/// so `tavolo rules` and the table's `?` work from any install).
public enum GameRules {
    /// Games with rules, sorted.
    public static var games: [String] { texts.keys.sorted() }

    /// The rules of `game` (Markdown), or nil for a game without rules.
    public static func text(for game: String) -> String? {
        let name = game.lowercased()
        // The race's three board sizes are three games with one set of rules.
        if ["fifteen5", "fifteen6"].contains(name) { return texts["fifteen"] }
        return texts[name]
    }
}
