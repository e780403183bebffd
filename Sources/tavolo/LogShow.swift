import ArgumentParser
import TavoloPacketLog

struct LogShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the decoded timeline of a packet log: time, direction, peer, channel, type, fields.")

    @Argument(help: "The pcapng (or pcap) file.")
    var file: String

    @Option(help: "Only frames to or from this peer (name, id prefix or address).")
    var peer: String?

    @Option(help: "Only this message type (handshake, heartbeat, …) or application `type`/`kind`.")
    var type: String?

    @Option(help: "Only this channel: reliable or unreliable.")
    var channel: String?

    @Option(help: "Only the messages about this table (its id, or the start of it), moves in compact frames included.")
    var table: String?

    @Flag(help: "Show heartbeats too (hidden by default: they are most of an idle capture).")
    var heartbeats = false

    @Flag(help: "Print JSON: {node, frames: [...], issues: [...]}.")
    var json = false

    func validate() throws {
        if let channel, channel != "reliable" && channel != "unreliable" {
            throw ValidationError("--channel must be reliable or unreliable")
        }
    }

    func run() throws {
        let log = try loadPacketLog(file)
        let frames = log.frames(
            matching: PacketLogFilter(peer: peer, type: type, channel: channel, table: table, heartbeats: heartbeats))
        if json {
            print(PacketLogReport.showJSON(log, frames: frames))
        } else {
            for line in PacketLogReport.showText(log, frames: frames) { print(line) }
        }
        try reportIssues(log, path: file)
    }
}
