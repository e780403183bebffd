import ArgumentParser

struct Tavolo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tavolo",
        abstract: "Play card and board games with the machines nearby, with no server.",
        discussion: """
            Each machine runs the `tavolod` daemon; `tavolo` is the command you use. Games: spirits, \
            briscola, othello. `tavolo playout` plays games between bots with no network.
            """,
        subcommands: [
            Playout.self, Peers.self, Tables.self, Host.self, Join.self, Invite.self, Start.self, State.self, Move.self,
            Leave.self, Watch.self, Play.self, Rules.self, Simulate.self, Log.self, Perft.self,
        ]
    )
}
