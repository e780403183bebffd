import ArgumentParser
import TavoloProtocol

struct Tavolo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tavolo",
        abstract: "Play card and board games with the machines nearby, with no server.",
        discussion: """
            Each machine runs the `tavolod` daemon; `tavolo` is the command you use. Games: \(gameHelp). \
            `tavolo playout` plays games between bots with no network; `tavolo doctor` checks why the machines do \
            not see each other. The commands that ask a node talk to yours (the one `systemctl --user enable --now \
            tavolod` starts) unless --node or --control names another.
            """,
        version: TavoloVersion.line,
        subcommands: [
            TableCommand.self, Play.self, Rules.self, Peers.self, Playout.self, Simulate.self, Log.self, Perft.self,
            // The page in a browser, and chat.
            Open.self, Chat.self,
            // Why this machine does not see the others.
            Doctor.self,
            // The table commands also answer at the top level (`tavolo host …` = `tavolo table host …`).
            Tables.self, Host.self, Join.self, Invite.self, Start.self, State.self, Move.self, Leave.self, Watch.self,
            // Records: history, leaderboards, a finished game replayed.
            History.self, Scores.self, ShowRecord.self,
        ]
    )
}

/// `tavolo table …`: the tables of the node, by topic.
struct TableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "table",
        abstract: "Tables: list, host, join, invite, start, state, move, leave, watch, play.",
        subcommands: [
            Tables.self, Host.self, Join.self, Invite.self, Start.self, State.self, Move.self, Leave.self, Watch.self,
            Play.self,
        ]
    )
}
