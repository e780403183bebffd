import ArgumentParser
import Foundation

/// Runs `tavolo`; a usage error is one line on stderr and exit code 2 (the parser's default is 64 and its
/// usage block).
@main
enum TavoloMain {
    static func main() async {
        do {
            var command = try Tavolo.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            Tavolo.exitWithUsageErrorsAs2(error)
        }
    }
}

extension ParsableCommand {
    /// Exits for `error`: help and clean exits as the parser would; a usage error as one line and code 2.
    static func exitWithUsageErrorsAs2(_ error: Error) -> Never {
        let code = exitCode(for: error)
        if code == .validationFailure {
            let message = self.message(for: error).split(separator: "\n").first.map(String.init) ?? "bad arguments"
            let name = configuration.commandName ?? "tavolo"
            // The parser's full message names the subcommand's help ("See 'tavolo playout --help' …").
            let full = fullMessage(for: error)
            var help = "\(name) --help"
            if let start = full.range(of: "See '"), let end = full[start.upperBound...].firstIndex(of: "'") {
                help = String(full[start.upperBound..<end])
            }
            FileHandle.standardError.write(Data("\(name): \(message) (see \(help))\n".utf8))
            Foundation.exit(2)
        }
        exit(withError: error)
    }
}
