import ArgumentParser
import Foundation
import TavoloCore
import TavoloGames
import TavoloSimulation

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start N real tavolod nodes on this host, play games between their bots, check every node agrees.",
        discussion: """
            Each node is a separate tavolod process with its own state directory, found through the real \
            avahi-daemon and connected over real sockets. Node 1 hosts one table per game; every node plays one \
            seat with a bot. Exits 0 only if every node ends every game in the same state. With --seed, every \
            node's nonce derives from the seed and its index, so the same command replays the same games. \
            Every node started is stopped at the end, on Ctrl-C, and when one dies. With --hosts, node K runs in \
            test host tvhK, a network namespace with its own address and its own avahi-daemon (make them first, \
            as root, with `scripts/lan up N`), so the nodes find and reach each other as separate machines do; \
            the report says which address each node was reached at. With --sealed, every table deals from a \
            sealed deck (PROTOCOL.md §14; card games with hidden hands only): no node can read a hand it may not \
            see, and each game ends with an audit of every shuffle and card; the report gives each game's verdict \
            (verified or cheated, with the names) and the run fails unless every node verified every game.
            """)

    @Option(help: "Number of nodes (and seats).") var peers: Int = 6
    @Option(help: "The game: \(gameHelp).") var game: String = "spirits"
    @Option(help: "Number of games, one after another.") var games: Int = 1
    @Option(help: "Seed for reproducible nonces.") var seed: UInt64?
    @Option(help: "Bot kind for every seat (default: the game's strongest).") var bot: String?
    @Option(help: "Simultaneous games (fifteen): the slowest bot's moves per second; seat i plays at pace × (1 + i/4).")
    var pace: Double = 8
    @Option(help: "Tests: every node drops this share (0 to 1) of the datagrams it receives, on purpose.")
    var dropDatagrams: Double = 0
    @Option(help: "Directory for one pcapng packet log per node.") var packetLogs: String?
    @Flag(help: "Run node K in test host tvhK (scripts/lan up N) instead of all on this host.") var hosts = false
    @Flag(help: "Print one JSON object.") var json = false
    @Flag(
        help: """
            Chaos: at seeded moments during each game, kill -9 and restart a member, SIGSTOP one within or past \
            the grace period, or kill the host (with --hosts also pull a test host's cable and plug it back within \
            or past the grace); report games finished, agreed, resumed, taken over and moves lost.
            """)
    var chaos = false
    @Option(help: "With --chaos: the tables' grace period in seconds.") var grace: Int = 6
    @Flag(help: "Start the nodes with --no-log-fsync (game journals and logs never flushed to disk).")
    var noLogFsync = false
    @Flag(
        help: """
            Host every table with a sealed deck (\(sealableGames)): the members shuffle and open the cards between \
            them, and the run fails unless every node's audit verifies every game (with --chaos too: restarts, heirs).
            """)
    var sealed = false
    @Flag(
        help: """
            With --chaos: every game's fault is a power cut instead, every node killed with kill -9 at once and \
            started again a second later (within the grace): each must go on from its own journal.
            """)
    var powerCut = false

    func validate() throws {
        guard let entry = GameCatalog.standard[game] else {
            throw ValidationError(
                "unknown game '\(game)'; games: \(GameCatalog.standard.names.joined(separator: ", "))")
        }
        guard entry.playerCounts.contains(peers) else {
            throw ValidationError(
                "\(game) is played by \(entry.playerCounts.map(String.init).joined(separator: ", ")) players: use --peers accordingly"
            )
        }
        guard games >= 1 else { throw ValidationError("--games must be at least 1") }
        guard (0...1).contains(dropDatagrams) else { throw ValidationError("--drop-datagrams must be in 0...1") }
        guard pace > 0, pace <= 200 else { throw ValidationError("--pace must be between 0 and 200 moves per second") }
        if powerCut && !chaos { throw ValidationError("--power-cut is a fault of --chaos: add --chaos") }
        if chaos && packetLogs != nil { throw ValidationError("--chaos runs without packet logs") }
        if chaos && peers < 2 { throw ValidationError("--chaos needs at least 2 peers (a fault needs another node)") }
        if chaos && !(2...600).contains(grace) { throw ValidationError("--grace is 2-600 seconds") }
        if let bot, !entry.bots.contains(where: { $0.kind == bot }) {
            throw ValidationError(
                "unknown bot '\(bot)'; \(game) bots: \(entry.bots.map(\.kind).joined(separator: ", "))")
        }
    }

    func run() throws {
        guard let entry = GameCatalog.standard[game] else { throw ExitCode(2) }
        // One line, not ArgumentParser's usage block: these are refusals of a combination, not typos.
        if sealed && !entry.isSealable {
            throw CleanExit.failure("\(game) has no hidden cards to seal; sealed games: \(sealableGames)")
        }
        let daemon = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
            .appendingPathComponent("tavolod").path
        guard FileManager.default.isExecutableFile(atPath: daemon) else {
            throw CleanExit.failure("cannot find tavolod next to tavolo (\(daemon)); build with `swift build`")
        }
        if let dir = packetLogs {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw CleanExit.failure("cannot create \(dir): \(error.localizedDescription)")
            }
        }
        if chaos {
            return try runChaos(daemon: daemon, bot: bot ?? entry.defaultBot)
        }
        var options = Simulation.Options(peers: peers, game: game, bot: bot ?? entry.defaultBot, daemonPath: daemon)
        options.games = games
        options.seed = seed
        if entry.isSimultaneous { options.racePace = pace }
        options.dropDatagrams = dropDatagrams
        options.sealed = sealed
        if noLogFsync { options.daemonArguments.append("--no-log-fsync") }
        options.onTestHosts = hosts
        options.packetLogDirectory = packetLogs.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let quiet = json
        let simulation = Simulation(options: options) { line in
            if !quiet { FileHandleStderr.write(line) }
        }
        SimulationSignals.install { simulation.stopAll() }
        let report: Simulation.Report
        do { report = try simulation.run() } catch {
            throw CleanExit.failure("simulation failed: \(error)")
        }
        if json {
            try printJSON(report)
        } else {
            printReport(report)
        }
        if !report.allAgree || report.allVerified == false { throw ExitCode(1) }
    }

    /// Traffic and CPU per node per move, when the run measured them.
    func perNodeLines(_ r: Simulation.Report) -> [String] {
        var lines: [String] = []
        if let b = r.bytesPerNodePerMove, let sealed = r.sealedBytesPerNodePerMove, let f = r.framesPerNodePerMove {
            lines.append(
                "sent per node per move, the records sync after the games included: "
                    + "\(format(b, 0)) bytes in \(format(f, 2)) frames "
                    + "(\(format(sealed, 0)) bytes sealed"
                    + (r.sealedBytesBusiestNodeToMean.map { "; the busiest node \(format($0, 2))× the mean" } ?? "")
                    + ")")
        }
        if let cpu = r.cpuMicrosecondsPerNodePerMove, let busiest = r.cpuMicrosecondsPerMoveBusiestNode {
            lines.append(
                "CPU per node per move while playing: \(format(cpu, 0)) µs (user + system; the busiest node "
                    + "\(format(busiest, 0)) µs)")
        }
        return lines
    }

    func printReport(_ r: Simulation.Report) {
        print(
            "\(r.peers) nodes \(r.network == "lo" ? "on this host" : "on test hosts"), \(r.game), \(r.bot) bots"
                + (r.seed.map { ", seed \($0)" } ?? ""))
        for (i, g) in r.games.enumerated() {
            print(
                "game \(i + 1): table \(g.table), joint seed \(g.jointSeed.map(String.init) ?? "-"), \(counted(g.moves, "move")), "
                    + "\(format(g.wallMs, 0)) ms, \(g.agree ? "agree" : "DISAGREE")"
                    + (g.sealed.map { ", deck \($0 == "verified" ? $0 : $0.uppercased())" } ?? "")
                    + (g.cheaters.map { " (cheaters: \($0.joined(separator: ", ")))" } ?? "")
                    + (g.stopped.map { " (stopped: \($0))" } ?? ""))
            if let ranking = g.ranking {
                let moves = g.scores ?? []
                let places = ranking.enumerated().map { place, seat in
                    let time = g.finishTimes?.first { $0.seat == seat }.map { ", \(format($0.ms / 1000, 2)) s" } ?? ""
                    let made = counted(moves.indices.contains(seat) ? moves[seat] : 0, "move")
                    return "\(place + 1). seat \(seat) (\(made)\(time))"
                }
                print("  agreed ranking (times as node 1 saw them, not ranked): " + places.joined(separator: ", "))
            }
            if let live = g.live, !live.isEmpty {
                let perNode = live.map { $0.racingMs > 0 ? Double($0.sent) / ($0.racingMs / 1000) : 0 }
                let heard = live.reduce(0) { $0 + $1.accepted + $1.stale }
                let stale = live.reduce(0) { $0 + $1.stale }
                print(
                    "  live progress: \(format(perNode.reduce(0, +) / Double(perNode.count), 1)) datagrams/s sent per node "
                        + "while racing; \(heard) heard, \(stale) (\(format(heard > 0 ? 100 * Double(stale) / Double(heard) : 0, 1))%) dropped as stale"
                )
            }
            for (name, h) in g.finalHashes.sorted(by: { $0.key < $1.key }) { print("  \(pad(name, 18)) \(h)") }
        }
        print(
            "mesh formed in \(format(r.meshFormationMs, 0)) ms; \(counted(r.totalMoves, "move")), \(format(r.movesPerSecond, 0)) moves/s"
        )
        if let p50 = r.latencyP50Ms, let p99 = r.latencyP99Ms {
            print("move latency (send to the host's confirmation): p50 \(format(p50, 2)) ms, p99 \(format(p99, 2)) ms")
        }
        for line in perNodeLines(r) { print(line) }
        for n in r.nodes {
            let dropped =
                (n.datagramsDropped ?? 0) > 0 ? ", \(n.datagramsDropped ?? 0) datagrams dropped on purpose" : ""
            let place = [n.host, n.address.map { "at \($0)" }].compactMap { $0 }.joined(separator: " ")
            print(
                "  \(pad(n.name, 18)) \(place.isEmpty ? "" : pad(place, 20) + " ")sent \(n.bytesSent) bytes in \(n.framesSent) frames\(dropped)"
            )
        }
        print(r.allAgree ? "every node agreed on every game" : "NODES DISAGREED")
        if let verified = r.allVerified {
            print(verified ? "every node's audit verified every sealed game" : "A SEALED GAME DID NOT VERIFY")
        }
    }
}

/// The games a table can be sealed for (`tavolo simulate --sealed`), for its help and its refusal.
let sealableGames = GameCatalog.standard.entries.filter(\.isSealable).map(\.name).joined(separator: ", ")

/// On Ctrl-C or SIGTERM: stop the nodes (`tavolo simulate`, plain or `--chaos`), then exit 130.
enum SimulationSignals {
    nonisolated(unsafe) static var stopNodes: (@Sendable () -> Void)?
    nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []

    static func install(stopNodes stop: @escaping @Sendable () -> Void) {
        stopNodes = stop
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                FileHandleStderr.write("tavolo: interrupted; stopping the nodes")
                stopNodes?()
                exit(130)
            }
            source.resume()
            sources.append(source)
        }
    }
}
