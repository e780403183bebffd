import Foundation
import TavoloTestSupport
import XCTest

/// Runs tshark with the repository's Lua dissector.
enum Tshark {
    static var dissector: String {
        ProtocolVectors.repositoryRoot.appendingPathComponent("Protocol/tavolo.lua").path
    }

    /// The tshark executable, or nil when it is not installed.
    static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") + ["/usr/bin", "/usr/local/bin"] {
            let candidate = "\(dir)/tshark"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Skips the test when tshark is missing, except under CI=true where that is a failure.
    static func require() throws -> String {
        if let e = executable { return e }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail("tshark is not installed (scripts/setup installs it)")
        }
        throw XCTSkip("tshark is not installed; run scripts/setup to install it")
    }

    /// Runs tshark on `file` with the dissector and returns stdout; fails on a non-zero exit.
    ///
    /// Lua as root: tshark runs user scripts (-X lua_script) as root only when the global init.lua sets
    /// `run_user_scripts_when_superuser = true`, as Debian's does. Where it does not, a root test run
    /// drops to nobody with setpriv for tshark alone.
    static func run(_ file: String, _ arguments: [String]) throws -> String {
        let tshark = try require()
        // Tavolo's dissector is heuristic: without these, a node's random port that another protocol registered (EtherCAT,
        // X11, …) is decoded as that protocol and its frames go uncounted.
        var argv =
            [
                tshark, "-n", "-r", file, "-X", "lua_script:\(dissector)", "-o", "tcp.try_heuristic_first:TRUE", "-o",
                "udp.try_heuristic_first:TRUE",
            ] + arguments
        if getuid() == 0 && !rootMayRunLua(), FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
            argv = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + argv
        }
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = FileManager.default.temporaryDirectory.path  // no personal profile or plugins
        let result = try runProcess(argv[0], Array(argv.dropFirst()), environment: env)
        let stderr = result.stderr
        guard result.status == 0 else {
            throw NSError(
                domain: "tshark", code: Int(result.status),
                userInfo: [NSLocalizedDescriptionKey: "tshark exited \(result.status): \(stderr)"])
        }
        if stderr.contains("Lua: Error") || stderr.contains("lua_script") && stderr.contains("rror") {
            XCTFail("tshark could not load the dissector: \(stderr)")
        }
        return result.stdout
    }

    /// Whether the global init.lua lets root run -X lua_script.
    static func rootMayRunLua() -> Bool {
        for path in ["/usr/share/wireshark/init.lua", "/usr/local/share/wireshark/init.lua"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            if lines.contains(where: { $0.hasPrefix("run_user_scripts_when_superuser") && $0.hasSuffix("false") }) {
                return false
            }
            if lines.contains(where: {
                ($0.hasPrefix("disable_lua") && $0.hasSuffix("true"))
                    || ($0.hasPrefix("enable_lua") && $0.hasSuffix("false"))
            }) {
                return false
            }
            return true
        }
        return true  // newer Wireshark has no init.lua switch for this
    }

    /// `-T fields` rows: one array of column values per packet; several occurrences in one packet joined by "|".
    static func fields(_ file: String, _ names: [String], filter: String? = nil) throws -> [[String]] {
        var args = ["-T", "fields", "-E", "occurrence=a", "-E", "aggregator=|", "-E", "separator=/t"]
        for n in names { args += ["-e", n] }
        if let filter { args += ["-Y", filter] }
        let text = try run(file, args)
        return text.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }
}
