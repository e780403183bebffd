import ArgumentParser
import Foundation
import TavoloTable

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Play your seat at a table in the terminal: the table as your seat sees it, your moves, the others' moves.",
        discussion: """
            Full screen when stdin and stdout are a terminal: ←/→ (or ↑/↓) choose one of your legal moves and \
            Enter plays it, or type its number or the move itself (R3, d3, 9B) and Enter; ? shows the game's \
            rules; q asks, then l leaves the table (during a game you forfeit: it counts as lost for you, and a bot of \
            another player's node plays your seats to the end) or d detaches (your node \
            keeps the seat; run tavolo play again to come back). A bell rings when it becomes your turn. \
            Otherwise (a pipe, a script) a line mode: the table as text, one move per line; end of input \
            detaches.
            """)

    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "The table's id (see `tavolo tables`; default: your one table in play).") var table: TableID?

    func run() throws {
        let client = try nodeOptions.connect()
        let table = try self.table ?? yourTable(client)
        let wake = DispatchSemaphore(value: 0)
        let events = TableEventFeed(try nodeOptions.connect(timeout: nil), table: table, wake: wake)
        let session = PlaySession(table: table, client: client, events: events)
        if isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 {
            try PlayFullScreen(session: session, wake: wake).run()
        } else {
            try PlayLineMode(session: session, wake: wake).run()
        }
    }
}
