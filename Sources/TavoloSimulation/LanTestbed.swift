import Foundation

/// The test hosts `scripts/lan` makes: network namespaces tvh1…tvhN, each kept alive by a holder process whose
/// network and mount namespaces a node enters (`nsenter -t PID -n -m`).
public enum LanTestbed {
    /// Where `scripts/lan` keeps its state (in this host's /run, outside the test hosts).
    public static let stateDirectory = "/run/tavolo-lan"
    public static let nsenter = "/usr/bin/nsenter"

    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// The pid of `host`'s holder process; throws with what to run when the host does not exist.
    public static func holderPID(host: String) throws -> pid_t {
        let path = "\(stateDirectory)/\(host)/holder.pid"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), kill(pid, 0) == 0
        else {
            throw Missing(description: "no test host \(host): make them with `scripts/lan up N` (as root) first")
        }
        guard FileManager.default.isExecutableFile(atPath: nsenter) else {
            throw Missing(description: "\(nsenter) is missing (util-linux)")
        }
        return pid
    }
}
