import Foundation

/// The whole play screen for a snapshot and the controller's state: title, whose turn, seats, the game's board,
/// your moves, the latest moves, the status line and the prompt. Pure: tests compare its text.
public struct TableScreen {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public func lines(_ s: TableSnapshot, _ ui: PlayController) -> [Line] {
        if case .rules(let offset) = ui.mode {
            let body = RulesView.lines(game: s.game, width: width)
            let page = max(1, height - 2)
            let shown = Array(body.dropFirst(offset).prefix(page))
            let more = offset + page < body.count ? "↓/PgDn more · " : ""
            return [Line("Rules of \(GameBoards.title(s.game))", .accent)] + shown
                + [Line("\(more)↑/PgUp back · any other key returns to the table", .dim)]
        }
        let board = GameBoards.board(for: s)
        let options = GameBoards.options(game: s.game, legal: s.isMyTurn ? s.legalMoves : [])
        var title = Line("Tavolo · \(GameBoards.title(s.game)) · table \(s.tableID)", .bold)
        if let h = board?.headline { title.append(" · \(h)") }
        // A pause's line (who, when, when a bot takes over) is long: wrapped, never cut.
        let turn = turnLine(s)
        let turnLines =
            turn.width < width ? [turn] : RulesView.wrap(turn.text, width: max(20, width - 1)).map { Line($0, .alert) }
        var play: [Line] = []
        if let board {
            play += board.lines(options: options, selected: options.isEmpty ? nil : ui.selected)
        } else {
            // A seat with no position while the game is on: its cards are still being opened (a sealed deal), as
            // the page says too.
            let dealing = s.phase == .playing || s.phase == .paused
            play.append(Line(s.mySeat == nil ? watchingLine(s) : dealing ? "Dealing…" : "No position yet.", .dim))
        }
        var ending: [Line] = []
        if s.phase == .finished {
            ending = ResultText.lines(s)
        } else if !options.isEmpty {
            ending = [movesLine(options, selected: ui.selected)]
        }
        var bottom: [Line] = []
        // A pause is said once, on the turn line.
        let status = s.status.filter { !$0.hasPrefix("Paused") } + (ui.notice.map { [$0] } ?? [])
        if !status.isEmpty { bottom.append(Line(status.joined(separator: " · "), .alert)) }
        bottom.append(promptLine(s, ui))
        let layout = Layout(title: title, turn: turnLines, seats: seatLines(s, board), board: play, ending: ending)
        let (body, spaced) = layout.fitted(height: height - bottom.count)
        let gap: [Line] = spaced ? [""] : []
        // The latest moves fill what the screen has left.
        let room = max(0, height - body.count - gap.count - bottom.count - 2)
        let wrapped = Self.moveLines(s).flatMap { RulesView.wrap("  " + $0, width: max(20, width - 1), hanging: 6) }
        let recent = wrapped.suffix(room).map { Line($0, .dim) }
        let middle: [Line] = recent.isEmpty ? [] : ["", Line("Latest moves", .bold)] + recent
        return body + middle + gap + bottom
    }

    /// The screen above the status and prompt lines, most needed last. When the terminal is too small the least
    /// needed go first — the blank lines, the seats, the title, then the board from its top — so the board's last
    /// lines (the hand) and the person's moves stay (issue 34: in a small terminal they were the first cut).
    struct Layout {
        var title: Line
        var turn: [Line]
        var seats: [Line]
        var board: [Line]
        var ending: [Line]

        /// The lines that fit in `height`, and whether they kept their blank lines.
        func fitted(height: Int) -> (lines: [Line], spaced: Bool) {
            let spaced = [title] + turn + [""] + seats + [""] + board + [""] + ending
            if spaced.count + 1 <= height { return (spaced, true) }
            let tight = [title] + turn + seats + board + ending
            if tight.count <= height { return (tight, false) }
            let seatless = [title] + turn + board + ending
            if seatless.count <= height { return (seatless, false) }
            let room = max(0, height - turn.count - ending.count)
            return (turn + board.suffix(room) + ending, false)
        }
    }

    /// One line per seat: the turn marker, who owns it (`you` only for the person's seat), what is public about it.
    func seatLines(_ s: TableSnapshot, _ board: GameBoard?) -> [Line] {
        func who(_ seat: TableSnapshot.Seat) -> String {
            seat.seat == s.mySeat ? "you (\(seat.ownerName ?? "this node"))" : seat.who
        }
        let column = max(20, s.seats.map { who($0).count }.max() ?? 0)
        return s.seats.map { seat in
            let mark = seat.seat == s.turn && s.phase == .playing ? Span("▶ ", .accent) : Span("  ")
            var line = Line([mark, Span("seat \(seat.seat)  ")])
            line.append(
                who(seat).padding(toLength: column, withPad: " ", startingAt: 0), seat.seat == s.turn ? .bold : .plain)
            if let d = board?.seatDetail(seat.seat, of: s), !d.isEmpty { line.append("  " + d, .dim) }
            return line
        }
    }

    /// The latest moves' texts as lines: every line of a Spirits! or Briscola text (round ends, ghosts), only the
    /// first of an Othello one (the rest is the board before and after, which the screen already shows).
    static func moveLines(_ s: TableSnapshot) -> [String] {
        s.recentMoves.flatMap { m -> [String] in
            let parts = m.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = parts.first else { return [] }
            return s.game == "othello" ? [first] : [first] + parts.dropFirst().map { "   " + $0 }
        }
    }

    /// `Your moves  1 d3   2 c4`, the selected one in inverse; what one types (`G2`) when the labels do not fit.
    func movesLine(_ options: [MoveOption], selected: Int) -> Line {
        func line(_ text: (MoveOption) -> String) -> Line {
            var moves = Line("Your moves ", .accent)
            for (i, o) in options.enumerated() {
                moves.append(" \(i + 1) \(text(o)) ", i == selected ? .inverse : Style(underline: true))
                moves.append(" ")
            }
            return moves
        }
        let full = line(\.label)
        return full.width <= width ? full : line(\.key)
    }

    func turnLine(_ s: TableSnapshot) -> Line {
        switch s.phase {
        case .open: return Line("Waiting for the seats to fill…", .dim)
        case .seeding: return Line("Starting: the seat owners are choosing the joint seed…", .dim)
        case .stopped: return Line("The table stopped before the end.", .alert)
        case .finished: return Line("Game over.", .accent)
        case .paused:
            return Line(
                s.status.first { $0.hasPrefix("Paused") } ?? "Paused: a member was lost; moves wait for them", .alert)
        case .playing:
            guard let t = s.turn else {
                let away = "Under way among its members: their moves reach only their nodes"
                return Line(s.isOutsider ? away : "Nobody to play.", .dim)
            }
            if s.isMyTurn { return Line("▶ YOUR TURN — \(s.name(of: t))", .accent) }
            return Line("Waiting for \(s.name(of: t)) to play", .bold)
        }
    }

    /// Where a person without a seat stands: at a table its node plays (its bots, or voted out), the moves come as
    /// they are played; away from it, none do.
    func watchingLine(_ s: TableSnapshot) -> String {
        if s.isOutsider { return "You are not at this table: only its seats, its phase and its end reach your node." }
        return "You hold no seat here: watching; the moves show below as they are played."
    }

    func promptLine(_ s: TableSnapshot, _ ui: PlayController) -> Line {
        if case .confirmGiveUp = ui.mode {
            return Line("Give up? You leave the race, unranked. y: give up · other key: keep racing", .accent)
        }
        if ui.mode == .confirmQuit {
            // Whole at any width (it was cut at 80 columns): the longest wording that fits.
            let wordings = [
                "Leave? You forfeit; a bot plays on. l: leave · d: detach (come back later) · other key: stay",
                "Leave? Forfeit, a bot plays on. l: leave · d: detach (come back) · other: stay",
                "Leave? l: leave (forfeit) · d: detach · other: stay",
                "l: leave · d: detach · other: stay",
            ]
            return Line(wordings.first { $0.count < width } ?? wordings[wordings.count - 1], .accent)
        }
        let keys: String
        if s.phase == .finished || s.phase == .stopped {
            keys = "? rules · q close"
        } else if s.isMyTurn {
            keys = "←/→ choose · Enter play · or type a number or a move · ? rules · q quit"
        } else {
            keys = "? rules · q quit"
        }
        return Line("> ", .bold) + Span(ui.typed, .bold) + Span("_  ", .dim) + Span(keys, .dim)
    }
}
