import Foundation
import TavoloProtocol

/// The node id kept in the state directory, so a node is the same peer across restarts.
public enum NodeIdentity {
    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(path: String, detail: String)
        case corrupt(path: String)

        public var description: String {
            switch self {
            case .unreadable(let p, let d): "cannot use state directory file \(p): \(d)"
            case .corrupt(let p): "\(p) does not hold a node id (32 hex digits); move it away to get a new id"
            }
        }
    }

    /// Reads `<dir>/node-id`, creating the directory and a fresh random id on first use.
    public static func loadOrCreate(stateDirectory dir: String) throws -> NodeID {
        let path = (dir as NSString).appendingPathComponent("node-id")
        let fm = FileManager.default
        if fm.fileExists(atPath: path) {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw LoadError.unreadable(path: path, detail: "not readable")
            }
            guard let id = NodeID(hex: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw LoadError.corrupt(path: path)
            }
            return id
        }
        do {
            try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let id = NodeID.random()
            try Data((id.hex + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            return id
        } catch {
            throw LoadError.unreadable(path: path, detail: error.localizedDescription)
        }
    }
}
