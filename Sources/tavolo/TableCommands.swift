import ArgumentParser
import Foundation
import TavoloControl
import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTable
import TavoloTerminal

/// Prints a JSON value.
func printJSON<T: Encodable>(_ value: T) throws {
    print(String(decoding: try CanonicalJSON.encode(value), as: UTF8.self))
}

/// Sends a request to the node, turning every failure into one line and exit 1.
func callNode<R>(_ client: ControlClient, _ call: ControlCall<R>) throws -> R {
    do { return try client.call(call) } catch { throw CleanExit.failure("\(error)") }
}

/// Game names, player counts and bot kinds, from the catalog: for help texts.
let gameHelp: String = GameCatalog.standard.entries.map { e in
    "\(e.name) (\(e.playerCounts.map(String.init).joined(separator: "/")) players; bots: "
        + e.bots.map(\.kind).joined(separator: ", ") + ")"
}.joined(separator: "; ")

/// A table and its seats; `names` are the node's words for who plays each seat (`TableState.seatNames`: a member
/// that left is shown as left before its seat's next move); `shown` marks names that look like another node's.
func describe(
    _ t: TableInfo, me: NodeID? = nil, names: [String]? = nil, shown: PeerNameDisplay.Marker = PeerNameDisplay.plain
) -> String {
    let holders = PeerNameDisplay.seatNames(t, named: names, shown: shown)
    let seats = t.seats.map { s -> String in
        let who = Terminal.printable(holders[s.seat])
        return "  seat \(s.seat): \(who)" + (me != nil && s.owner == me ? "  ← yours" : "")
    }
    let mine = me.map { t.members.contains($0) } == true ? "  [mine]" : ""
    let host = Terminal.printable(shown(t.hostName, t.host.hex))
    let deck = t.isSealed ? ", sealed deck" : ""
    return "\(t.id)  \(t.game) for \(t.players)\(deck), host \(host), \(t.phase.rawValue)\(mine)\n"
        + seats.joined(separator: "\n")
}

/// The marker for a list of `tables`: names that look like another node's the node knows carry their ids.
func nameMarker(_ client: ControlClient, status: NodeStatus?, tables: [TableInfo]) -> PeerNameDisplay.Marker {
    let peers = (try? client.call(.peers)) ?? []
    return PeerNameDisplay.marker(PeerNameDisplay.known(me: status, peers: peers, tables: tables))
}

struct Tables: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the tables the node knows: open ones first, yours marked.",
        aliases: ["tables"])
    @OptionGroup var nodeOptions: NodeOptions
    @Flag(help: "Print a JSON array of tables.") var json = false

    func run() throws {
        let client = try nodeOptions.connect()
        let tables = try callNode(client, .tables)
        if json { return try printJSON(tables) }
        let status = try? client.call(.status)
        let me = status.flatMap { NodeID(hex: $0.id) }
        if tables.isEmpty { print("no tables; host one with: tavolo host GAME") }
        let shown = nameMarker(client, status: status, tables: tables)
        for t in tables { print(describe(t, me: me, shown: shown)) }
    }
}

struct Host: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Host a table; optionally take a seat and fill the rest with bots, and start.",
        discussion: "Games: \(gameHelp).\nExample: tavolo host othello --node alice --seat --bots --start")
    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "Game: \(GameCatalog.standard.names.joined(separator: ", ")).") var game: String
    @Option(help: "Number of seats (default: the game's only player count).") var players: Int?
    @Flag(help: "Take seat 0 yourself, as a human.") var seat = false
    @Option(help: "Take seat 0 with a bot of this kind.") var seatBot: String?
    @Option(
        help:
            "Fill every other free seat with bots of this kind (the host's bots): a level (easy, medium, hard, expert) or one of the game's own kinds (`tavolo rules GAME` lists them)."
    ) var fill: String?
    @Flag(help: "Fill every other free seat with the game's strongest bot.") var bots = false
    @Flag(help: "Start at once (every seat must be taken).") var start = false
    @Option(
        help: ArgumentHelp(
            "Seconds a member lost during the game has to come back before a bot takes its seats (default 120).",
            valueName: "seconds"))
    var grace: Int?
    @Option(
        help: "Bot kind that takes the seats of a member lost past the grace, or that leaves (default: the strongest).")
    var takeoverBot: String?
    @Flag(
        help:
            "Deal from a sealed deck: no node, the host's included, can read a hand it may not see; checked at the end. The default for the card games (spirits, briscola)."
    )
    var sealed = false
    @Flag(
        help:
            "Deal a card game from the open deck instead: less work for the nodes, but a player's modified node could read every hand (README, Trust model)."
    )
    var open = false
    @Flag(help: "Print the table as JSON.") var json = false

    /// Sealed unless asked otherwise, for a game with hidden cards (PROTOCOL.md §14); `--sealed` on a game without
    /// them is the node's error to give.
    var dealsSealed: Bool { sealed || (!open && GameCatalog.standard[game]?.isSealable == true) }

    func validate() throws {
        if sealed && open { throw ValidationError("--sealed and --open exclude each other: choose one deck") }
        if let grace, !TableInfo.graceRange.contains(grace) {
            throw ValidationError(
                "--grace is \(TableInfo.graceRange.lowerBound)-\(TableInfo.graceRange.upperBound) seconds, not \(grace)"
            )
        }
    }

    func run() throws {
        let client = try nodeOptions.connect()
        var table = try callNode(
            client, .host(game: game, players: players, grace: grace, takeoverBot: takeoverBot, sealed: dealsSealed))
        // A step that fails takes the new table away again: nothing is left behind.
        do {
            if seat || seatBot != nil {
                _ = try client.call(.join(table: table.id, game: nil, seat: 0, bot: seatBot))
            }
            if let kind = fill ?? (bots ? GameCatalog.standard[game]?.defaultBot : nil) {
                table = try client.call(.fill(table: table.id, bot: kind))
            }
            if start { table = try client.call(.start(table: table.id)) }
            // The seat just taken: the host's first answer still showed seat 0 free.
            table = try client.call(.state(table: table.id)).info
        } catch {
            _ = try? client.call(.leave(table: table.id))
            throw CleanExit.failure("\(error); table \(table.id) was closed")
        }
        if json { try printJSON(table) } else { print(describe(table)) }
    }
}

struct Join: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take a seat at a table, or at any open table of a game (automatch); waits for the host's answer.")
    @OptionGroup var nodeOptions: NodeOptions
    @Option(help: "The table's id (see `tavolo tables`).") var table: String?
    @Option(help: "Join any open table of this game.") var game: String?
    @Option(help: "The seat wanted (default: any free seat, or the one you were invited to).") var seat: Int?
    @Option(help: "Seat a bot of this kind instead of yourself.") var bot: String?
    @Option(help: "Seconds to wait for the host's answer.") var wait: Double = 5

    func validate() throws {
        if (table == nil) == (game == nil) { throw ValidationError("give --table ID or --game NAME (automatch)") }
        if let table, TableID(table) == nil { throw ValidationError("'\(table)' is not a table id") }
    }

    func run() throws {
        let client = try nodeOptions.connect()
        let me = try callNode(client, .status).id
        let events = try nodeOptions.connect(timeout: wait)
        do { try events.subscribe(kinds: [.seatRefused, .updated]) } catch { throw CleanExit.failure("\(error)") }
        // The seats this node held before: the one this join adds is the answer (a node may hold several, its
        // person's and its bots').
        let mine = { (t: TableInfo) in Set(t.seats.filter { $0.owner?.hex == me }.map(\.seat)) }
        let held = Dictionary(
            try callNode(client, .tables).map { ($0.id, mine($0)) },
            uniquingKeysWith: { a, _ in a })
        let request = ControlCall.join(table: table.flatMap { TableID($0) }, game: game, seat: seat, bot: bot)
        let id = try callNode(client, request).table
        let deadline = Date().addingTimeInterval(wait)
        while true {
            let tables = try callNode(client, .tables)
            if let t = tables.first(where: { $0.id == id }),
                let s = t.seats.first(where: {
                    $0.owner?.hex == me && !(held[id] ?? []).contains($0.seat) && (seat == nil || $0.seat == seat)
                })
            {
                print("seat \(s.seat) at \(id) is yours\n" + describe(t))
                return
            }
            guard Date() < deadline, let e = try? events.nextEvent() else {
                throw CleanExit.failure("the host of \(id) did not answer within \(Int(wait)) s")
            }
            if e.table == id, case .seatRefused(let message) = e.detail { throw CleanExit.failure(message) }
        }
    }
}

struct Start: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Host: start a full table.")
    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "The table's id.") var table: TableID

    func run() throws {
        print(describe(try callNode(try nodeOptions.connect(), .start(table: table))))
    }
}

struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a move for your seat: e4, R3, 9B, or the game's move as JSON (see `tavolo state`).")
    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "The table's id, then the move; the move alone at your one table in play.") var words: [String]

    func validate() throws {
        guard (1...2).contains(words.count) else {
            throw ValidationError("give the move, or the table's id and the move: tavolo move [TABLE] MOVE")
        }
        if words.count == 2, TableID(words[0]) == nil { throw ValidationError("'\(words[0])' is not a table id") }
    }

    func run() throws {
        let move = words[words.count - 1]
        // A bare word is the move's string form, which every game's move decodes from.
        let value = (try? JSONValue(json: Array(move.utf8))) ?? .string(move)
        let client = try nodeOptions.connect()
        let given = words.count == 2 ? TableID(words[0]) : nil
        let table = try given ?? yourTable(client)
        let chosen = try Self.resolve(move, value, against: try callNode(client, .state(table: table)))
        _ = try callNode(client, .move(table: table, move: chosen))
        print("played \(move)")
    }

    /// The legal move `text` names: the move itself, or the option whose key or label it is (`tavolo state` lists
    /// `flee, open R1`, whose key `R1` alone would decode as a play, not a flee). Refuses, in the game's words, a
    /// move that is not one of the seat's legal moves now, before the node sees it: the node's refusal may describe
    /// the move as if it had been played (an Othello board after it).
    static func resolve(_ text: String, _ value: JSONValue, against s: TableState) throws -> JSONValue {
        let legal = s.legalMoves
        guard !legal.contains(value) else { return value }
        let options = GameBoards.options(game: s.info.game, legal: legal.map(\.jsonBytes))
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let option = options.first(where: { $0.key.lowercased() == word || $0.label.lowercased() == word }),
            let chosen = try? JSONValue(json: option.json)
        {
            return chosen
        }
        if s.info.phase.isOver { throw CleanExit.failure("\(s.info.id) is over: no more moves") }
        guard !options.isEmpty else {
            let whose = s.turn.map { "seat \($0) is to play" } ?? "nobody is to play now"
            throw CleanExit.failure("not your turn at \(s.info.id): \(whose) (tavolo watch tells when it is yours)")
        }
        throw CleanExit.failure(
            "\(text) is not one of your moves now; your moves: " + options.map(\.key).joined(separator: " · "))
    }
}

struct Leave: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Leave a table: during a game you forfeit and a bot plays on.", discussion: TableNotices.leaveHelp)
    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "The table's id (default: your one table in play).") var table: TableID?

    func run() throws {
        let client = try nodeOptions.connect()
        let table = try self.table ?? yourTable(client)
        do { print(try PlaySession.leave(table, client)) } catch { throw CleanExit.failure("\(error)") }
    }
}

struct Invite: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Host: reserve a seat for a named node and tell it.")
    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "The table's id.") var table: TableID
    @Option(
        help:
            "The invited node's name (or id): the seat goes to the identity known for that name, never to whoever uses the name."
    )
    var to: String
    @Option(help: "The seat to offer.") var seat: Int

    func run() throws {
        let request = ControlCall.invite(table: table, seat: seat, node: to)
        print(describe(try callNode(try nodeOptions.connect(), request)))
    }
}

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print your tables' events as they happen (every table's with --all; JSON lines with --json).")
    @OptionGroup var nodeOptions: NodeOptions
    @Flag(help: "Print each event as a JSON line.") var json = false
    @Flag(help: "Every table's events, not only the tables you host or sit at.") var all = false

    func run() throws {
        let client = try nodeOptions.connect()
        let me = try callNode(client, .status).id
        var mine = Set<TableID>()
        func isMine(_ id: TableID) -> Bool {
            if mine.contains(id) { return true }
            let tables = (try? client.call(.tables)) ?? []
            // Once mine, a table stays mine: voted out, this node follows it as a spectator (§9.12).
            mine.formUnion(tables.filter { $0.members.contains { $0.hex == me } }.map(\.id))
            return mine.contains(id)
        }
        let events = try nodeOptions.connect(timeout: nil)
        do { try events.subscribe() } catch { throw CleanExit.failure("\(error)") }
        while true {
            let e: TableEvent
            do { e = try events.nextEvent() } catch {
                throw CleanExit.failure(nodeLoss(error, comeBack: "run `tavolo watch` again"))
            }
            guard all || isMine(e.table) else { continue }
            if json {
                try printJSON(EventLine(event: e))
            } else {
                print(Self.text(e) { try? client.call(.state(table: e.table)) })
            }
            fflush(nil)
        }
    }
}

extension Watch {
    /// One event for a person: a move says which seat played it and who plays that seat; a pause, a departure, a
    /// takeover and one's own leaving in the words of `tavolo play` and the page (`TableNotices`), from the table's
    /// state as the node has it after the event.
    static func text(_ e: TableEvent, state: () -> TableState?) -> String {
        let head = "\(e.table) \(e.kind.rawValue)"
        switch e.detail {
        case .moved(let number, let seat, _, _, let text):
            // An Othello text's other lines are the boards before and after: `tavolo state` draws the board.
            let all = text.split(separator: "\n").map { Terminal.printable(String($0)) }
            let lines = e.game == "othello" ? Array(all.prefix(1)) : all
            let who = state().map(TableNotices.seatNames).flatMap { seat < $0.count ? " (\($0[seat]))" : nil } ?? ""
            return "\(head): move \(number + 1), seat \(seat)\(Terminal.printable(who)): "
                + lines.joined(separator: "\n    ")
        case .paused(let members, let since, _):
            let notice = TableNotices.paused(
                absent: members.map(Terminal.printable), since: since,
                graceSeconds: state()?.info.graceSeconds ?? TableInfo.defaultGrace, now: Date())
            return "\(head): \(notice)"
        case .takenOver(let seats, _):
            guard let st = state(), let t = st.takeovers.last(where: { !Set($0.seats).isDisjoint(with: seats) }) else {
                return head + (e.message.map { ": \(Terminal.printable($0))" } ?? "")
            }
            return "\(head): \(Terminal.printable(TableNotices.takeover(t, in: st)))"
        case .stopped:
            guard let st = state(), st.leftAt != nil else {
                return head + (e.message.map { ": \(Terminal.printable($0))" } ?? "")
            }
            return "\(head): \(Terminal.printable(TableNotices.youLeft(st)))"
        case .finished(let result) where result.sealed != nil:
            let names = (result.cheaters ?? []).map(Terminal.printable).joined(separator: ", ")
            return "\(head): " + (result.sealed == "verified" ? "deck verified" : "the audit names \(names)")
        case .updated:
            // A member agreed out shows here at once, before its seat's next move.
            let lines = state().flatMap(\.departures)?.filter { !$0.isMe }.map(TableNotices.departure) ?? []
            return lines.isEmpty ? head : "\(head): " + Terminal.printable(lines.joined(separator: "; "))
        default:
            return head + (e.message.map { ": \(Terminal.printable($0))" } ?? "")
        }
    }
}

/// Text from other nodes (names, reasons) shown without the control characters that could drive the terminal.
enum Terminal {
    static func printable(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.filter { !$0.properties.generalCategory.isControl }))
    }
}

extension Unicode.GeneralCategory {
    var isControl: Bool { self == .control || self == .format }
}

extension TableID: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

/// What a command that follows the node says when the node goes away under it (`TableNotices.ownNodeStopped`, as
/// the page says it), then how to come back; any other error as it is.
func nodeLoss(_ error: Error, comeBack: String) -> String {
    guard let e = error as? ControlClient.ClientError else { return "\(error)" }
    switch e {
    case .closed, .timedOut, .cannotConnect: return "\(TableNotices.ownNodeStopped), then \(comeBack) (\(e))."
    case .badResponse: return "\(e)"
    }
}
