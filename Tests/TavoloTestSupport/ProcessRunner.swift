import Foundation

/// What a finished command printed, each stream apart.
public struct ProcessOutput: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Both streams, standard output first (for failure messages).
    public var combined: String { stdout + stderr }
}

public struct ProcessRunError: Error, CustomStringConvertible {
    public let description: String
}

/// Runs a program to its end and returns its status and both streams.
///
/// The one way tests run a command. Standard error is read on another thread while standard output is read here:
/// a child that fills one pipe while we wait on the other would otherwise block forever (a pipe holds 64 KiB).
/// Standard input is `input` then end of file (never the test's own stdin, which a child could wait on).
public func runProcess(
    _ path: String, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil
) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let stdin = input.map { _ in Pipe() }
    process.standardInput = stdin ?? FileHandle.nullDevice
    do { try process.run() } catch {
        throw ProcessRunError(description: "cannot run \(path): \(error.localizedDescription)")
    }
    if let stdin, let input {
        stdin.fileHandleForWriting.write(input)
        try? stdin.fileHandleForWriting.close()
    }
    let errorText = StreamCollector()
    let reader = Thread { errorText.finish(err.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let errData = errorText.wait()
    return ProcessOutput(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// The standard error bytes, handed from the reader thread to the caller.
private final class StreamCollector: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()
    func finish(_ bytes: Data) {
        data = bytes
        done.signal()
    }
    func wait() -> Data {
        done.wait()
        return data
    }
}
