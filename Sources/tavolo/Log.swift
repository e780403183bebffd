import ArgumentParser
import TavoloPacketLog

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Inspect packet logs (pcapng files written by `tavolod --packet-log`).",
        discussion: """
            `show` prints the decoded timeline, `stats` counts frames and bytes. Both also read live captures \
            (`tshark -i lo -w FILE`). A damaged file is decoded as far as possible; where it breaks is \
            reported and the exit code is 1. `replay` re-runs every table in the file and checks every state hash.
            """,
        subcommands: [LogShow.self, LogStats.self, LogReplay.self]
    )
}

/// Reads a capture or fails with one line (exit 1).
func loadPacketLog(_ path: String) throws -> PacketLog {
    do { return try PacketLog.read(path: path) } catch {
        throw CleanExit.failure("\(path): \(error)")
    }
}

/// Prints the issues of a damaged file on stderr and fails (exit 1); does nothing for a whole file.
func reportIssues(_ log: PacketLog, path: String) throws {
    guard !log.isComplete else { return }
    for issue in log.issues { FileHandleStderr.write("tavolo: \(path): \(issue)") }
    throw CleanExit.failure(
        "\(path): \(log.issues.count) problem\(log.issues.count == 1 ? "" : "s") found; showing what could be decoded (\(log.frames.count) frames)"
    )
}
