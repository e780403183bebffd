import ArgumentParser
import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloTable
import TavoloTerminal

struct State: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a table as your node sees it: turn, your cards, legal moves.")
    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "The table's id (default: your one table in play).") var table: TableID?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let client = try nodeOptions.connect()
        let table = try self.table ?? yourTable(client)
        let s = try callNode(client, .state(table: table))
        if json { return try printJSON(s) }
        let shown = nameMarker(client, status: try? client.call(.status), tables: [s.info])
        print(describe(s.info, names: s.seatNames, shown: shown))
        if let seed = s.jointSeed {
            print("joint seed \(seed), move \(s.moveNumber ?? 0), state \(s.stateHash?.hex.prefix(16) ?? "")…")
        }
        if let turn = s.turn { print("seat \(turn) to play" + (s.mySeats.contains(turn) ? " — your turn" : "")) }
        for line in s.lastMoves { print("  \(line)") }
        // The position and the moves in the game's own words, as `tavolo play` draws them (JSON with --json).
        let snapshot = PlaySession.snapshot(s, peers: [])
        let options = GameBoards.options(game: s.info.game, legal: snapshot.legalMoves)
        if let board = GameBoards.board(for: snapshot) {
            print(ScreenRenderer.plainText(board.lines(options: options, selected: nil)))
        }
        if !options.isEmpty {
            print("your moves: " + options.map(\.label).joined(separator: " · ") + "  (tavolo move \(table) MOVE)")
        }
        if let w = s.winners {
            print("winners: \(w.map { "seat \($0)" }.joined(separator: ", ")); scores \(s.scores ?? [])")
        }
        for line in TableNotices.lines(s, now: Date()) { print(line) }
    }
}

/// The table a command means when it names none: the one table of the user's (a seat of its own or hosted here) that
/// is not over. None, or several, is one line saying what to type instead.
func yourTable(_ client: ControlClient) throws -> TableID {
    let me = (try? client.call(.status)).flatMap { NodeID(hex: $0.id) }
    let tables = try callNode(client, .tables).filter { t in
        !t.phase.isOver && (t.host == me || t.seats.contains { $0.owner == me })
    }
    guard tables.count == 1, let only = tables.first else {
        if tables.isEmpty { throw CleanExit.failure("no table of yours in play: name one (tavolo tables lists them)") }
        let ids = tables.map { "\($0.id)" }.joined(separator: ", ")
        throw CleanExit.failure("\(tables.count) tables of yours: name one of \(ids)")
    }
    return only.id
}
