import ArgumentParser
import Foundation
import TavoloControl

/// Which node's control socket to talk to. Without `--node` or `--control`: the user's own node (`NodeConfig`: the
/// name in ~/.config/tavolo/tavolod.conf, else the login name — the node the systemd user unit starts), or, when
/// that one does not run, the only node of this user that does.
struct NodeOptions: ParsableArguments {
    @Option(
        help: """
            Name of the local node to ask (its default control socket). Default: your own node (`name` in \
            ~/.config/tavolo/tavolod.conf, else your login name), or the only one running.
            """)
    var node: String?

    @Option(help: "Path of the node's control socket.")
    var control: String?

    func validate() throws {
        if node != nil && control != nil { throw ValidationError("give --node or --control, not both") }
    }

    /// The socket to use; throws one line when no flag was given and no node of the user can be found.
    func socketPath() throws -> String {
        switch locate() {
        case .found(let path): return path
        case .notFound(let why): throw CleanExit.failure(why)
        }
    }

    /// The socket the flags name, else the one `NodeLocator` finds, else why none.
    func locate() -> NodeLocator.Outcome {
        if let control { return .found(path: control) }
        if let node { return .found(path: ControlSocket.defaultPath(node: node)) }
        return NodeLocator.find()
    }

    /// Connects, or fails with one line.
    func connect(timeout: Double? = 10) throws -> ControlClient {
        let path = try socketPath()
        do { return try ControlClient(path: path, timeout: timeout) } catch {
            throw CleanExit.failure("\(error)")
        }
    }
}

/// A user-facing failure: one line on stderr, exit code 1.
enum CleanExit {
    static func failure(_ message: String) -> Error {
        FileHandleStderr.write("tavolo: \(message)")
        return ExitCode(1)
    }
}

enum FileHandleStderr {
    static func write(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
}
