import Foundation

/// Starts one `tavolod` process: the one way `tavolo simulate` and the integration tests' harness start nodes,
/// so both run them alike (same environment, same place for their output, same way into a test host).
public struct NodeProcess {
    /// The `tavolod` binary.
    public var daemonPath: String
    /// Its arguments (`--name`, `--state-dir`, …).
    public var arguments: [String]
    /// Standard output and standard error are appended here (a restarted node adds to its earlier log).
    public var logPath: String
    /// The holder process of the scripts/lan test host to run in, or nil for this host.
    public var testHost: pid_t?
    /// Variables added to (or replacing) this process's environment.
    public var environment: [String: String]

    public init(
        daemonPath: String, arguments: [String], logPath: String, testHost: pid_t? = nil,
        environment: [String: String] = [:]
    ) {
        self.daemonPath = daemonPath
        self.arguments = arguments
        self.logPath = logPath
        self.testHost = testHost
        self.environment = environment
    }

    public struct LaunchError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts the node and returns its process; `onExit` runs when it ends (on a Foundation thread).
    public func start(onExit: (@Sendable (Process) -> Void)? = nil) throws -> Process {
        let process = Process()
        if let testHost {
            // Into the test host's network and mount namespaces; nsenter execs tavolod, so the pid stays the same.
            process.executableURL = URL(fileURLWithPath: LanTestbed.nsenter)
            process.arguments = ["-t", String(testHost), "-n", "-m", "--", daemonPath] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: daemonPath)
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["AVAHI_COMPAT_NOWARN"] = "1"  // libdns_sd's compat warning would fill the log at every start
        env.merge(environment) { _, new in new }
        process.environment = env
        if !FileManager.default.fileExists(atPath: logPath) {
            FileManager.default.createFile(atPath: logPath, contents: nil)
        }
        guard let log = FileHandle(forWritingAtPath: logPath) else {
            throw LaunchError(description: "cannot write the node log \(logPath)")
        }
        log.seekToEndOfFile()
        // A file, never a pipe: nobody reads a node's output while it runs, and a full pipe would stop the node.
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        if let onExit { process.terminationHandler = onExit }
        defer { try? log.close() }
        do { try process.run() } catch {
            throw LaunchError(description: "cannot start \(daemonPath): \(error.localizedDescription)")
        }
        return process
    }
}
