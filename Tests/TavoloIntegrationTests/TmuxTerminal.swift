import Foundation
import TavoloTestSupport
import XCTest

/// A terminal for a test: a detached tmux session on its own server socket, typed into with send-keys and read
/// with capture-pane. The command runs in a shell that prints `EXIT=<status>` and then the terminal's `icanon`
/// setting when it ends, so a test sees how the program left the terminal (wait for both: they come one by one).
final class TmuxTerminal {
    let tmux: String
    let socket: String

    /// Skips (or fails under CI=true) without tmux.
    init(socket: String, command: String, width: Int = 100, height: Int = 40) throws {
        guard
            let path = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                XCTFail("tmux is missing (scripts/setup installs it)")
            }
            throw XCTSkip("tmux is not installed")
        }
        tmux = path
        self.socket = socket
        let shell = "\(command); echo EXIT=$?; stty -a | grep -o -- '-icanon\\| icanon'; sleep 600"
        guard
            Self.spawnAndWait(
                tmux, ["-L", socket, "new-session", "-d", "-s", "t", "-x", "\(width)", "-y", "\(height)", shell]) == 0
        else { throw HarnessError("tmux new-session failed") }
    }

    deinit { _ = Self.spawnAndWait(tmux, ["-L", socket, "kill-server"]) }

    /// What the terminal shows now.
    func screen() -> String {
        (try? runProcess(tmux, ["-L", socket, "capture-pane", "-p", "-t", "t"]))?.stdout ?? ""
    }

    /// Keys as tmux names them (`Enter`, `Right`, `C-c`) or literal text.
    func send(_ keys: String...) {
        _ = try? runProcess(tmux, ["-L", socket, "send-keys", "-t", "t"] + keys)
    }

    /// Sends `signal` to the program the terminal's shell runs (the shell's child, from /proc).
    func signalProgram(_ signal: Int32) throws {
        let pane = (try? runProcess(tmux, ["-L", socket, "list-panes", "-t", "t", "-F", "#{pane_pid}"]))?.stdout ?? ""
        guard let shell = Int32(pane.trimmingCharacters(in: .whitespacesAndNewlines)),
            let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8),
            let child = children.split(separator: " ").first.flatMap({ Int32($0) })
        else { throw HarnessError("no program runs in the terminal (pane pid '\(pane)')") }
        kill(child, signal)
    }

    /// Polls the screen until `condition` holds; fails the test (and throws) after `seconds`.
    @discardableResult
    func waitFor(_ what: String, seconds: Double = 30, _ condition: (String) -> Bool) throws -> String {
        var text = ""
        try eventuallySync(what, within: seconds, every: 0.1, context: { "the screen:\n\(text)" }) {
            text = screen()
            return condition(text)
        }
        return text
    }

    /// Foundation's Process waits for a pipe its child inherits, which the forked tmux server keeps open
    /// forever: start tmux itself with posix_spawn and waitpid.
    static func spawnAndWait(_ path: String, _ args: [String]) -> Int32 {
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (status >> 8) & 0xFF
    }
}
