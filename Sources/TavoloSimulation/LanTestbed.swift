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

    /// Plugs test host K's cable in or pulls it out (`scripts/lan heal|cut tvhK`: link up or down on the bridge's
    /// end of its veth pair, `tvvK`), as root.
    public static func setCable(host k: Int, plugged: Bool) throws {
        let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let ip else { throw Missing(description: "ip (iproute2) is missing") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ip)
        p.arguments = ["link", "set", "tvv\(k)", plugged ? "up" : "down"]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { throw Missing(description: "cannot run \(ip): \(error.localizedDescription)") }
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw Missing(
                description: "`ip link set tvv\(k) \(plugged ? "up" : "down")` failed (root, scripts/lan up?)")
        }
    }
}
