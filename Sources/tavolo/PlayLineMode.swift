import Foundation
import TavoloTable
import TavoloTerminal

/// `tavolo play` when stdin is not a terminal (a script, a pipe): the same screen as plain text, printed when the
/// position changes, and one line of input per move (a number, a move as listed, `?` for the table again, `q`).
struct PlayLineMode {
    let session: PlaySession
    let wake: DispatchSemaphore

    func run() throws {
        var shown = -1
        var printedMoves = 0
        while true {
            let s: TableSnapshot
            do { s = try session.snapshot() } catch {
                throw CleanExit.failure(PlayFullScreen.explain(error, table: session.table))
            }
            _ = session.drainEvents()
            switch s.phase {
            case .finished:
                print("game over — " + ResultText.oneLine(s))
                return
            case .stopped:
                throw CleanExit.failure(s.status.last ?? "the table stopped")
            default: break
            }
            if s.moveNumber > printedMoves {
                for m in s.recentMoves.suffix(s.moveNumber - printedMoves) {
                    print("  " + (m.split(separator: "\n").first.map(String.init) ?? m))
                }
                printedMoves = s.moveNumber
            }
            guard s.isMyTurn else {
                _ = wake.wait(timeout: .now() + 1)
                continue
            }
            if shown != s.moveNumber {
                shown = s.moveNumber
                print(text(s))
            }
            if try askForMove(s) == .done { return }
        }
    }

    /// Whether `tavolo play` goes on after a line of input.
    enum Step { case again, done }

    /// Reads one line at the person's turn and plays it, shows the table again, or leaves (after asking).
    func askForMove(_ s: TableSnapshot) throws -> Step {
        let options = GameBoards.options(game: s.game, legal: s.legalMoves)
        print("your move (1-\(options.count), a move, ? or q): ", terminator: "")
        fflush(nil)
        guard let line = readLine()?.trimmingCharacters(in: .whitespaces) else {
            print(
                "\nstopped watching; \(session.table) goes on at your node (`tavolo play \(session.table)` to come back)"
            )
            return .done
        }
        switch line {
        case "": return .again
        case "?":
            print(text(s))
            return .again
        case "q", "quit":
            print("\(TableNotices.leaveHelp) Leave? [y/N] ", terminator: "")
            fflush(nil)
            guard readLine()?.lowercased().hasPrefix("y") == true else { return .again }
            do { print(try session.leave()) } catch { throw CleanExit.failure("\(error)") }
            return .done
        default: break
        }
        guard let i = GameBoards.match(line, in: options) else {
            print("not one of your moves: \(line) (type a number 1-\(options.count) or a move as listed)")
            return .again
        }
        if let refused = session.play(options[i].json) { print(refused) }
        return .again
    }

    /// The table as plain text, without the full screen's prompt and moves list.
    func text(_ s: TableSnapshot) -> String {
        var quiet = s
        quiet.recentMoves = []  // printed as they happen
        var lines = TableScreen(width: 120, height: 200).lines(quiet, PlayController())
        lines.removeLast()  // the full screen's prompt
        var plain = ScreenRenderer.plainText(lines.filter { !$0.text.hasPrefix("Your moves") })
        let options = GameBoards.options(game: s.game, legal: s.legalMoves)
        plain +=
            "\n  legal moves:\n"
            + options.enumerated().map { "   \($0.offset + 1)) \($0.element.label)" }.joined(separator: "\n")
        return plain
    }
}
