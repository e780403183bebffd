import ArgumentParser
import Dispatch
import Foundation
import Logging
import TavoloControl
import TavoloDaemon
import TavoloProtocol
import TavoloSealed

@main
enum TavolodMain {
    static func main() async {
        do {
            var command = try Tavolod.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // A usage error is one line and exit code 2, as for `tavolo`.
            if Tavolod.exitCode(for: error) == .validationFailure {
                let message =
                    Tavolod.message(for: error).split(separator: "\n").first.map(String.init) ?? "bad arguments"
                FileHandle.standardError.write(Data("tavolod: \(message) (see tavolod --help)\n".utf8))
                Foundation.exit(2)
            }
            Tavolod.exit(withError: error)
        }
    }
}

struct Tavolod: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tavolod",
        abstract: "The Tavolo node daemon: finds nearby nodes with DNS-SD and keeps a mesh with all of them.",
        discussion: """
            Runs until SIGINT or SIGTERM, then says goodbye to its peers and withdraws its service.
            Needs a running avahi-daemon. Local clients such as `tavolo peers` talk to it on a Unix-domain \
            control socket (JSON lines, see Protocol/PROTOCOL.md).

            Without --name or --port, the node's name and port come from ~/.config/tavolo/tavolod.conf \
            (${XDG_CONFIG_HOME}/tavolo/tavolod.conf): lines `name = alice` and `port = 7878`, `#` for comments; \
            without the file, the name is your login name and the port any free one. The systemd user unit \
            (systemctl --user enable --now tavolod) starts tavolod so, at login, and restarts it if it dies; \
            `tavolo` without --node talks to that node.
            """,
        version: TavoloVersion.line
    )

    @Option(
        help: """
            Node name, unique on this network (the DNS-SD instance name). Default: `name` in \
            ~/.config/tavolo/tavolod.conf, else your login name.
            """)
    var name: String?

    @Option(help: "TCP and UDP port (0 = any free port). Default: `port` in ~/.config/tavolo/tavolod.conf, else 0.")
    var port: Int?

    @Option(help: "State directory (node id, game logs). Default: ${XDG_STATE_HOME:-~/.local/state}/tavolo/NAME.")
    var stateDir: String?

    @Option(help: "Control socket path. Default: $XDG_RUNTIME_DIR/tavolo/NAME.sock, else /tmp/tavolo-UID/NAME.sock.")
    var control: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Option(help: "Seconds between heartbeats.")
    var heartbeatInterval: Double = 1

    @Option(help: "Seconds of silence after which a peer is lost.")
    var heartbeatTimeout: Double = 5

    @Option(help: ArgumentHelp("Record every frame sent and received to this pcapng file.", valueName: "file"))
    var packetLog: String?

    @Option(help: "Tests only: claim this wire protocol version (to test version mismatches).")
    var testProtocolVersion: UInt8?

    @Option(help: "Derive table nonces from this seed (with --nonce-index) so games can be replayed; for simulations.")
    var nonceSeed: UInt64?

    @Option(help: "This node's index for --nonce-seed.")
    var nonceIndex: UInt64 = 0

    @Flag(
        help: """
            Never fsync game logs (journal appends, headers, complete logs): a kill -9 still loses nothing (the \
            kernel keeps the files), a power cut may lose the game's log on this node (the other members keep it).
            """)
    var noLogFsync = false

    @Flag(help: "Tests only: accept the control op `inject`, which sends raw table messages as this node.")
    var testAllowInjection = false

    @Option(
        help: ArgumentHelp(
            "Tests only: tell this lie at sealed tables (repeatable): "
                + SealedCheat.allCases.map(\.rawValue).joined(separator: ", ") + ".",
            valueName: "lie"))
    var testSealedCheat: [String] = []

    @Option(help: "Tests only: drop this share (0 to 1) of received datagrams on purpose, as a lossy network would.")
    var testDropDatagrams: Double = 0
    @Flag(
        help:
            "Move the records database (records.sqlite in the state directory) aside and rebuild it from the game logs (games/*.json), e.g. after it was reported broken. Records received from peers come back at the next sync."
    )
    var rebuildRecords = false

    @Option(
        help: ArgumentHelp(
            "Port of the page this node serves its user, on 127.0.0.1 only (0 = any free port; `tavolo open` prints the URL). Default: the port it had at the last start, kept in the state directory, or a free one when that is taken.",
            valueName: "port"))
    var webPort: Int?

    @Flag(help: "Serve no page.")
    var noWeb = false

    @Option(
        help: ArgumentHelp(
            "Play only within the private circle NAME: only nodes that know its passphrase can connect. The passphrase comes from --circle-passphrase-file, else TAVOLO_CIRCLE_PASSPHRASE, else is asked on the terminal (never on the command line).",
            valueName: "NAME"))
    var circle: String?

    @Option(help: ArgumentHelp("File whose first line is the passphrase of --circle.", valueName: "PATH"))
    var circlePassphraseFile: String?

    @Option(
        help: ArgumentHelp(
            "Also register this node in the unicast DNS-SD domain NAME by DNS UPDATE, and browse it besides local: nodes on other subnets find it (PROTOCOL.md §6.1). Without it nothing is published beyond the link.",
            valueName: "NAME"))
    var domain: String?

    @Option(
        help: ArgumentHelp(
            "The DNS server that takes --domain's updates (IPv4). Default: the first nameserver of /etc/resolv.conf.",
            valueName: "ADDRESS"))
    var dnsServer: String?

    func validate() throws {
        if let name, let problem = NodeName.problem(name) { throw ValidationError("--name \(problem)") }
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be in 0...65535") }
        guard (0...65535).contains(webPort ?? 0) else { throw ValidationError("--web-port must be in 0...65535") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
        if let lie = testSealedCheat.first(where: { SealedCheat(rawValue: $0) == nil }) {
            let lies = SealedCheat.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--test-sealed-cheat \(lie) is not a lie it knows: \(lies)")
        }
        guard (0...1).contains(testDropDatagrams) else {
            throw ValidationError("--test-drop-datagrams must be in 0...1")
        }
        // A silent session sends a heartbeat one to two intervals after its last frame (PROTOCOL.md §4.7).
        guard heartbeatInterval > 0, heartbeatTimeout > 2 * heartbeatInterval else {
            throw ValidationError("need 0 < 2 x --heartbeat-interval < --heartbeat-timeout")
        }
        if let circle, circle.isEmpty || circle.utf8.count > 63 {
            throw ValidationError("--circle must be 1 to 63 bytes")
        }
        if circlePassphraseFile != nil && circle == nil {
            throw ValidationError("--circle-passphrase-file needs --circle NAME")
        }
        if let domain, domain.isEmpty || domain.utf8.count > 200 || domain.hasPrefix(".") || domain.contains("..") {
            throw ValidationError("--domain must be a domain name such as tavolo.example.org")
        }
        if dnsServer != nil && domain == nil { throw ValidationError("--dns-server needs --domain NAME") }
    }

    func run() async throws {
        // Without --name or --port (as the systemd user unit starts it): the user's configuration file.
        let config = try orExit { try NodeConfig.load() }
        let name = name ?? config.nodeName
        if let problem = NodeName.problem(name) {
            try exit(with: "the node name '\(name)' \(problem): set `name` in \(NodeConfig.defaultPath)")
        }
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "tavolod")
        logger[metadataKey: "node"] = .string(name)
        let options = try orExit { try nodeOptions(name: name, config: config) }

        // Watch for SIGINT/SIGTERM before starting, so a signal during start-up still ends in a clean goodbye.
        let signalled = Task { await waitForTerminationSignal() }
        let service: NodeService
        do { service = try await NodeService.start(options, logger: logger) } catch { try exit(with: "\(error)") }
        // Started: the code that ran only to start can leave memory (CodePageTrim). After a few seconds, so the
        // first handshakes and discovery are done too.
        let trim = Task {
            try? await Task.sleep(for: .seconds(3))
            guard !Task.isCancelled else { return }
            let bytes = CodePageTrim.run()
            logger.debug("code mappings trimmed: \(bytes >> 20) MB mapped, pages map again when used")
        }
        await signalled.value
        trim.cancel()
        logger.info("signal received; shutting down")
        await service.shutdown()
    }

    /// The node's options from the command line, then the configuration file, then the defaults.
    func nodeOptions(name: String, config: NodeConfig) throws -> NodeService.Options {
        let env = ProcessInfo.processInfo.environment
        let stateBase =
            env["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/state")
        var options = NodeService.Options(
            name: name,
            stateDirectory: stateDir ?? "\(stateBase)/tavolo/\(name)",
            controlPath: control ?? ControlSocket.defaultPath(node: name))
        options.port = port ?? config.port ?? 0
        options.heartbeatInterval = .milliseconds(Int(heartbeatInterval * 1000))
        options.heartbeatTimeout = .milliseconds(Int(heartbeatTimeout * 1000))
        if let v = testProtocolVersion { options.wireVersion = v }
        options.tableOptions.nonceSeed = nonceSeed
        options.tableOptions.nodeIndex = nonceIndex
        options.tableOptions.logFsync = !noLogFsync
        options.allowInjection = testAllowInjection
        options.tableOptions.sealedCheats = Set(testSealedCheat.compactMap(SealedCheat.init(rawValue:)))
        options.datagramDropShare = testDropDatagrams
        options.packetLog = packetLog
        options.rebuildRecords = rebuildRecords
        options.domain = domain
        options.dnsServer = dnsServer
        options.servesPage = !noWeb
        options.webPort = webPort
        if let circle {
            options.circle = (
                name: circle, passphrase: try CirclePassphrase.read(circle: circle, file: circlePassphraseFile)
            )
        }
        return options
    }

    /// The value, or its error as one line on stderr and exit status 1.
    func orExit<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { try exit(with: "\(error)") }
    }

    /// Says `line` on stderr as `tavolod: line` and ends with status 1.
    func exit(with line: String) throws -> Never {
        FileHandle.standardError.write(Data("tavolod: \(line)\n".utf8))
        throw ExitCode(1)
    }
}

/// Suspends until SIGINT or SIGTERM.
func waitForTerminationSignal() async {
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let queue = DispatchQueue(label: "signals")
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let once = OnceFlag()
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                if once.claim() { continuation.resume() }
            }
            source.resume()
            sources.append(source)
        }
        SignalSources.keep(sources)
    }
}

final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    func claim() -> Bool {
        lock.withLock {
            defer { done = true }
            return !done
        }
    }
}

/// Keeps the signal sources alive for the life of the process.
enum SignalSources {
    nonisolated(unsafe) static var all: [DispatchSourceSignal] = []
    static func keep(_ s: [DispatchSourceSignal]) { all.append(contentsOf: s) }
}
