import ArgumentParser
import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloTable

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Play your seat at a table in the terminal: the table as your seat sees it, your legal moves, the others' moves.",
        discussion: """
            On your turn, type the number of a legal move or the move itself (R3, d3, 9B, …); `?` shows the \
            table again; `q` leaves (a game in progress ends for everyone, so it asks first). End of input \
            stops this view; your node keeps the seat.
            """)

    @OptionGroup var nodeOptions: NodeOptions
    @Argument(help: "The table's id (see `tavolo tables`).") var table: TableID

    func run() throws {
        let client = try nodeOptions.connect()
        let events = TableEventFeed(try nodeOptions.connect(timeout: nil), table: table)
        let color = isatty(STDOUT_FILENO) == 1
        var shownTurn = -1
        var reported = -1
        var state = try fetch(client)
        print(describe(state.info))
        while true {
            for e in events.drain() { report(e, &reported) }
            state = try fetch(client)
            switch state.info.phase {
            case .finished:
                let winners = (state.winners ?? []).map { "seat \($0)" + (state.mySeats.contains($0) ? " (you)" : "") }
                print(
                    "game over — " + (winners.isEmpty ? "a draw" : "winner: \(winners.joined(separator: ", "))")
                        + "; scores \(state.scores ?? [])")
                return
            case .stopped:
                throw CleanExit.failure("the table stopped (see `tavolo watch` or the node's log)")
            default: break
            }
            guard let turn = state.turn, state.mySeats.contains(turn), !state.legalMoves.isEmpty,
                let move = state.moveNumber
            else {
                events.wait(seconds: 1)
                continue
            }
            if shownTurn != move {
                // Show the others' moves up to now before the table (their events may still be on the way).
                let deadline = Date().addingTimeInterval(1)
                while reported < move - 1 && Date() < deadline {
                    events.wait(seconds: 0.05)
                    for e in events.drain() { report(e, &reported) }
                }
                shownTurn = move
                render(state, seat: turn, color: color)
            }
            print("your move (1-\(state.legalMoves.count), a move, ? or q): ", terminator: "")
            fflush(nil)
            guard let line = readLine()?.trimmingCharacters(in: .whitespaces) else {
                print("\nstopped watching; \(table) goes on at your node (`tavolo play \(table)` to come back)")
                return
            }
            switch line {
            case "": continue
            case "?":
                render(state, seat: turn, color: color)
                continue
            case "q", "quit":
                print("leaving ends this game for everyone at the table. Leave? [y/N] ", terminator: "")
                fflush(nil)
                if readLine()?.lowercased().hasPrefix("y") == true {
                    _ = try callNode(client, .leave(table: table), as: Empty.self)
                    print("left \(table)")
                    return
                }
                continue
            default: break
            }
            guard let chosen = Self.match(line, in: state.legalMoves) else {
                print("not one of your moves: \(line)")
                continue
            }
            do { _ = try client.call(.move(table: table, move: chosen), as: Empty.self) } catch {
                print("refused: \(error)")
            }
        }
    }

    func fetch(_ client: ControlClient) throws -> TableState {
        try callNode(client, .state(table: table), as: TableState.self)
    }

    /// A move as people type it: `"d3"`, `{"play":"R3"}` → `play R3`, `{"card":"9B"}` → `card 9B`.
    static func label(_ move: JSONValue) -> String {
        switch move {
        case .string(let s): return s
        case .object(let o) where o.count == 1:
            let (k, v) = (o.keys.first ?? "", o.values.first ?? .null)
            return "\(k) \(label(v))"
        case .integer(let n): return String(n)
        default: return String(decoding: move.jsonBytes, as: UTF8.self)
        }
    }

    /// The legal move `text` names: its number in the list, its label, its last word when that is unique, or JSON.
    static func match(_ text: String, in legal: [JSONValue]) -> JSONValue? {
        if let n = Int(text), (1...legal.count).contains(n) { return legal[n - 1] }
        let lower = text.lowercased()
        if let exact = legal.first(where: { label($0).lowercased() == lower }) { return exact }
        let byValue = legal.filter { label($0).split(separator: " ").last.map { $0.lowercased() == lower } ?? false }
        if byValue.count == 1 { return byValue[0] }
        if let json = try? JSONValue(json: Array(text.utf8)), legal.contains(json) { return json }
        return nil
    }

    func render(_ s: TableState, seat: Int, color: Bool) {
        let bold = color ? "\u{1B}[1m" : ""
        let reset = color ? "\u{1B}[0m" : ""
        print("\n\(bold)move \((s.moveNumber ?? 0) + 1): seat \(seat) to play — you\(reset)")
        if let i = s.mySeats.firstIndex(of: seat), i < s.observations.count, case .object(let o) = s.observations[i] {
            for key in o.keys.sorted() where key != "seat" {
                print("  \(key): \(Self.flat(o[key] ?? .null))")
            }
        }
        print("  legal moves:")
        for (i, m) in s.legalMoves.enumerated() { print("   \(bold)\(i + 1)) \(Self.label(m))\(reset)") }
    }

    static func flat(_ v: JSONValue) -> String {
        switch v {
        case .array(let a): return a.map(flat).joined(separator: " ")
        case .object: return String(decoding: v.jsonBytes, as: UTF8.self)
        default: return label(v)
        }
    }

    func report(_ e: TableEvent, _ reported: inout Int) {
        switch e.detail {
        case .moved(let number, let seat, _, _, let text):
            reported = max(reported, number)
            print("  \(number + 1). seat \(seat): \(text)")
        case .dealt(_, let m), .started(let m): print("  \(m)")
        case .rejected(_, _, let m), .stopped(_, let m): print("  \(e.kind.rawValue): \(m)")
        default: break
        }
    }
}

/// The node's events for one table, read on a background thread.
final class TableEventFeed: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [TableEvent] = []
    private let signal = DispatchSemaphore(value: 0)
    private let client: ControlClient

    init(_ client: ControlClient, table: TableID) {
        self.client = client
        try? client.subscribe()
        Thread.detachNewThread { [weak self] in
            while let e = try? client.nextEvent() {
                guard e.table == table else { continue }
                self?.lock.withLock { self?.pending.append(e) }
                self?.signal.signal()
            }
        }
    }

    func drain() -> [TableEvent] {
        lock.withLock {
            defer { pending = [] }; return pending
        }
    }
    func wait(seconds: Double) { _ = signal.wait(timeout: .now() + seconds) }
}
