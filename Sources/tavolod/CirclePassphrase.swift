import ArgumentParser
import Foundation

/// Where the passphrase of `--circle` comes from, never the command line (where `ps` shows it): a file, the
/// environment variable TAVOLO_CIRCLE_PASSPHRASE, or the terminal.
enum CirclePassphrase {
    static let environmentVariable = "TAVOLO_CIRCLE_PASSPHRASE"

    static func read(circle: String, file: String?) throws -> String {
        let passphrase: String
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ValidationError("cannot read the circle passphrase file \(file)")
            }
            // One line: a trailing newline (as `echo` writes) is not part of the passphrase.
            passphrase =
                String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .first.map(String.init) ?? ""
        } else if let value = ProcessInfo.processInfo.environment[environmentVariable] {
            passphrase = value
        } else if isatty(STDIN_FILENO) == 1 {
            passphrase = try prompt("Passphrase of circle \(circle): ")
        } else {
            throw ValidationError(
                "--circle needs a passphrase: --circle-passphrase-file PATH, \(environmentVariable), or a terminal to ask on"
            )
        }
        guard !passphrase.isEmpty else { throw ValidationError("the passphrase of circle \(circle) is empty") }
        return passphrase
    }

    /// Reads a line from the terminal with echo off.
    private static func prompt(_ text: String) throws -> String {
        FileHandle.standardError.write(Data(text.utf8))
        var saved = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if hasTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if hasTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = Swift.readLine(strippingNewline: true) else {
            throw ValidationError("no passphrase given for the circle")
        }
        return line
    }
}
