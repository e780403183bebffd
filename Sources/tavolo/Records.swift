import ArgumentParser
import Foundation
import TavoloControl
import TavoloCore
import TavoloGames
import TavoloRecordFormat
import TavoloTable
import TavoloTerminal

/// `tavolo history`, `scores`, `show`: the node's records, asked over the control socket like every other
/// command (the node owns the database, and a client needs no path to it and links no SQLite).
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the games this node played, newest first (--all: then those received from peers).",
        discussion: "Example: tavolo history --node alice --game othello --player bob")
    @OptionGroup var nodeOptions: NodeOptions
    @Option(help: "Only games of this game: \(GameCatalog.standard.names.joined(separator: ", ")).") var game: String?
    @Option(help: "Only games with a seat of the node (person) of this name.") var player: String?
    @Flag(help: "Also the games of other nodes on the LAN that peers shared, after this node's own.") var all = false
    @Flag(help: "Print a JSON array of records.") var json = false

    func validate() throws { try checkGame(game) }

    func run() throws {
        let client = try nodeOptions.connect()
        let everything = try callNode(client, .history(game: game, player: player))
        // This node's games first: on a busy LAN the games of strangers, shared by record sync, flooded the list.
        let records = everything.filter(\.mine) + (all ? everything.filter { !$0.mine } : [])
        if json { return try printJSON(records) }
        if everything.isEmpty { print("no games recorded yet") }
        for r in records {
            // People whose names look alike are shown with their node ids (§4.1).
            let names = PeerNameDisplay.names(r.seats.map { ($0.name, $0.bot == nil ? $0.node : nil) })
            let seats = zip(r.seats, names).map { s, name in
                "\(name)\(s.bot.map { " (\($0) bot)" } ?? "") \(s.score.map(String.init) ?? "-")\(s.won ? " ★" : "")"
            }.joined(separator: ", ")
            let outcome = r.outcome == "finished" ? "" : " [\(r.outcome)\(r.stopCode.map { " \($0)" } ?? "")]"
            // A member that left: its seats show the bot that played on; the game counts as lost for it.
            let left = (r.forfeited ?? []).map { f in
                "\(f.name) left (seat\(f.seats.count == 1 ? "" : "s") \(f.seats.map(String.init).joined(separator: ", ")))"
            }
            print(
                "\(timeText(r.endedAt))  \(r.table)  \(r.game)  \(r.moves) move\(r.moves == 1 ? "" : "s")\(outcome)\(r.mine ? "  [mine]" : "")\(r.verified ? "" : "  [unverified]")  \(seats)"
                    + (left.isEmpty ? "" : "; " + left.joined(separator: "; "))
            )
        }
        let others = everything.count - records.count
        if others > 0 {
            print("(\(others) game\(others == 1 ? "" : "s") of other nodes on the LAN not shown: --all lists them)")
        }
    }
}

struct Scores: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Leaderboards per game (games, wins, win rate, the game's own score; people and bots apart) and achievements.",
        discussion: """
            Counts every finished game the node has recorded, its own and those its peers shared, that every person \
            at it signed; people by node id (a name shared by two nodes is shown with each one's id).
            """)
    @OptionGroup var nodeOptions: NodeOptions
    @Option(help: "Only this game: \(GameCatalog.standard.names.joined(separator: ", ")).") var game: String?
    @Flag(help: "Print the leaderboards as JSON.") var json = false

    func validate() throws { try checkGame(game) }

    func run() throws {
        let client = try nodeOptions.connect()
        let board = try callNode(client, .scores(game: game))
        if json { return try printJSON(board) }
        if board.games.isEmpty { print("no games recorded yet") }
        for g in board.games {
            let best = g.lowerScoreIsBetter ? "fewest" : "most"
            let unverified = g.unverified > 0 ? ", \(g.unverified) unverified (not counted)" : ""
            print(
                "\(g.game): \(g.finished) finished, \(g.stopped) not finished\(unverified)  (\(g.scoreName): \(best) is best)"
            )
            for (title, lines) in [("people", g.humans), ("bots", g.bots)] where !lines.isEmpty {
                print("  \(title)")
                let shown = PeerNameDisplay.names(lines.map { ($0.player, $0.node) })
                for (l, name) in zip(lines, shown) {
                    let rate = String(format: "%.0f%%", l.winRate * 100)
                    print(
                        "    \(name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(l.games) games, \(l.wins) wins (\(rate)), \(g.scoreName): \(l.totalScore) total, best \(l.bestScore.map(String.init) ?? "-")"
                    )
                }
            }
            let earned = board.achievements.filter { $0.game == g.game }
            if !earned.isEmpty {
                print("  achievements")
                let shown = PeerNameDisplay.names(earned.map { ($0.player, $0.node) })
                for (a, name) in zip(earned, shown) {
                    print("    \(name)\(a.bot ? " (bot)" : ""): \(a.title)\(a.times > 1 ? " ×\(a.times)" : "")")
                }
            }
        }
    }
}

struct ShowRecord: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Replay a recorded game move by move: each move in words, with the board before and after it.",
        discussion: """
            The record is replayed by this client's own engines from its joint seed. The board is drawn as the \
            seat that moves sees it (a finished game hides nothing any more). Example: tavolo show 3a1b2c4d-1 --node alice
            """)
    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "The table id (or a record id) from `tavolo history`.") var table: String
    @Flag(help: "Print every move as JSON (number, seat, move, text, state hashes, the mover's observation after).")
    var json = false

    struct Step: Codable {
        var number: Int
        var seat: Int
        var move: JSONValue
        var text: String
        var before: String
        var after: String
        var observation: JSONValue
    }

    func run() throws {
        let client = try nodeOptions.connect()
        let stored: [StoredRecord]
        do { stored = try client.call(.record(table: table)) } catch {
            // A game still being played has no record yet: say where to look instead of "unknown".
            if let t = try? client.call(.tables).first(where: { $0.id.rawValue == table }), !t.phase.isOver {
                throw CleanExit.failure("\(table) is still being played: tavolo state \(table) shows it now")
            }
            throw CleanExit.failure("\(error)")
        }
        guard let record = stored.first,
            let body = try? CanonicalJSON.decode(RecordBody.self, Array(record.body.utf8))
        else { throw CleanExit.failure("the record of \(table) does not decode") }
        var walk: RecordWalk
        do { walk = try RecordWalk(body, catalog: .standard) } catch { throw CleanExit.failure(error.description) }
        let seats = body.seats.map { TableSnapshot.Seat(seat: $0.seat, ownerName: $0.name, bot: $0.bot, isMine: false) }
        func board(_ seat: Int) -> [String] {
            let session = walk.game
            let obs = session.observation(for: seat).jsonBytes
            let snap = TableSnapshot(
                tableID: body.table, game: body.game, phase: .playing, seats: seats, turn: session.turn.seat,
                moveNumber: session.moveNumber, mySeat: seat, observation: obs)
            return GameBoards.board(for: snap)?.lines(options: [], selected: nil).map { "    " + $0.text } ?? []
        }
        var steps: [Step] = []
        if !json {
            let sealed = body.sealed == nil ? "" : ", sealed deck"
            print(
                "\(body.table)  \(body.game) for \(body.players)  \(body.outcome.rawValue), \(body.moves.count) move\(body.moves.count == 1 ? "" : "s")\(sealed)"
            )
            for s in body.seats { print("  seat \(s.seat): \(s.name)\(s.bot.map { " (\($0) bot)" } ?? "")") }
        }
        for (n, m) in body.moves.enumerated() {
            let before = walk.hash
            let beforeBoard = json ? [] : board(m.seat)
            let text: String
            do { text = try walk.applyNext() } catch { throw CleanExit.failure(error.description) }
            if json {
                steps.append(
                    Step(
                        number: n, seat: m.seat, move: m.move, text: text, before: before, after: walk.hash,
                        observation: walk.game.observation(for: m.seat)))
                continue
            }
            print("\nmove \(n), seat \(m.seat) (\(body.seats[m.seat].name)): \(text)")
            print("  before:")
            beforeBoard.forEach { print($0) }
            print("  after:")
            board(m.seat).forEach { print($0) }
        }
        if json { return try printJSON(steps) }
        let verdict =
            walk.hash == body.finalHash
            ? "reaches the recorded final hash" : "DOES NOT reach the recorded final hash"
        print(
            "\nresult: winners \(body.winners.map { "seat \($0)" }.joined(separator: ", ")), scores \(body.scores); the replay \(verdict)"
        )
    }
}

func checkGame(_ game: String?) throws {
    if let game, GameCatalog.standard[game] == nil {
        throw ValidationError("unknown game '\(game)': \(GameCatalog.standard.names.joined(separator: ", "))")
    }
}

func timeText(_ ms: Int64) -> String {
    let f = DateFormatter()
    f.dateFormat = "yyyy-MM-dd HH:mm"
    f.timeZone = TimeZone(identifier: "UTC")
    return f.string(from: Date(timeIntervalSince1970: Double(ms) / 1000)) + "Z"
}
