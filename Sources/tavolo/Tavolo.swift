import ArgumentParser

@main
struct Tavolo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tavolo",
        abstract: "Play card and board games with the machines nearby, with no server.",
        discussion: """
            Each machine runs the `tavolod` daemon; `tavolo` is the command you use. Games: spirits, \
            briscola, othello, fifteen. `tavolo playout` plays games between bots with no network.
            """,
        subcommands: [Playout.self, Peers.self, Perft.self, Log.self]
    )
}
