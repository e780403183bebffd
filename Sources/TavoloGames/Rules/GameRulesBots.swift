import TavoloCore

extension GameRules {
    /// The rules as `tavolo rules` and the table's `?` show them: `docs/rules/<game>.md`, then the game's bots.
    public static func textWithBots(for game: String) -> String? {
        guard let text = text(for: game) else { return nil }
        guard let bots = botsSection(for: game) else { return text }
        return text + "\n\n" + bots
    }

    /// The bots of `game` as a Markdown section, from the catalog (so it is always the build's own list): the
    /// levels first, with what each does and how long it thinks, then the game's other bot kinds.
    public static func botsSection(for game: String) -> String? {
        guard let entry = GameCatalog.standard[game.lowercased()] else { return nil }
        let levels = BotLevel.allCases.map(\.rawValue)
        let ordered =
            levels.compactMap { level in entry.bots.first { $0.kind == level } }
            + entry.bots.filter { !levels.contains($0.kind) }
        var lines = [
            "## Bots",
            "",
            "A bot fills a seat with `tavolo host --fill KIND`; `easy`, `medium`, `hard` and `expert` exist for every",
            "game. Times are per move on the development machine (2 cores); budgets are counted in nodes, so a bot",
            "plays the same moves on any machine. Default: `\(entry.defaultBot)`.",
            "",
        ]
        // A list, not a table: the play screen reflows list items to its width and leaves table rows as they are.
        for bot in ordered { lines.append("- `\(bot.kind)`: \(bot.summary)") }
        return lines.joined(separator: "\n")
    }
}
