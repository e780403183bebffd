import ArgumentParser
import Foundation
import TavoloDaemon
import TavoloProtocol
import TavoloTable

/// Prints a JSON value, or fails with one line.
func printJSON<T: Encodable>(_ value: T) throws {
    let e = JSONEncoder()
    e.outputFormatting = [.sortedKeys]
    print(String(decoding: try e.encode(value), as: UTF8.self))
}

/// Calls an op on the node, turning every failure into one line and exit 1.
func callNode<R: Codable & Sendable>(_ client: ControlClient, _ op: String, _ params: [String: Any] = [:], as: R.Type)
    throws -> R
{
    do { return try client.call(op, params, as: R.self) } catch {
        throw CleanExit.failure("\(error)")
    }
}

func describe(_ t: TableInfo) -> String {
    let seats = t.seats.map { s -> String in
        let who =
            s.ownerName.map { $0 + (s.bot.map { " (\($0) bot)" } ?? " (human)") }
            ?? (s.invited.map { "invited: \($0)" } ?? "free")
        return "  seat \(s.seat): \(who)"
    }
    return "\(t.id)  \(t.game) for \(t.players), host \(t.hostName), \(t.phase.rawValue)\n"
        + seats.joined(separator: "\n")
}

struct Tables: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the tables the node knows (hosted here or offered by peers).")
    @OptionGroup var nodeOptions: NodeOptions
    @Flag(help: "Print a JSON array of tables.") var json = false

    func run() throws {
        let tables = try callNode(try nodeOptions.connect(), "tables", as: [TableInfo].self)
        if json { return try printJSON(tables) }
        if tables.isEmpty { print("no tables; host one with: tavolo host GAME --players N") }
        for t in tables { print(describe(t)) }
    }
}

struct Host: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Host a table; optionally take a seat and fill the rest with bots, and start.",
        discussion:
            "Example: tavolo host spirits --players 4 --node alice --seat-bot heuristic --fill heuristic --start")
    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "Game: spirits, briscola, othello.") var game: String
    @Option(help: "Number of seats.") var players: Int
    @Flag(help: "Take seat 0 yourself, as a human.") var seat = false
    @Option(help: "Take seat 0 with a bot of this kind.") var seatBot: String?
    @Option(help: "Fill every other free seat with bots of this kind (the host's bots).") var fill: String?
    @Flag(help: "Start at once (every seat must be taken).") var start = false
    @Flag(help: "Print the table as JSON.") var json = false

    func run() throws {
        let client = try nodeOptions.connect()
        var table = try callNode(client, "host", ["game": game, "players": players], as: TableInfo.self)
        if seat || seatBot != nil {
            var p: [String: Any] = ["table": table.id, "seat": 0]
            if let seatBot { p["bot"] = seatBot }
            _ = try callNode(client, "join", p, as: JoinResult.self)
        }
        if let fill { table = try callNode(client, "fill", ["table": table.id, "bot": fill], as: TableInfo.self) }
        if start { table = try callNode(client, "start", ["table": table.id], as: TableInfo.self) }
        if json { try printJSON(table) } else { print(describe(table)) }
    }
}

struct Join: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ask for a seat at a table, or at any open table of a game (automatch).")
    @OptionGroup var nodeOptions: NodeOptions
    @Option(help: "The table's id (see `tavolo tables`).") var table: String?
    @Option(help: "Join any open table of this game.") var game: String?
    @Option(help: "The seat wanted (default: any free seat, or the one you were invited to).") var seat: Int?
    @Option(help: "Seat a bot of this kind instead of yourself.") var bot: String?

    func validate() throws {
        if (table == nil) == (game == nil) { throw ValidationError("give --table ID or --game NAME (automatch)") }
    }

    func run() throws {
        var p: [String: Any] = [:]
        if let table { p["table"] = table }
        if let game { p["game"] = game }
        if let seat { p["seat"] = seat }
        if let bot { p["bot"] = bot }
        let r = try callNode(try nodeOptions.connect(), "join", p, as: JoinResult.self)
        print("asked for a seat at \(r.table); `tavolo tables` shows it once the host seats you")
    }
}

struct Start: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Host: start a full table.")
    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "The table's id.") var table: String

    func run() throws {
        print(describe(try callNode(try nodeOptions.connect(), "start", ["table": table], as: TableInfo.self)))
    }
}

struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a move for your seat: the game's move as JSON, e.g. '{\"play\":\"R3\"}' (see `tavolo state`).")
    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "The table's id.") var table: String
    @Argument(help: "The move as JSON.") var move: String

    func run() throws {
        guard let value = try? JSONValue(json: Array(move.utf8)) else {
            throw ValidationError("the move must be JSON, e.g. '{\"play\":\"R3\"}' or '\"d3\"'")
        }
        let json = try JSONSerialization.jsonObject(with: Data(value.jsonBytes), options: [.fragmentsAllowed])
        _ = try callNode(try nodeOptions.connect(), "move", ["table": table, "move": json], as: Empty.self)
        print("played \(move)")
    }
}

struct Leave: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Leave a table (a game in progress is lost for everyone).")
    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "The table's id.") var table: String

    func run() throws {
        _ = try callNode(try nodeOptions.connect(), "leave", ["table": table], as: Empty.self)
        print("left \(table)")
    }
}

struct Invite: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Host: reserve a seat for a named node and tell it.")
    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "The table's id.") var table: String
    @Option(help: "The invited node's name.") var to: String
    @Option(help: "The seat to offer.") var seat: Int

    func run() throws {
        print(
            describe(
                try callNode(
                    try nodeOptions.connect(), "invite", ["table": table, "node": to, "seat": seat], as: TableInfo.self)
            ))
    }
}

struct State: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a table as your node sees it: turn, your cards, legal moves.")
    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "The table's id.") var table: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let s = try callNode(try nodeOptions.connect(), "state", ["table": table], as: TableState.self)
        if json { return try printJSON(s) }
        print(describe(s.info))
        if let seed = s.jointSeed {
            print("joint seed \(seed), move \(s.moveNumber ?? 0), state \(s.stateHash?.prefix(16) ?? "")…")
        }
        if let turn = s.turn { print("seat \(turn) to play" + (s.mySeats.contains(turn) ? " — your turn" : "")) }
        for line in s.lastMoves { print("  \(line)") }
        for (seat, o) in zip(s.mySeats, s.observations) {
            print("seat \(seat) sees: \(String(decoding: o.jsonBytes, as: UTF8.self))")
        }
        if !s.legalMoves.isEmpty {
            print(
                "legal moves: "
                    + s.legalMoves.map { String(decoding: $0.jsonBytes, as: UTF8.self) }.joined(separator: "  "))
        }
        if let w = s.winners {
            print("winners: \(w.map { "seat \($0)" }.joined(separator: ", ")); scores \(s.scores ?? [])")
        }
    }
}

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the node's table events as they happen (JSON lines with --json).")
    @OptionGroup var nodeOptions: NodeOptions
    @Flag(help: "Print each event as a JSON line.") var json = false

    func run() throws {
        let client = try nodeOptions.connect(timeout: nil)
        _ = try client.requestLine(["op": "events"])
        while true {
            let line: [UInt8]
            do { line = try client.readLine() } catch { throw CleanExit.failure("\(error)") }
            if json {
                print(String(decoding: line, as: UTF8.self))
            } else if let e = try? WireJSON.decode(EventLine.self, line).event {
                print(
                    "\(e.table) \(e.kind.rawValue)" + (e.seat.map { " seat \($0)" } ?? "")
                        + (e.message.map { ": \($0)" } ?? ""))
            }
            fflush(nil)
        }
    }
}
