import ArgumentParser
import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol
import TavoloTerminal

struct Peers: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List a node's peers: name, id, address, state, round-trip time.")

    @OptionGroup var nodeOptions: NodeOptions

    @Flag(help: "Print a JSON array of {name, id, address, state, rttMs?, reason?, trust?} (absent when unknown).")
    var json = false

    @Flag(help: "Refresh every second until interrupted.")
    var watch = false

    @Flag(help: "Also list lost peers (hidden by default: on a busy network they pile up).")
    var all = false

    @Option(
        help: ArgumentHelp(
            "Trust the new identity of the peer called NAME, shown as `identity changed` (check it with its owner first).",
            valueName: "NAME"))
    var accept: String?

    func run() throws {
        let client = try nodeOptions.connect()
        if let accept {
            do { _ = try client.call(.acceptPeer(name: accept)) } catch {
                throw CleanExit.failure("\(error)")
            }
            if json {
                print(String(decoding: try CanonicalJSON.encode(["accepted": accept]), as: UTF8.self))
            } else {
                print("accepted the new identity of \(accept)")
            }
            return
        }
        repeat {
            let peers: [PeerSummary]
            do { peers = try client.call(.peers) } catch {
                throw CleanExit.failure("\(error)")
            }
            if watch && !json { print("\u{1B}[H\u{1B}[2J", terminator: "") }
            if json {
                print(try encodeJSON(all ? peers : peers.filter { $0.state != .lost }))
            } else {
                let shown = all ? peers : peers.filter { $0.state != .lost }
                printTable(shown)
                if shown.count < peers.count {
                    print("(\(peers.count - shown.count) lost peers not shown: --all lists them)")
                }
            }
            if watch { Thread.sleep(forTimeInterval: 1) }
        } while watch
    }

    /// How a trust verdict reads in the STATE column.
    static func shown(_ t: PeerSummary.Trust) -> String {
        switch t {
        case .identityChanged: "identity changed"
        }
    }

    func encodeJSON(_ peers: [PeerSummary]) throws -> String {
        // The same objects as the control socket's `peers`: `rttMs` and `reason` are absent when unknown.
        String(decoding: try CanonicalJSON.encode(peers), as: UTF8.self)
    }

    func printTable(_ peers: [PeerSummary]) {
        if peers.isEmpty {
            print("no peers yet")
            return
        }
        let rows = peers.map { p -> [String] in
            let rtt = p.rttMs.map { format($0, 2) + " ms" } ?? "-"
            let state = p.trust.map(Self.shown) ?? (p.state == .otherCircle ? "other circle" : p.state.rawValue)
            var notes = ""
            if p.state != .connected, let r = p.reason { notes += "(\(Terminal.printable(r)))" }
            if p.trust == .identityChanged { notes += "  (tavolo peers --accept \(Terminal.printable(p.name)))" }
            return [Terminal.printable(p.name), p.id.short, p.address, state, rtt, notes]
        }
        let lines = TextTable.lines(header: ["NAME", "ID", "ADDRESS", "STATE", "RTT", ""], rows: rows)
        for line in lines { print(line.trimmingSuffixSpaces) }
    }
}

extension String {
    /// Without the spaces at its end (a row whose last cells are empty).
    var trimmingSuffixSpaces: String {
        var t = self
        while t.last == " " { t.removeLast() }
        return t
    }
}
