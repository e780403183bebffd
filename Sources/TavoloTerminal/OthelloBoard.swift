import TavoloGames

/// Othello: the 8×8 board with the legal squares marked, and the disc counts.
struct OthelloBoard: GameBoard {
    let obs: OthelloObservation

    init(_ obs: OthelloObservation) { self.obs = obs }

    static let black = Style(foreground: 16, background: 28, bold: true)
    static let white = Style(foreground: 231, background: 28, bold: true)
    static let empty = Style(foreground: 22, background: 28)
    static let legal = Style(foreground: 214, background: 28, bold: true)

    var headline: String { obs.turn == nil ? "game over" : "move \(obs.moveNumber + 1)" }

    func lines(options: [MoveOption], selected: Int?) -> [Line] {
        let files = "    a b c d e f g h"
        var out: [Line] = [Line(files, .dim)]
        let legal = Set(options.map(\.key))
        let chosen = selected.flatMap { options.indices.contains($0) ? options[$0].key : nil }
        for (r, row) in obs.board.enumerated() {
            let rank = 8 - r
            var line = Line(" \(rank) ", .dim)
            for (f, ch) in row.enumerated() {
                let name = "\(Character(Unicode.Scalar(UInt8(97 + f))))\(rank)"
                var text = " \(ch)"
                var style = ch == "X" ? Self.black : ch == "O" ? Self.white : Self.empty
                if ch == ".", legal.contains(name) {
                    text = " +"
                    style = Self.legal
                }
                if name == chosen { style = style.merged(.inverse) }
                line.append(text, style)
            }
            line.append(" ", Self.empty)
            line.append(" \(rank)", .dim)
            out.append(line)
        }
        out.append(Line(files, .dim))
        let d = obs.discs
        out.append(Line("X black (seat 0): \(d[0]) discs   O white (seat 1): \(d[1]) discs   + legal square"))
        if let first = options.first, first.key == "pass" {
            out.append(Line("You have no square that brackets a disc: you must pass.", .alert))
        }
        return out
    }

    func seatDetail(_ seat: Int, of snapshot: TableSnapshot) -> String {
        seat == 0 ? "black X · \(obs.discs[0]) discs" : "white O · \(obs.discs[1]) discs"
    }
}
