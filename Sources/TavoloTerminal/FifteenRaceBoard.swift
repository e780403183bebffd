import TavoloCore
import TavoloGames

/// The Fifteen-puzzle race: the person's board large, every opponent's board small beside it, live (PROTOCOL.md
/// §10.4: an opponent's board is the newer of the one the node applied from reliable moves and the one heard by
/// datagram). Arrow keys slide a tile (the direction the tile moves).
struct FifteenRaceBoard: GameBoard {
    let obs: FifteenObservation
    /// Live progress per seat (moves made, board cells), from the snapshot.
    let live: [Int: TableSnapshot.LiveBoard]
    let mySeat: Int?
    let elapsedMs: Double?

    static let tile = Style(foreground: 231, background: 24, bold: true)
    static let home = Style(foreground: 231, background: 28, bold: true)
    static let blank = Style(background: 236)

    var headline: String {
        let seat = mySeat ?? 0
        let moves = obs.moves.indices.contains(seat) ? obs.moves[seat] : 0
        let time = elapsedMs.map { " · \(Int($0 / 1000)) s" } ?? ""
        return "\(obs.n)×\(obs.n) · \(moves) move\(moves == 1 ? "" : "s")\(time)"
    }

    /// The board and move count to show for `seat`: the newer of the applied one and the live one.
    func shown(_ seat: Int) -> (cells: [Int], moves: Int, live: Bool) {
        let applied = (obs.boards[seat], obs.moves[seat])
        if let l = live[seat], l.moves > applied.1, l.cells.count == obs.n * obs.n { return (l.cells, l.moves, true) }
        return (applied.0, applied.1, false)
    }

    func lines(options: [MoveOption], selected: Int?) -> [Line] {
        let me = mySeat ?? 0
        let n = obs.n
        var out: [Line] = []
        let big = shown(me).cells
        let others = obs.boards.indices.filter { $0 != me || mySeat == nil }
        var small: [[Line]] = others.map { seat in
            let s = shown(seat)
            var lines = [
                Line(
                    "seat \(seat): \(s.moves) move\(s.moves == 1 ? "" : "s") · \(obs.status[seat])\(s.live ? " ·live" : "")",
                    .dim)
            ]
            for r in 0..<n {
                var line = Line("")
                for c in 0..<n {
                    let t = s.cells[r * n + c]
                    line.append(t == 0 ? "  ." : (t < 10 ? "  \(t)" : " \(t)"), t == r * n + c + 1 ? .good : .plain)
                }
                lines.append(line)
            }
            return lines
        }
        if mySeat != nil {
            out.append(Line("your board (seat \(me)) · \(obs.status[me])", .bold))
            for r in 0..<n {
                var line = Line(" ")
                for c in 0..<n {
                    let t = big[r * n + c]
                    let style = t == 0 ? Self.blank : (t == r * n + c + 1 ? Self.home : Self.tile)
                    line.append(t == 0 ? "    " : (t < 10 ? "  \(t) " : " \(t) "), style)
                }
                out.append(line)
            }
            out.append(Line("arrows slide a tile into the blank (← moves the tile right of it left) · g give up", .dim))
        }
        // Opponents side by side, three to a row.
        while !small.isEmpty {
            let row = Array(small.prefix(3))
            small.removeFirst(row.count)
            let height = row.map(\.count).max() ?? 0
            for i in 0..<height {
                var line = Line("")
                for board in row {
                    let cell = i < board.count ? board[i] : Line("")
                    let width = cell.spans.reduce(0) { $0 + $1.text.count }
                    line.spans += cell.spans
                    line.append(String(repeating: " ", count: max(1, 4 * n + 4 - width)))
                }
                out.append(line)
            }
        }
        return out
    }

    func seatDetail(_ seat: Int, of snapshot: TableSnapshot) -> String {
        guard obs.moves.indices.contains(seat) else { return "" }
        let s = shown(seat)
        return "\(counted(s.moves, "move")) · \(obs.status[seat])"
    }
}
