import ArgumentParser
import Foundation
import TavoloControl
import TavoloCore
import TavoloDoctor

/// `tavolo doctor`: the README's "When the machines do not see each other", checked by the machine.
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check why this machine does not see the others: node, Avahi, interfaces, peers, firewall.",
        discussion: """
            Checks, and says in words: that the node answers; that avahi-daemon runs; that this machine has a \
            network interface with an address and a link; that Avahi publishes this node on it (not only on lo); \
            which other nodes mDNS sees and which of them are connected; and, for each one seen but not connected, \
            whether its TCP port answers from here (a firewall when it does not). When mDNS sees nobody, it says \
            what usually causes that (routers, firewalls, guest Wi-Fi's client isolation).

            What Avahi publishes on which interface comes from avahi-browse (Debian's avahi-utils), run as a \
            command: tavolo links no Avahi. Without it, the node's own browse stands in.

            Exit status: 0 when no check failed (warnings allowed), 1 when one did, 2 for bad arguments.
            """)

    @OptionGroup var nodeOptions: NodeOptions

    @Flag(
        help:
            "Print {ok, checks: [{check, status, text, hint?}], facts} as JSON (status: ok, warning, failed, skipped).")
    var json = false

    @Option(help: "Seconds to wait for each peer's TCP port.")
    var probeTimeout: Double = 3

    func validate() throws {
        guard probeTimeout > 0, probeTimeout <= 60 else { throw ValidationError("--probe-timeout must be in (0, 60]") }
    }

    func run() throws {
        let report: DoctorReport
        switch nodeOptions.locate() {
        case .found(let path): report = DoctorReport(facts: .gather(socket: path, probeTimeout: probeTimeout))
        case .notFound(let why):
            // No node to ask: still check Avahi and the network, and say why there is no node.
            var facts = DoctorFacts.gather(socket: "-", probeTimeout: probeTimeout)
            facts.socket = ControlSocket.defaultPath(node: (try? NodeConfig.load())?.nodeName ?? NodeName.loginName)
            facts.nodeError = why
            report = DoctorReport(facts: facts)
        }
        if json {
            print(String(decoding: try CanonicalJSON.encode(report), as: UTF8.self))
        } else {
            print(Self.text(report))
        }
        if !report.ok { throw ExitCode(1) }
    }

    /// The report for a person: one line per check, the hint under it.
    static func text(_ report: DoctorReport) -> String {
        var lines: [String] = []
        for check in report.checks {
            let mark =
                switch check.status {
                case .ok: "ok     "
                case .warning: "warning"
                case .failed: "FAILED "
                case .skipped: "skipped"
                }
            lines.append("\(mark)  \(pad(check.check, 12))\(Terminal.printable(check.text))")
            if let hint = check.hint, !hint.isEmpty, check.status != .ok {
                lines.append("         \(pad("", 12))→ \(Terminal.printable(hint))")
            }
        }
        let failed = report.checks.filter { $0.status == .failed }.count
        lines.append(failed == 0 ? "no problem found" : "\(failed) problem\(failed == 1 ? "" : "s") found")
        return lines.joined(separator: "\n")
    }
}
