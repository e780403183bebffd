import Foundation
import TavoloControl
import TavoloDaemon
import TavoloMesh
import TavoloProtocol
import TavoloSimulation
import TavoloTestSupport
import XCTest

/// Starts real `tavolod` processes for integration tests: unique names (a random suffix, so parallel runs and stale
/// Avahi records never collide), a temp directory with one state dir per node and the control sockets
/// (`XDG_RUNTIME_DIR` points into it), short heartbeats. `stopAll()` SIGKILLs every process it started; tests call
/// it from `tearDown` (which XCTest runs after a failure too), and an `atexit` hook does the same if the test
/// process itself ends early.
final class DaemonHarness: @unchecked Sendable {
    struct Node {
        let name: String
        let stateDir: String
        let controlPath: String
        let logPath: String
        var process: Process
        var extraArguments: [String]
        /// The holder process of the scripts/lan test host the node runs in (nil: this host).
        var testHost: pid_t? = nil
    }

    /// Tests of loss detection ask for short heartbeats; games get longer ones, so a busy CI machine that stalls a
    /// node for a second does not lose a member and stop the table under test.
    let heartbeatInterval: Double
    let heartbeatTimeout: Double

    let runID = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    let root: URL
    private(set) var nodes: [Node] = []
    let binary: URL

    init(heartbeatInterval: Double = 0.5, heartbeatTimeout: Double = 8) throws {
        self.heartbeatInterval = heartbeatInterval
        self.heartbeatTimeout = heartbeatTimeout
        binary = try locateTavolod()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tavolo-it-\(runID)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("run"), withIntermediateDirectories: true)
    }

    /// The name of node `index` in this run.
    func name(_ index: Int) -> String { "it\(runID)-n\(index)" }

    /// Names of every node this harness started (peers from other runs are ignored by the checks).
    var names: Set<String> { Set(nodes.map(\.name)) }

    /// Starts `count` nodes and returns their indices.
    @discardableResult
    func start(_ count: Int, extraArguments: [String] = []) throws -> [Int] {
        try (0..<count).map { _ in try startNode(extraArguments: extraArguments) }
    }

    /// Starts one new node and returns its index.
    func startNode(extraArguments: [String] = [], testHost: pid_t? = nil) throws -> Int {
        let index = nodes.count
        let name = name(index)
        let node = Node(
            name: name, stateDir: root.appendingPathComponent("state-\(index)").path,
            controlPath: root.appendingPathComponent("run/tavolo/\(name).sock").path,
            logPath: root.appendingPathComponent("\(name).log").path,
            process: Process(), extraArguments: extraArguments, testHost: testHost)
        nodes.append(node)
        try launch(index)
        return index
    }

    /// (Re)starts node `index` with its state dir (so the same node id).
    func restart(_ index: Int) throws {
        precondition(!nodes[index].process.isRunning, "restart a node that is not running")
        try launch(index)
    }

    private func launch(_ index: Int) throws {
        let node = nodes[index]
        let arguments =
            [
                "--name", node.name, "--state-dir", node.stateDir, "--control", node.controlPath,
                "--heartbeat-interval", String(heartbeatInterval), "--heartbeat-timeout",
                String(heartbeatTimeout),
                "--log-level", "info",
            ] + node.extraArguments + packetLogArguments(index)
        let p = try NodeProcess(
            daemonPath: binary.path, arguments: arguments, logPath: node.logPath, testHost: node.testHost,
            environment: ["XDG_RUNTIME_DIR": root.appendingPathComponent("run").path]
        ).start()
        nodes[index].process = p
        RunningProcesses.shared.add(p.processIdentifier)
    }

    /// With `TAVOLO_TEST_PACKET_LOGS=1`, every node records its frames (`capture-<i>-<start>.pcapng` beside its log;
    /// keep them with `TAVOLO_KEEP_TEST_LOGS=1` and read them with `tavolo log`): to see what a flaky test's nodes said.
    private func packetLogArguments(_ index: Int) -> [String] {
        guard ProcessInfo.processInfo.environment["TAVOLO_TEST_PACKET_LOGS"] == "1" else { return [] }
        let start = Int(Date().timeIntervalSince1970 * 1000)
        return ["--packet-log", root.appendingPathComponent("capture-\(index)-\(start).pcapng").path]
    }

    func pid(_ index: Int) -> pid_t { nodes[index].process.processIdentifier }

    /// Nodes stopped with SIGSTOP: their control socket would never answer (ControlClient has no timeout).
    private(set) var stopped: Set<Int> = []

    func signal(_ index: Int, _ sig: Int32) {
        let p = nodes[index].process
        guard p.isRunning else { return }
        if sig == SIGSTOP { stopped.insert(index) }
        if sig == SIGCONT || sig == SIGKILL { stopped.remove(index) }
        kill(p.processIdentifier, sig)
    }

    /// SIGKILLs node `index` and reaps it.
    func kill9(_ index: Int) {
        signal(index, SIGKILL)
        nodes[index].process.waitUntilExit()
        RunningProcesses.shared.remove(pid(index))
    }

    /// Waits up to `seconds` for node `index` to exit; returns how long it took, or nil if it is still running.
    func waitForExit(_ index: Int, seconds: Double) -> Double? {
        let p = nodes[index].process
        let start = Date()
        // The caller says what a node still running means: not a failure here.
        do {
            try eventuallySync("node \(index) to exit", within: seconds, every: 0.005, failing: false) { !p.isRunning }
        } catch {
            return nil
        }
        RunningProcesses.shared.remove(p.processIdentifier)
        return Date().timeIntervalSince(start)
    }

    /// Kills every process still running (SIGCONT first, so stopped ones die too) and removes the temp dir.
    func stopAll() {
        // SIGTERM first (goodbyes, DNS-SD withdrawal: less churn for the next test), SIGKILL after 2 s.
        for n in nodes where n.process.isRunning {
            kill(n.process.processIdentifier, SIGCONT)
            kill(n.process.processIdentifier, SIGTERM)
        }
        try? eventuallySync("every node to exit", within: 2, every: 0.01, failing: false) {
            !nodes.contains { $0.process.isRunning }
        }
        for n in nodes where n.process.isRunning {
            kill(n.process.processIdentifier, SIGKILL)
        }
        for n in nodes {
            n.process.waitUntilExit()
            RunningProcesses.shared.remove(n.process.processIdentifier)
        }
        if ProcessInfo.processInfo.environment["TAVOLO_KEEP_TEST_LOGS"] == nil {
            try? FileManager.default.removeItem(at: root)
        }
    }

    /// The last lines of node `index`'s log, for failure messages.
    func logTail(_ index: Int, lines: Int = 15) -> String {
        let text = (try? String(contentsOfFile: nodes[index].logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    // MARK: Control socket

    /// The node's peers, or nil while its control socket is not up.
    func peers(_ index: Int) -> [PeerSummary]? {
        guard !stopped.contains(index), let client = try? ControlClient(path: nodes[index].controlPath) else {
            return nil
        }
        return try? client.call(.peers)
    }

    func status(_ index: Int) throws -> NodeStatus {
        try ControlClient(path: nodes[index].controlPath).call(.status)
    }

    /// Node `index`'s view of the other nodes of this run, by name.
    func view(_ index: Int) -> [String: PeerSummary]? {
        guard let list = peers(index) else { return nil }
        let mine = names
        return Dictionary(list.filter { mine.contains($0.name) }.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// True when every node in `members` lists every other member as connected.
    func isFullMesh(_ members: [Int]) -> Bool {
        for i in members {
            guard let v = view(i) else { return false }
            for j in members where j != i {
                guard v[name(j)]?.state == .connected else { return false }
            }
        }
        return true
    }

    /// `TavoloTestSupport.eventuallySync` with every node's view of its peers as the context of a time-out; returns
    /// the time the wait took (printed by tests, never asserted).
    @discardableResult
    func eventually(
        _ what: @autoclosure () -> String, seconds: Double, file: StaticString = #filePath, line: UInt = #line,
        _ condition: () -> Bool
    ) throws -> Double {
        let start = Date()
        // Every 50 ms, not faster: a condition here asks every node's control socket.
        try eventuallySync(what(), within: seconds, every: 0.05, file: file, line: line, context: meshViews, condition)
        return Date().timeIntervalSince(start)
    }

    /// Each node's state and its view of its peers, for a time-out's message.
    func meshViews() -> String {
        nodes.indices.map { i in
            let state = stopped.contains(i) ? "stopped" : nodes[i].process.isRunning ? "running" : "exited"
            let v = view(i).map { $0.values.sorted { $0.name < $1.name }.map { "\($0.name)=\($0.state.rawValue)" } }
            return "  \(name(i)) [\(state)]: \(v?.joined(separator: " ") ?? "no control socket")"
        }.joined(separator: "\n")
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Every pid the harnesses started, SIGKILLed at exit if still there (a crash or `exit` in a test).
final class RunningProcesses: @unchecked Sendable {
    static let shared = RunningProcesses()
    private let lock = NSLock()
    private var pids: Set<pid_t> = []

    private init() {
        atexit {
            for pid in RunningProcesses.shared.lock.withLock({ RunningProcesses.shared.pids }) {
                kill(pid, SIGCONT)
                kill(pid, SIGKILL)
            }
        }
    }

    func add(_ pid: pid_t) { _ = lock.withLock { pids.insert(pid) } }
    func remove(_ pid: pid_t) { _ = lock.withLock { pids.remove(pid) } }
}

/// Finds the `tavolod` built next to this test bundle: `$TAVOLOD` if set, else the build products directory that
/// holds the running test binary (works for `.build` and any `--scratch-path`), else `.build*/{debug,release}`
/// next to this package.
func locateTavolod() throws -> URL {
    let fm = FileManager.default
    if let explicit = ProcessInfo.processInfo.environment["TAVOLOD"], fm.isExecutableFile(atPath: explicit) {
        return URL(fileURLWithPath: explicit)
    }
    var dirs: [URL] = []
    // On Linux the .xctest is an executable in the products dir; on macOS a bundle in it.
    dirs.append(Bundle.main.bundleURL)
    dirs.append(Bundle.main.bundleURL.deletingLastPathComponent())
    if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        dirs.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
    }
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        dirs.append(bundle.bundleURL.deletingLastPathComponent())
    }
    // Package root from this file: Tests/TavoloIntegrationTests/DaemonHarness.swift.
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    if let entries = try? fm.contentsOfDirectory(atPath: packageRoot.path) {
        for entry in entries.sorted() where entry.hasPrefix(".build") {
            for config in ["debug", "release"] {
                dirs.append(packageRoot.appendingPathComponent(entry).appendingPathComponent(config))
            }
        }
    }
    for dir in dirs {
        let candidate = dir.appendingPathComponent("tavolod")
        if fm.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw HarnessError(
        "tavolod not found next to the test bundle (looked in \(dirs.map(\.path))); build it (swift build) or set TAVOLOD"
    )
}

/// Skips (or, under CI=true, fails) when avahi-daemon is not reachable.
func requireAvahi() throws {
    let check = Process()
    check.executableURL = URL(fileURLWithPath: "/usr/sbin/avahi-daemon")
    check.arguments = ["--check"]
    check.standardOutput = FileHandle.nullDevice
    check.standardError = FileHandle.nullDevice
    var running = false
    if (try? check.run()) != nil {
        check.waitUntilExit()
        running = check.terminationStatus == 0
    }
    guard !running else { return }
    let message = "avahi-daemon is not running (start it with scripts/setup)."
    if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("CI=true: integration tests need avahi-daemon. " + message)
        throw HarnessError(message)
    }
    throw XCTSkip("Skipping integration test: " + message + " Under CI=true this is a failure.")
}
