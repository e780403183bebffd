import Foundation
import XCTest

/// The one wait of the test targets: polls `condition` until it holds, and when `seconds` pass first, fails the test
/// at the caller's line with `what` (and `context()`, say the nodes' logs) and throws, so a wait can never be
/// ignored. A bound on waiting, never a measurement: no test asserts how long anything took. `failing: false` only
/// throws (for a caller that asserts the outcome itself).
public func eventually(
    _ what: @autoclosure () -> String, within seconds: Double = 10, failing: Bool = true,
    file: StaticString = #filePath, line: UInt = #line, context: () -> String = { "" },
    _ condition: () async throws -> Bool
) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        if (try? await condition()) == true { return }
        guard Date() < deadline else { break }
        try await Task.sleep(for: .milliseconds(20))
    }
    if failing {
        let more = context()
        XCTFail("timed out after \(seconds) s: \(what())\(more.isEmpty ? "" : "\n" + more)", file: file, line: line)
    }
    throw TimedOut(what: what())
}

/// `eventually` for synchronous tests (those driving processes and raw sockets from the test's own thread).
public func eventuallySync(
    _ what: @autoclosure () -> String, within seconds: Double = 10, every interval: Double = 0.02,
    failing: Bool = true, file: StaticString = #filePath, line: UInt = #line, context: () -> String = { "" },
    _ condition: () throws -> Bool
) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        if (try? condition()) == true { return }
        guard Date() < deadline else { break }
        Thread.sleep(forTimeInterval: interval)
    }
    if failing {
        let more = context()
        XCTFail("timed out after \(seconds) s: \(what())\(more.isEmpty ? "" : "\n" + more)", file: file, line: line)
    }
    throw TimedOut(what: what())
}

/// A wait that timed out (the test has already failed at the wait's line).
public struct TimedOut: Error, CustomStringConvertible {
    public let what: String
    public var description: String { "timed out: \(what)" }
}
