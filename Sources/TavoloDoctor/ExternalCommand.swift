import Foundation

/// Runs the system's own tools (avahi-daemon, avahi-browse) for `tavolo doctor`, bounded in time.
enum ExternalCommand {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var timedOut: Bool
    }

    /// The command's path: on `PATH`, or in the system directories a normal user's `PATH` may lack
    /// (`avahi-daemon` is in /usr/sbin).
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `path` with `arguments`, killing it after `timeout` seconds. Output goes through temporary files, which
    /// are removed: a pipe left unread would block a chatty command.
    static func run(_ path: String, _ arguments: [String], timeout: Double) -> Result {
        let directory = FileManager.default.temporaryDirectory
        let outURL = directory.appendingPathComponent(
            "tavolo-doctor-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out")
        let errURL = outURL.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        guard let out = try? FileHandle(forWritingTo: outURL), let err = try? FileHandle(forWritingTo: errURL) else {
            return Result(status: -1, stdout: "", stderr: "cannot make a temporary file", timedOut: false)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            return Result(status: -1, stdout: "", stderr: "\(path): \(error)", timedOut: false)
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let timedOut = process.isRunning
        if timedOut { process.terminate() }
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        let text = { (url: URL) in (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
        return Result(status: process.terminationStatus, stdout: text(outURL), stderr: text(errURL), timedOut: timedOut)
    }
}

/// Whether avahi-daemon runs, as `avahi-daemon --check` says (it reads the daemon's pid file).
public enum AvahiDaemonCheck {
    /// True or false from `avahi-daemon --check`; nil when avahi-daemon is not installed.
    public static func run() -> Bool? {
        guard let path = ExternalCommand.find("avahi-daemon") else { return nil }
        return ExternalCommand.run(path, ["--check"], timeout: 5).status == 0
    }
}
