import ArgumentParser
import Foundation
import TavoloControl

/// Which node's control socket to talk to.
struct NodeOptions: ParsableArguments {
    @Option(help: "Name of the local node to ask (its default control socket).")
    var node: String?

    @Option(help: "Path of the node's control socket.")
    var control: String?

    func validate() throws {
        if node != nil && control != nil { throw ValidationError("give --node or --control, not both") }
        if node == nil && control == nil {
            throw ValidationError("say which node to ask: --node NAME or --control PATH")
        }
    }

    var socketPath: String { control ?? ControlSocket.defaultPath(node: node ?? "") }

    /// Connects, or fails with one line.
    func connect(timeout: Double? = 10) throws -> ControlClient {
        do { return try ControlClient(path: socketPath, timeout: timeout) } catch {
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
