import Foundation

/// A Go Text Protocol engine in a child process (here GRhino's `gtp-rhino`): one command line out, one response
/// (`= text` or `? error`, ended by an empty line) back.
final class GTPEngine {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let process = Process()
    private let toEngine = Pipe()
    private let fromEngine = Pipe()
    private var buffer = Data()

    init(path: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = toEngine
        process.standardOutput = fromEngine
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning {
            try? toEngine.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
            process.waitUntilExit()
        }
    }

    /// Sends `command` and returns the text of a success response; throws on `?` or if the engine went away.
    @discardableResult
    func send(_ command: String) throws -> String {
        try toEngine.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
        let response = try readResponse()
        if response.hasPrefix("=") { return response.dropFirst().trimmingCharacters(in: .whitespacesAndNewlines) }
        throw Failure(description: "\(command): \(response)")
    }

    private func readResponse() throws -> String {
        let end = Data("\n\n".utf8)
        while true {
            if let range = buffer.range(of: end) {
                let text = String(decoding: buffer[buffer.startIndex..<range.lowerBound], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex..<range.upperBound)
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let chunk = fromEngine.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failure(description: "the engine closed its output") }
            buffer.append(chunk.filter { $0 != UInt8(ascii: "\r") })
        }
    }
}
