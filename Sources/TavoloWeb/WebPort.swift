import Foundation
import Logging
import TavoloControl

/// The page's port, kept in the state directory (`web-port`): a node started again serves its page where it was, so
/// a tab left open reconnects instead of going dead (issue 34). A new port only when that one is taken.
public enum WebPortFile {
    public static let fileName = "web-port"

    /// The port the node's page had last time, if any.
    public static func load(stateDirectory: String) -> Int? {
        let path = (stateDirectory as NSString).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            let port = Int(text), (1...65535).contains(port)
        else { return nil }
        return port
    }

    /// Remembers `port` for the next start. A failure to write only costs the next start its old port.
    public static func save(_ port: Int, stateDirectory: String) {
        let path = (stateDirectory as NSString).appendingPathComponent(fileName)
        try? Data("\(port)\n".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

extension WebServer {
    /// Starts the page on `port` when one was asked for (0: any free port); otherwise on the port it had at the last
    /// start, or on a free one when that is taken or there was none. The bound port is remembered either way.
    public static func start(
        stateDirectory: String, port asked: Int?, token: String, logger: Logger, dispatch: @escaping ControlDispatcher
    ) async throws -> WebServer {
        let remembered = asked == nil ? WebPortFile.load(stateDirectory: stateDirectory) : nil
        let server: WebServer
        do {
            server = try await start(port: asked ?? remembered ?? 0, token: token, logger: logger, dispatch: dispatch)
        } catch  where remembered != nil {
            server = try await start(port: 0, token: token, logger: logger, dispatch: dispatch)
            logger.notice(
                "the page's port \(remembered ?? 0) is taken: the page moved to port \(server.port) (open tabs need the new URL)"
            )
        }
        if server.port != remembered {
            WebPortFile.save(server.port, stateDirectory: stateDirectory)
        }
        return server
    }
}
