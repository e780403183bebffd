import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloRecordFormat
import TavoloTable

/// The N-node local simulation: real `tavolod` processes, real DNS-SD and sockets, one bot seat per node.
public final class Simulation: @unchecked Sendable {
    let options: Options
    let log: (String) -> Void
    private let lock = NSLock()
    private var processes: [Process] = []
    private var stopping = false
    private var died: String?
    private let workDir: String
    public private(set) var names: [String] = []

    public init(options: Options, log: @escaping (String) -> Void) {
        self.options = options
        self.log = log
        workDir = NSTemporaryDirectory() + "tavolo-sim-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    func socketPath(_ i: Int) -> String { "\(workDir)/run/\(names[i]).sock" }

    /// Runs the whole simulation; always stops every process it started.
    public func run() throws -> Report {
        defer { stopAll() }
        try FileManager.default.createDirectory(atPath: "\(workDir)/run", withIntermediateDirectories: true)
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        names = (0..<options.peers).map { "sim\($0 + 1)-\(suffix)" }
        if options.onTestHosts {
            holders = try (1...options.peers).map { try LanTestbed.holderPID(host: "tvh\($0)") }
        }
        log(
            "starting \(options.peers) tavolod nodes"
                + (options.onTestHosts ? " on test hosts tvh1…tvh\(options.peers)" : " on this host"))
        for i in 0..<options.peers { try startNode(i) }
        let lastStart = Date()
        let formation = try waitForMesh(since: lastStart)
        log("full mesh of \(options.peers) in \(Int(formation)) ms")
        let clients = try (0..<options.peers).map { try ControlClient(path: socketPath($0)) }
        var games: [GameReport] = []
        let before = Self.traffic(clients)
        let pids = lock.withLock { processes.map(\.processIdentifier) }
        let cpuBefore = pids.map(ProcessCPU.seconds)
        for g in 0..<options.games {
            let report = try playGame(index: g, clients: clients)
            let status = report.agree ? "all \(report.finalHashes.count) agree" : "DISAGREE"
            log(
                "game \(g + 1)/\(options.games): seed \(report.jointSeed.map(String.init) ?? "-"), \(counted(report.moves, "move")), "
                    + "\(Int(report.wallMs)) ms, \(status)" + (report.sealed.map { ", deck \($0)" } ?? "")
                    + (report.stopped.map { " — stopped: \($0)" } ?? ""))
            games.append(report)
        }
        // CPU up to the last game's end (the move path, as the baseline build counts it); bytes once the records
        // sync that the last game set off has gone quiet too (every byte a game costs, §11.3 included).
        let cpu = zip(cpuBefore, pids.map(ProcessCPU.seconds)).map { b, a in b.flatMap { b in a.map { $0 - b } } }
        let scoresAgree = Self.scoresAgree(clients)
        let after = Self.quietTraffic(clients)
        let sealedSent = zip(before.nodes, after.nodes).map { b, a in
            Double(a.bytes - b.bytes + 16 * (a.frames - b.frames))
        }
        var report = summary(games: games, nodes: try nodeReports(clients, cpu: cpu), formation: formation)
        report.scoresAgree = scoresAgree
        log("scores: every node's leaderboards \(report.scoresAgree == true ? "agree" : "DIFFER")")
        let moves = Double(report.totalMoves * options.peers)
        if moves > 0 {
            let bytes = Double(after.bytes - before.bytes)
            let frames = Double(after.frames - before.frames)
            report.bytesPerNodePerMove = bytes / moves
            report.framesPerNodePerMove = frames / moves
            report.sealedBytesPerNodePerMove = (bytes + 16 * frames) / moves
            let mean = sealedSent.reduce(0, +) / Double(max(sealedSent.count, 1))
            if let most = sealedSent.max(), mean > 0 { report.sealedBytesBusiestNodeToMean = most / mean }
            let used = cpu.compactMap { $0 }
            if used.count == options.peers, let busiest = used.max() {
                report.cpuMicrosecondsPerNodePerMove = used.reduce(0, +) * 1e6 / moves
                report.cpuMicrosecondsPerMoveBusiestNode = busiest * 1e6 / Double(report.totalMoves)
            }
        }
        return report
    }

    /// Each node's traffic and CPU, and the address the others see it at.
    private func nodeReports(_ clients: [ControlClient], cpu: [Double?]) throws -> [NodeReport] {
        var nodes: [NodeReport] = []
        let views = clients.map { (try? $0.call(.peers)) ?? [] }
        for (i, c) in clients.enumerated() {
            let s = try c.call(.status)
            let seen = views.enumerated().lazy.filter { $0.offset != i }.compactMap { view in
                view.element.first { $0.name == self.names[i] && $0.state == .connected }.map { Self.ip($0.address) }
            }.first
            nodes.append(
                NodeReport(
                    name: names[i], host: options.onTestHosts ? "tvh\(i + 1)" : nil, address: seen,
                    bytesSent: s.stats.bytesSent, framesSent: s.stats.framesSent,
                    datagramsDropped: s.stats.datagramsDropped, cpuSeconds: i < cpu.count ? cpu[i] : nil))
        }
        return nodes
    }

    /// The games' figures together: moves, rates, latencies and journal writes.
    private func summary(games: [GameReport], nodes: [NodeReport], formation: Double) -> Report {
        let totalMoves = games.reduce(0) { $0 + $1.moves }
        let totalMs = games.reduce(0.0) { $0 + $1.wallMs }
        let latencies = games.flatMap(\.latencyMs)
        return Report(
            peers: options.peers, game: options.game, bot: options.bot, seed: options.seed,
            network: options.onTestHosts ? "test-hosts" : "lo", meshFormationMs: formation,
            totalMoves: totalMoves, movesPerSecond: totalMs > 0 ? Double(totalMoves) / (totalMs / 1000) : 0,
            games: games,
            nodes: nodes, allAgree: games.allSatisfy(\.agree),
            allVerified: options.sealed ? games.allSatisfy { $0.sealed == "verified" } : nil,
            latencyP50Ms: Self.percentile(latencies, 0.5),
            latencyP99Ms: Self.percentile(latencies, 0.99),
            logWriteP50Ms: Self.percentile(games.flatMap(\.logWriteMs), 0.5),
            logWriteP99Ms: Self.percentile(games.flatMap(\.logWriteMs), 0.99))
    }

    /// Polls every node's `scores` until they are equal, for up to 20 s (records sync in the background).
    static func scoresAgree(_ clients: [ControlClient]) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let boards = clients.map { try? $0.call(.scores(game: nil)) }
            if boards.allSatisfy({ $0 != nil && $0 == boards[0] }) { return true }
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    /// "10.77.0.2:41234" -> "10.77.0.2".
    static func ip(_ address: String) -> String {
        guard let colon = address.lastIndex(of: ":") else { return address }
        return String(address[..<colon])
    }

    /// Holder processes of the test hosts (`onTestHosts`), one per node.
    private var holders: [pid_t] = []

    private func startNode(_ i: Int) throws {
        var args = [
            "--name", names[i], "--state-dir", "\(workDir)/state/\(names[i])", "--control", socketPath(i),
            "--log-level", "warning",
        ]
        if let seed = options.seed { args += ["--nonce-seed", String(seed), "--nonce-index", String(i)] }
        if options.dropDatagrams > 0 { args += ["--test-drop-datagrams", String(options.dropDatagrams)] }
        args += options.daemonArguments
        if let dir = options.packetLogDirectory { args += ["--packet-log", "\(dir)/\(names[i]).pcapng"] }
        let logPath = "\(workDir)/\(names[i]).log"
        let node = NodeProcess(
            daemonPath: options.daemonPath, arguments: args, logPath: logPath,
            testHost: options.onTestHosts ? holders[i] : nil)
        let name = names[i]
        let p = try node.start { [weak self] proc in
            guard let self else { return }
            self.lock.withLock {
                if !self.stopping && self.died == nil {
                    let tail =
                        (try? String(contentsOfFile: logPath, encoding: .utf8))?.split(separator: "\n").last.map(
                            String.init) ?? ""
                    self.died =
                        "node \(name) exited with status \(proc.terminationStatus)" + (tail.isEmpty ? "" : ": \(tail)")
                }
            }
        }
        lock.withLock { processes.append(p) }
    }

    private func checkAlive() throws {
        if let d = lock.withLock({ died }) { throw Failure(d) }
    }

    private func waitForMesh(since start: Date) throws -> Double {
        let deadline = Date().addingTimeInterval(options.meshTimeout)
        while Date() < deadline {
            try checkAlive()
            var complete = true
            for i in 0..<options.peers {
                guard let c = try? ControlClient(path: socketPath(i)),
                    let peers = try? c.call(.peers),
                    peers.filter({ $0.state == .connected && names.contains($0.name) }).count == options.peers - 1
                else {
                    complete = false
                    break
                }
            }
            if complete { return Date().timeIntervalSince(start) * 1000 }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw Failure("the \(options.peers) nodes did not form a full mesh within \(Int(options.meshTimeout)) s")
    }

    /// The id of the table being played, set once it is hosted (read by the event threads).
    final class TableIDBox: @unchecked Sendable {
        private let lock = NSLock()
        private var id: TableID?
        var value: TableID? {
            get { lock.withLock { id } }
            set { lock.withLock { id = newValue } }
        }
    }

    /// Events of every node for one table, gathered by a thread per node.
    /// The driver waits on `lock` (a condition the event threads signal) rather than polling: the game's wall time
    /// ends when the last node reports, not up to a polling interval later.
    final class EventCollector: @unchecked Sendable {
        let lock = NSCondition()
        var finished: [Int: TableResult] = [:]
        var stopped: [Int: TableEvent] = [:]
        var done = false
        var lastActivity = Date()
    }

    private func playGame(index: Int, clients: [ControlClient]) throws -> GameReport {
        let collector = EventCollector()
        let tableID = TableIDBox()
        let watchers = try watchGameEnds(of: tableID, into: collector)
        defer {
            collector.lock.withLock { collector.done = true }
            for w in watchers { w.close() }
        }
        let table = try hostAndSeat(clients)
        tableID.value = table.id
        let start = Date()
        _ = try clients[0].call(.start(table: table.id))
        try waitForTheEnd(of: index, collector, since: start)
        return report(table: table, clients: clients, collector, wallMs: Date().timeIntervalSince(start) * 1000)
    }

    /// One watcher per node, collecting the end (`finished` or `stopped`) of the table `tableID` names.
    private func watchGameEnds(of tableID: TableIDBox, into collector: EventCollector) throws -> [ControlClient] {
        var watchers: [ControlClient] = []
        for i in 0..<options.peers {
            let w = try ControlClient(path: socketPath(i), timeout: nil)
            try w.subscribe(kinds: [.finished, .stopped])
            watchers.append(w)
            Thread.detachNewThread {
                while true {
                    guard let e = try? w.nextEvent() else { return }
                    // Other tables (other nodes', other simulations') report events too: keep this game's only.
                    guard e.table == tableID.value else { continue }
                    collector.lock.withLock {
                        collector.lastActivity = Date()
                        if case .finished(let result) = e.detail { collector.finished[i] = result }
                        if e.kind == .stopped { collector.stopped[i] = e }
                        collector.lock.broadcast()
                    }
                    if collector.lock.withLock({ collector.done }) { return }
                }
            }
        }
        return watchers
    }

    /// The first node hosts a table; once every node sees it, each takes its seat with the simulation's bot.
    private func hostAndSeat(_ clients: [ControlClient]) throws -> TableInfo {
        let host = clients[0]
        let table: TableInfo
        do {
            table = try host.call(.host(game: options.game, players: options.peers, sealed: options.sealed))
        } catch { throw Failure("hosting failed: \(error)") }
        try waitUntilEveryNodeSees(table, clients)
        for (i, c) in clients.enumerated() {
            do {
                let bot = options.racePace.map { "\(options.bot)@\($0 * (1 + Double(i) / 4))" } ?? options.bot
                _ = try c.call(.join(table: table.id, game: nil, seat: i, bot: bot))
            } catch {
                throw Failure("\(names[i]) could not take seat \(i): \(error)")
            }
        }
        try waitUntil("every seat of \(table.id) taken") {
            try host.call(.tables).first { $0.id == table.id }?.freeSeats.isEmpty == true
        }
        return table
    }

    /// Every node must know the table before asking for its seat. A timeout names the nodes that do not, and what
    /// each knows of the host (its peer state), since that is where an offer would have been lost.
    private func waitUntilEveryNodeSees(_ table: TableInfo, _ clients: [ControlClient]) throws {
        func missing() -> [Int] {
            clients.indices.filter { i in
                (try? clients[i].call(.tables).contains { $0.id == table.id }) != true
            }
        }
        do {
            try waitUntil("every node sees table \(table.id)") { missing().isEmpty }
        } catch {
            let report = missing().map { i -> String in
                let peers = try? clients[i].call(.peers)
                let hostState = peers?.first { $0.name == names[0] }?.state.rawValue ?? "unknown"
                return "\(names[i]) (sees the host \(names[0]) as \(hostState))"
            }
            throw Failure(
                "timed out waiting until every node sees table \(table.id): not \(report.joined(separator: ", "))")
        }
    }

    /// Until every node reported the end, or one stopped and nothing happened for 2 s; fails past the deadline.
    private func waitForTheEnd(of index: Int, _ collector: EventCollector, since start: Date) throws {
        while true {
            try checkAlive()
            let ended = collector.lock.withLock {
                let over = { () -> Bool in
                    let idle = Date().timeIntervalSince(collector.lastActivity)
                    return collector.finished.count + collector.stopped.count == self.options.peers
                        || (!collector.stopped.isEmpty && idle > 2)
                }
                // Woken by every event; the timeout keeps the checks below (a node that died, the game's deadline)
                // and the idle rule for stopped tables going.
                if !over() { _ = collector.lock.wait(until: Date().addingTimeInterval(0.1)) }
                return over()
            }
            if ended { return }
            if Date().timeIntervalSince(start) > options.gameTimeout {
                throw Failure("game \(index + 1) did not end within \(Int(options.gameTimeout)) s")
            }
        }
    }

    /// What the nodes agreed on, and the timings each measured.
    private func report(table: TableInfo, clients: [ControlClient], _ collector: EventCollector, wallMs: Double)
        -> GameReport
    {
        let (finished, stopped) = collector.lock.withLock { (collector.finished, collector.stopped) }
        var hashes: [String: String] = [:]
        for (i, r) in finished { hashes[names[i]] = r.finalHash.hex }
        let first = finished.values.first
        let rankings = Set(finished.values.map { $0.ranking ?? [] })
        let agree =
            stopped.isEmpty && finished.count == options.peers && Set(hashes.values).count == 1 && rankings.count == 1
        let stopReason = stopped.values.first.map { "\($0.message ?? "") [\($0.kind.rawValue)]" }
        let verdict = options.sealed ? Self.verdict(of: finished, peers: options.peers) : nil
        var latencies: [Double] = []
        var live: [LiveStats] = []
        var logWrites: [Double] = []
        let finishTimes = (try? clients[0].call(.state(table: table.id)))?.finishTimes
        for c in clients {
            if let st = try? c.call(.state(table: table.id)) {
                latencies += st.confirmLatencyMs
                if let l = st.liveStats { live.append(l) }
                logWrites += st.logWriteMs
            }
        }
        return GameReport(
            table: table.id.rawValue, jointSeed: first?.jointSeed, moves: first?.moves ?? 0, wallMs: wallMs,
            finalHashes: hashes, agree: agree, stopped: stopReason, winners: first?.winners, scores: first?.scores,
            ranking: first?.ranking, live: live.isEmpty ? nil : live, finishTimes: finishTimes,
            latencyMs: latencies, logWriteMs: logWrites, sealed: verdict?.sealed, cheaters: verdict?.cheaters)
    }

    private func waitUntil(_ what: String, timeout: Double = 10, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            try checkAlive()
            if (try? condition()) == true { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
        throw Failure("timed out waiting until \(what)")
    }

    /// Stops every node (SIGTERM, then SIGKILL after 3 s) and removes the work directory. Safe to call twice.
    public func stopAll() {
        let procs = lock.withLock { () -> [Process] in
            stopping = true
            defer { processes = [] }
            return processes
        }
        for p in procs where p.isRunning { p.terminate() }
        let deadline = Date().addingTimeInterval(3)
        while procs.contains(where: \.isRunning) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        for p in procs where p.isRunning { kill(p.processIdentifier, SIGKILL) }
        for p in procs { p.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: workDir)
    }

}
