import ArgumentParser
import Foundation
import TavoloCore
import TavoloGames
import TavoloPacketLog
import TavoloTable

struct LogReplay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Rebuild every table in a packet log from its captured seed, deal and moves, and check every hash.",
        discussion: """
            For each table: the joint seed is rebuilt from the captured reveals (checked against the commitments), \
            every captured deal is checked against it, every move is re-applied, and every captured state hash \
            (each move's, each confirmation's, each result's) is compared with the replay. Exit 0 when every game \
            is confirmed, 1 at the first mismatch (named with its frame number) or when the file is damaged. A \
            table whose seeding is not in the capture (it starts mid-game) cannot be checked: it is said so, and \
            counts as nothing disagreeing.
            """)

    @Argument(help: "A pcapng file written by `tavolod --packet-log`.") var file: String
    @Flag(help: "Print a JSON array, one object per table.") var json = false

    func run() throws {
        let log = try loadPacketLog(file)
        let local = log.directory.local?.id
        var captured: [TableReplay.Captured] = []
        for f in log.frames {
            // The tables' messages alone: a chat line that reads like a table message is chat (§3.9).
            guard f.service == .tables, let body = f.applicationBody else { continue }
            let sender = f.direction == .sent ? local : log.peerID(of: f)
            captured.append(TableReplay.Captured(frame: f.number, sender: sender, body: body))
        }
        let outcomes = TableReplay(catalog: .standard).run(captured)
        if json {
            try printJSON(outcomes)
        } else if outcomes.isEmpty {
            print("no table messages in \(file)")
        } else {
            for o in outcomes {
                let head = "\(o.table) (\(o.game ?? "?"))" + (o.jointSeed.map { ", joint seed \($0)" } ?? "")
                if let p = o.problem {
                    print("\(head): MISMATCH after \(counted(o.movesReplayed, "move")) — \(p)")
                } else if let why = o.unverifiable {
                    print("\(head): not checked — \(why)")
                } else {
                    print(
                        "\(head): confirmed — \(counted(o.movesReplayed, "move")), \(counted(o.dealsChecked, "deal")) and \(counted(o.hashesChecked, "hash", plural: "hashes")) checked; final \(o.finalHash?.hex.prefix(16) ?? "")…"
                    )
                }
            }
        }
        try reportIssues(log, path: file)
        if outcomes.contains(where: { !$0.agrees }) { throw ExitCode(1) }
    }
}
