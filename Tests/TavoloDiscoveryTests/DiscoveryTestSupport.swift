import Foundation
import TavoloDiscovery
import TavoloTestSupport
import XCTest

/// Skips (or, under CI=true, fails) when avahi-daemon is not reachable.
func requireAvahi() throws {
    do {
        try checkDaemon()
    } catch {
        let message = "\(error)."
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail("CI=true: integration tests need the daemon. " + message)
            throw error
        }
        throw XCTSkip("Skipping integration test: " + message + " Under CI=true this is a failure.")
    }
}

/// A service type no other test run uses, so parallel runs on one daemon do not see each other.
func uniqueServiceType() -> String {
    "_tvt\(String(UInt32.random(in: 0...UInt32.max), radix: 16))._tcp"
}

func uniqueSuffix() -> String {
    String(UInt32.random(in: 0...UInt32.max), radix: 36)
}

/// A browse stream that ended before the event a test waited for.
struct StreamEnded: Error, CustomStringConvertible {
    let before: String
    var description: String { "the stream ended before \(before)" }
}

/// Consumes a browse stream in the background and records every event, so tests can wait for one with a timeout.
actor EventLog {
    private(set) var events: [DiscoveryEvent] = []
    private(set) var finishedWith: Error?
    private(set) var finished = false
    private var task: Task<Void, Never>?

    func start(_ stream: AsyncThrowingStream<DiscoveryEvent, Error>) {
        task = Task { [weak self] in
            do {
                for try await event in stream { await self?.append(event) }
                await self?.finish(nil)
            } catch {
                await self?.finish(error)
            }
        }
    }

    func stop() {
        task?.cancel()
    }

    private func append(_ event: DiscoveryEvent) { events.append(event) }
    private func finish(_ error: Error?) {
        finished = true
        finishedWith = error
    }

    private func snapshot() -> (events: [DiscoveryEvent], finished: Bool, error: Error?) {
        (events, finished, finishedWith)
    }

    /// Waits until an event matches (the one `eventually`, up to `seconds`); throws the stream's error when it ends
    /// first.
    nonisolated func waitFor<T: Sendable>(
        _ what: String, within seconds: Double = 10, _ match: @Sendable (DiscoveryEvent) -> T?
    ) async throws -> T {
        var seen: (events: [DiscoveryEvent], finished: Bool, error: Error?) = ([], false, nil)
        var value: T?
        try await eventually(what, within: seconds, context: { "events so far: \(seen.events)" }) {
            seen = await snapshot()
            value = seen.events.lazy.compactMap(match).first
            return value != nil || seen.finished
        }
        if let value { return value }
        throw seen.error ?? StreamEnded(before: what)
    }

    nonisolated func waitUntilFinished() async throws {
        try await eventually("the stream to finish") { await snapshot().finished }
    }
}

func found(_ name: String) -> @Sendable (DiscoveryEvent) -> ServiceRecord? {
    { event in
        if case .found(let record) = event, record.name == name { return record }
        return nil
    }
}
