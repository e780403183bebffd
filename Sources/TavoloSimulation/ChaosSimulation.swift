import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloTable

/// `tavolo simulate --chaos`: real `tavolod` processes play games while, at seeded moments, a member is killed
/// (`kill -9`) and restarted with its state directory, stopped (SIGSTOP) within or past the grace period and
/// continued, or the host is killed; on the LAN testbed (`onTestHosts`, one node per scripts/lan test host) also a
/// host's cable is pulled and plugged back within or past the grace period. It reports games played, finished,
/// agreed, resumed and taken over, and the moves lost (a node's log on disk missing a move it had applied, or
/// differing from the others': must be 0). A member voted out (stopped or cut past the grace) is continued or plugged
/// back and must follow the game to its end as a spectator, with the same log as the others (§9.12).
public final class ChaosSimulation: @unchecked Sendable {
    public struct Options: Sendable {
        public var peers: Int
        public var game: String
        public var games: Int
        public var seed: UInt64
        public var bot: String
        public var daemonPath: String
        /// The tables' grace period (seconds): short, so a run takes minutes, not hours.
        public var grace = 6
        public var gameTimeout: Double = 240
        /// Node K runs in test host tvhK (scripts/lan up N), and the fault `cut-heal` is drawn too.
        public var onTestHosts = false
        /// Every table dealt from a sealed deck (PROTOCOL.md §14).
        public var sealed = false
        /// Every game's fault is a power cut: every node killed at once and started again (`Fault.powerCut`).
        public var powerCut = false

        public init(peers: Int, game: String, games: Int, seed: UInt64, bot: String, daemonPath: String) {
            self.peers = peers
            self.game = game
            self.games = games
            self.seed = seed
            self.bot = bot
            self.daemonPath = daemonPath
        }
    }

    public enum Fault: String, Codable, Sendable, CaseIterable {
        case none
        case killRestart = "kill-restart"
        case stopWithinGrace = "stop-within-grace"
        case stopPastGrace = "stop-past-grace"
        case hostKill = "host-kill"
        /// On test hosts only: the victim's cable pulled, plugged back after a seeded delay within or past the grace.
        case cutHeal = "cut-heal"
        /// With `--power-cut` only: every node `kill -9`ed at once and started again a second later, within the grace.
        case powerCut = "power-cut"

        /// The faults drawn: `cut-heal` only on test hosts (last, so a seed draws the same faults on `lo` as before);
        /// never `power-cut`, which `--power-cut` asks for.
        static func drawn(onTestHosts: Bool) -> [Fault] {
            allCases.filter { $0 != .powerCut && (onTestHosts || $0 != .cutHeal) }
        }
    }

    public struct GameReport: Codable, Sendable {
        public var table: String
        public var fault: Fault
        public var victim: String?
        public var faultAtMove: Int?
        /// `cut-heal`: seconds the cable stayed out.
        public var cutSeconds: Double?
        public var moves: Int
        public var finished: Bool
        public var agreed: Bool
        public var resumed: Bool
        public var takenOver: Bool
        /// A two-player table whose other member stayed away past the grace: no majority can vote a bot in, so the
        /// member still there ends it as abandoned (§9.13) and the one away learns it when it is back.
        public var abandoned: Bool?
        public var movesLost: Int
        /// A sealed table: the audit's verdict, the same at every node that finished ("deck verified").
        public var deck: String?
        public var problem: String?
        public var wallMs: Double
    }

    public struct Report: Codable, Sendable {
        /// "lo" (every node on this host) or "test-hosts" (one node per scripts/lan test host).
        public var network: String
        public var peers: Int
        public var game: String
        public var bot: String
        public var seed: UInt64
        public var grace: Int
        public var sealed: Bool?
        public var games: [GameReport]
        public var played: Int
        public var finished: Int
        public var agreed: Int
        public var resumed: Int
        public var takenOver: Int
        /// Two-player tables ended as abandoned, as they must be when a member stays away past the grace.
        public var abandoned: Int?
        public var movesLost: Int
        public var ok: Bool { finished + (abandoned ?? 0) == played && agreed == played && movesLost == 0 }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    let options: Options
    let log: (String) -> Void
    let workDir: String
    let names: [String]
    private let lock = NSLock()
    private var processes: [Process?]
    private var stoppedNodes: Set<Int> = []
    /// Test hosts whose cable is out (node i is in tvh(i+1)).
    private var cutNodes: Set<Int> = []
    /// Holder processes of the test hosts (`onTestHosts`), one per node.
    private var holders: [pid_t] = []
    var keepLogs = false
    /// A power cut's logs on disk right after it, by node: each must begin the log that node ends with.
    var cutLogs: [Int: [GameLog.LoggedMove]] = [:]
    private var rng: UInt64

    public init(options: Options, log: @escaping (String) -> Void) {
        self.options = options
        self.log = log
        workDir = NSTemporaryDirectory() + "tavolo-chaos-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        names = (0..<options.peers).map { "chaos\($0 + 1)-\(suffix)" }
        processes = Array(repeating: nil, count: options.peers)
        rng = options.seed
    }

    /// SplitMix64 (PROTOCOL.md §1.1): the faults, victims and moments come from the seed alone.
    func next(_ bound: Int) -> Int {
        rng &+= 0x9E37_79B9_7F4A_7C15
        var z = rng
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }

    func socket(_ i: Int) -> String { "\(workDir)/run/\(names[i]).sock" }
    func client(_ i: Int) throws -> ControlClient { try ControlClient(path: socket(i), timeout: 5) }
    func state(_ i: Int, _ id: TableID) throws -> TableState {
        try client(i).call(.state(table: id))
    }

    public func run() throws -> Report {
        defer { stopAll(keepingLogs: keepLogs) }
        try FileManager.default.createDirectory(atPath: "\(workDir)/run", withIntermediateDirectories: true)
        if options.onTestHosts {
            do { holders = try (1...options.peers).map { try LanTestbed.holderPID(host: "tvh\($0)") } } catch {
                throw Failure(description: "\(error)")
            }
        }
        log(
            "starting \(options.peers) tavolod nodes"
                + (options.onTestHosts ? " on test hosts tvh1…tvh\(options.peers)" : "")
                + " (heartbeat 0.3 s, loss after 1.5 s, grace \(options.grace) s)")
        for i in 0..<options.peers { try start(i) }
        var games: [GameReport] = []
        for g in 0..<options.games {
            try healAll()
            let report = try playGame()
            log(
                "game \(g + 1)/\(options.games): \(report.fault.rawValue)"
                    + (report.victim.map { " of \($0) at move \(report.faultAtMove ?? 0)" } ?? "")
                    + ": \(counted(report.moves, "move")), \(report.outcomeText), "
                    + "\(report.agreed ? "agreed" : "DISAGREED"), \(counted(report.movesLost, "move")) lost"
                    + (report.problem.map { " — \($0)" } ?? ""))
            games.append(report)
            // A game that did not end well keeps the nodes' logs for a look (the path is told at the end).
            if !(report.finished || report.abandoned == true) || !report.agreed || report.movesLost > 0 {
                keepLogs = true
            }
        }
        if keepLogs { log("the nodes' logs are kept in \(workDir)") }
        return Report(
            network: options.onTestHosts ? "test-hosts" : "lo", peers: options.peers, game: options.game,
            bot: options.bot, seed: options.seed, grace: options.grace, sealed: options.sealed ? true : nil,
            games: games, played: games.count, finished: games.count(where: \.finished),
            agreed: games.count(where: \.agreed), resumed: games.count(where: \.resumed),
            takenOver: games.count(where: \.takenOver), abandoned: games.count(where: { $0.abandoned == true }),
            movesLost: games.reduce(0) { $0 + $1.movesLost })
    }

    // MARK: Processes

    func start(_ i: Int) throws {
        let node = NodeProcess(
            daemonPath: options.daemonPath,
            arguments: [
                "--name", names[i], "--state-dir", "\(workDir)/state/\(names[i])", "--control", socket(i),
                // TAVOLO_SIM_LOG_LEVEL (e.g. `debug`) for a look at a failing seed; the logs are kept then.
                "--log-level", ProcessInfo.processInfo.environment["TAVOLO_SIM_LOG_LEVEL"] ?? "warning",
                "--heartbeat-interval", "0.3", "--heartbeat-timeout", "1.5",
            ], logPath: "\(workDir)/\(names[i]).log", testHost: options.onTestHosts ? holders[i] : nil)
        let p: Process
        do { p = try node.start() } catch { throw Failure(description: "\(error)") }
        lock.withLock { processes[i] = p }
    }

    func signal(_ i: Int, _ sig: Int32) {
        guard let p = lock.withLock({ processes[i] }), p.isRunning else { return }
        kill(p.processIdentifier, sig)
        if sig == SIGSTOP { stoppedNodes.insert(i) } else { stoppedNodes.remove(i) }
        if sig == SIGKILL {
            p.waitUntilExit()
            lock.withLock { processes[i] = nil }
        }
    }

    /// Pulls node `i`'s test host cable out, or plugs it back.
    func setCable(_ i: Int, plugged: Bool) throws {
        do { try LanTestbed.setCable(host: i + 1, plugged: plugged) } catch { throw Failure(description: "\(error)") }
        lock.withLock { if plugged { cutNodes.remove(i) } else { cutNodes.insert(i) } }
    }

    /// Every node running and continued, every cable in, and a full mesh again.
    private func healAll() throws {
        for i in lock.withLock({ cutNodes.sorted() }) { try setCable(i, plugged: true) }
        for i in 0..<options.peers {
            if stoppedNodes.contains(i) { signal(i, SIGCONT) }
            if lock.withLock({ processes[i] == nil }) { try start(i) }
        }
        // A node continued or restarted may still be catching up on the last game (one voted out follows it to its
        // end as a spectator, §9.12): the next game starts once every node's tables are over, not among
        // connections that come and go while a long catch-up is written (a debug build under load, mostly).
        try? waitUntil("every node's tables over", timeout: 90) {
            (0..<options.peers).allSatisfy { i in
                (try? client(i).call(.tables))?.allSatisfy { $0.phase.isOver } == true
            }
        }
        try waitUntil("a full mesh of \(options.peers)", timeout: 60) {
            (0..<options.peers).allSatisfy { i in
                guard let peers = try? client(i).call(.peers) else { return false }
                return peers.filter { $0.state == .connected && names.contains($0.name) }.count == options.peers - 1
            }
        }
    }

    public func stopAll(keepingLogs: Bool = false) {
        for i in lock.withLock({ cutNodes.sorted() }) { try? LanTestbed.setCable(host: i + 1, plugged: true) }
        for i in 0..<options.peers {
            if let p = lock.withLock({ processes[i] }), p.isRunning {
                kill(p.processIdentifier, SIGCONT)
                kill(p.processIdentifier, SIGKILL)
                p.waitUntilExit()
            }
        }
        lock.withLock { processes = Array(repeating: nil, count: options.peers) }
        if !keepingLogs { try? FileManager.default.removeItem(atPath: workDir) }
    }

    func waitUntil(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? condition()) == true { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw Failure(description: "timed out waiting for \(what)")
    }
}
