import Foundation
import TavoloProtocol

/// The user's own node: the one `tavolod` runs when started without `--name` (as the systemd user unit starts it),
/// and the one `tavolo` talks to without `--node`. Both read the same small file, so they agree on its name:
///
///     # ~/.config/tavolo/tavolod.conf
///     name = alice      # default: the login name
///     port = 7878       # TCP and UDP; default: any free port
///
/// A missing file is an empty one. Lines are `key = value`; `#` starts a comment; an unknown key or a bad value is
/// an error that names the file and the line, so a typo never silently starts a node under another name.
public struct NodeConfig: Sendable, Equatable {
    public var name: String?
    public var port: Int?

    public init(name: String? = nil, port: Int? = nil) {
        self.name = name
        self.port = port
    }

    /// The keys the file may hold.
    public static let keys = ["name", "port"]

    /// `${XDG_CONFIG_HOME:-~/.config}/tavolo/tavolod.conf`.
    public static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        let base =
            env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".config")
        return "\(base)/tavolo/tavolod.conf"
    }

    /// A bad line of the file, said in one sentence.
    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads the file at `path`; nothing there is an empty configuration.
    public static func load(path: String = defaultPath) throws(Invalid) -> NodeConfig {
        guard FileManager.default.fileExists(atPath: path) else { return NodeConfig() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Invalid(description: "\(path): cannot be read")
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// Reads the text of a configuration file (`path` only names it in errors).
    public static func parse(_ text: String, path: String) throws(Invalid) -> NodeConfig {
        var config = NodeConfig()
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            let here = "\(path) line \(index + 1)"
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw Invalid(description: "\(here): expected `key = value`, got '\(trimmed)'")
            }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "name":
                if let problem = NodeName.problem(value) { throw Invalid(description: "\(here): name \(problem)") }
                config.name = value
            case "port":
                guard let port = Int(value), (0...65535).contains(port) else {
                    throw Invalid(description: "\(here): port must be a number in 0...65535, got '\(value)'")
                }
                config.port = port
            default:
                throw Invalid(
                    description: "\(here): unknown key '\(key)' (keys: \(keys.joined(separator: ", ")))")
            }
        }
        return config
    }

    /// The name of the user's node: the file's, else the login name.
    public var nodeName: String { name ?? NodeName.loginName }
}

/// What a node name may be (the handshake rules of PROTOCOL.md §4.1: peers refuse a name that breaks them).
public enum NodeName {
    /// Why `name` cannot name a node ("must be …"), or nil when it can.
    public static func problem(_ name: String) -> String? {
        let hasControl = name.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        guard !name.isEmpty, name.utf8.count <= 63, !name.contains("/"), !hasControl else {
            return "must be 1 to 63 bytes without '/' or control characters"
        }
        guard !name.unicodeScalars.contains(where: HiddenCharacters.contains) else {
            return "must not hold invisible characters or direction overrides (peers refuse such a name)"
        }
        return nil
    }

    /// The login name of the user running this process (the password database's, else `$USER`).
    public static var loginName: String {
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name, let text = String(validatingCString: name),
            !text.isEmpty
        {
            return text
        }
        return ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "tavolo"
    }
}
