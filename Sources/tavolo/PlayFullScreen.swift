import Foundation
import TavoloControl
import TavoloTable
import TavoloTerminal

/// The full-screen table: keys and the node's events wake the loop, which fetches the table, lets the controller
/// handle the keys, and repaints. A bell rings once each time it becomes the person's turn.
struct PlayFullScreen {
    let session: PlaySession
    let wake: DispatchSemaphore

    /// Runs until the person leaves or detaches; the terminal is restored on every way out.
    func run() throws {
        // A table that cannot be shown is one line on the normal screen, before raw mode.
        let first: TableSnapshot
        do { first = try session.snapshot() } catch { throw CleanExit.failure("\(error)") }
        let terminal = try RawTerminal()
        defer { terminal.restore() }
        // Said on Ctrl-C (or SIGTERM, SIGHUP) after the terminal is restored: the seat stays, the way back.
        RawTerminal.farewell =
            "\ninterrupted: \(session.table) goes on at your node (tavolo play \(session.table) to come back)\n"
        do { try loop(terminal, first) } catch {
            terminal.restore()
            throw CleanExit.failure(Self.explain(error, table: session.table))
        }
    }

    /// The one line for a way out that was not chosen; above all the node's own end, which left no trace before.
    static func explain(_ error: Error, table: TableID) -> String {
        nodeLoss(error, comeBack: "run `tavolo play \(table)` to come back")
    }

    private func loop(_ terminal: RawTerminal, _ first: TableSnapshot) throws {
        let keys = KeyQueue()
        let wake = self.wake
        Thread.detachNewThread {
            while let bytes = RawTerminal.readKeys() {
                keys.push(KeyDecoder.keys(bytes))
                wake.signal()
            }
            keys.push([.endOfInput])
            wake.signal()
        }
        // https://no-color.org: colour unless NO_COLOR is set (cards keep their letters either way).
        let env = ProcessInfo.processInfo.environment
        let colour = (env["NO_COLOR"].map(\.isEmpty) ?? true) && env["TERM"] != "dumb"
        var ui = PlayController()
        var snapshot = first
        while true {
            ui.sync(snapshot)
            let (width, height) = terminal.size
            let screen = TableScreen(width: width, height: height)
            RawTerminal.write(
                ScreenRenderer(width: width, height: height, colour: colour).frame(screen.lines(snapshot, ui)))
            if ui.ringsBell(for: snapshot) { RawTerminal.write("\u{07}") }
            // Wake on a key or an event; else refresh every second for the peers' status.
            // A race shows the opponents' live boards: refresh five times a second while it runs.
            let racing = snapshot.game.hasPrefix("fifteen") && snapshot.phase == .playing
            _ = wake.wait(timeout: .now() + (racing ? 0.2 : 1))
            _ = session.drainEvents()
            let rules = RulesView.lines(game: snapshot.game, width: width).count
            for key in keys.drain() {
                switch ui.handle(key, snapshot, rulesLines: rules, page: max(1, height - 2)) {
                case .none: break
                case .play(let json):
                    ui.notice = session.play(json)
                case .leave:
                    let said = try session.leave()
                    terminal.restore()
                    print(said)
                    return
                case .detach:
                    terminal.restore()
                    if snapshot.phase == .finished {
                        print("game over — " + ResultText.oneLine(snapshot))
                    } else if snapshot.phase != .stopped {
                        print(
                            "stopped watching; \(session.table) goes on at your node (tavolo play \(session.table) to come back)"
                        )
                    }
                    return
                }
            }
            snapshot = try session.snapshot()
        }
    }
}

/// Keys read on the keyboard thread, taken by the loop.
final class KeyQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [Key] = []

    func push(_ more: [Key]) { lock.withLock { keys += more } }
    func drain() -> [Key] {
        lock.withLock {
            defer { keys = [] }
            return keys
        }
    }
}
