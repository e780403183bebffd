import ArgumentParser
import TavoloPacketLog

struct LogStats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count the frames and bytes of a packet log per type, kind, channel, peer and direction.")

    @Argument(help: "The pcapng (or pcap) file.")
    var file: String

    @Flag(help: "Print JSON: {frames, bytes, byType, byKind, byChannel, byPeer, byDirection, …}.")
    var json = false

    func run() throws {
        let log = try loadPacketLog(file)
        let stats = PacketLogStatistics(log)
        if json {
            print(PacketLogReport.statsJSON(stats))
        } else {
            for line in PacketLogReport.statsText(stats) { print(line) }
        }
        try reportIssues(log, path: file)
    }
}
