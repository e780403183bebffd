import Foundation

/// Finds the control socket of the user's node when `tavolo` is given no `--node` or `--control`.
public enum NodeLocator {
    public enum Outcome: Equatable {
        case found(path: String)
        /// Why no node could be chosen, in one sentence that says what to do.
        case notFound(String)
    }

    /// The user's own node (`NodeConfig.nodeName`) when its socket is there; else the only socket in the user's
    /// socket directory (a node started by hand under another name); else why not.
    public static func find(configPath: String = NodeConfig.defaultPath) -> Outcome {
        let config: NodeConfig
        do { config = try NodeConfig.load(path: configPath) } catch { return .notFound("\(error)") }
        let own = ControlSocket.defaultPath(node: config.nodeName)
        if isSocket(own) { return .found(path: own) }
        let directory = (own as NSString).deletingLastPathComponent
        let running = sockets(in: directory)
        switch running.count {
        case 1: return .found(path: "\(directory)/\(running[0]).sock")
        case 0:
            return .notFound(
                "no node runs for you here (no socket in \(directory)): start yours with "
                    + "`systemctl --user enable --now tavolod` or `tavolod &`, or name one with --node NAME")
        default:
            return .notFound(
                "your node \(config.nodeName) does not run, and several others do (\(running.joined(separator: ", "))): "
                    + "say which with --node NAME")
        }
    }

    /// The node names of the sockets in `directory`, sorted.
    static func sockets(in directory: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { $0.hasSuffix(".sock") && isSocket("\(directory)/\($0)") }
            .map { String($0.dropLast(".sock".count)) }.sorted()
    }

    static func isSocket(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }
}
