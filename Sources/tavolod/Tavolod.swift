import ArgumentParser

@main
struct Tavolod: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tavolod", abstract: "The Tavolo node daemon.")
    func run() async throws {
        throw ValidationError("the daemon is not built yet")
    }
}
