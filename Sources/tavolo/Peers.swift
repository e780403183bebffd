import ArgumentParser
import Foundation
import TavoloDaemon
import TavoloMesh
import TavoloProtocol

struct Peers: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List a node's peers: name, id, address, state, round-trip time.")

    @OptionGroup var nodeOptions: NodeOptions

    @Flag(help: "Print a JSON array of {name, id, address, state, rttMs, reason}.")
    var json = false

    @Flag(help: "Refresh every second until interrupted.")
    var watch = false

    func run() throws {
        let client = try nodeOptions.connect()
        repeat {
            let peers: [PeerInfo]
            do { peers = try client.call("peers", as: [PeerInfo].self) } catch {
                throw CleanExit.failure("\(error)")
            }
            if watch && !json { print("\u{1B}[H\u{1B}[2J", terminator: "") }
            if json {
                print(try encodeJSON(peers))
            } else {
                printTable(peers)
            }
            if watch { Thread.sleep(forTimeInterval: 1) }
        } while watch
    }

    func encodeJSON(_ peers: [PeerInfo]) throws -> String {
        let objects: [[String: Any]] = peers.map { p in
            var o: [String: Any] = ["name": p.name, "id": p.id.hex, "address": p.address, "state": p.state.rawValue]
            o["rttMs"] = p.rttMs ?? NSNull()
            if let r = p.reason { o["reason"] = r }
            return o
        }
        return String(
            decoding: try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys]), as: UTF8.self)
    }

    func printTable(_ peers: [PeerInfo]) {
        if peers.isEmpty {
            print("no peers yet")
            return
        }
        print(pad("NAME", 16) + pad("ID", 10) + pad("ADDRESS", 22) + pad("STATE", 13) + "RTT")
        for p in peers {
            let rtt = p.rttMs.map { format($0, 2) + " ms" } ?? "-"
            var line = pad(p.name, 16) + pad(p.id.short, 10) + pad(p.address, 22) + pad(p.state.rawValue, 13) + rtt
            if p.state != .connected, let r = p.reason { line += "  (\(r))" }
            print(line)
        }
    }
}
