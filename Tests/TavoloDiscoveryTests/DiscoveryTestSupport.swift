import Foundation
import TavoloDiscovery
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

struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
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

    /// Waits (polling every 20 ms) until an event matches, up to `timeout`.
    func waitFor<T: Sendable>(
        _ what: String, timeout: Duration = .seconds(10), _ match: @Sendable (DiscoveryEvent) -> T?
    ) async throws -> T {
        let deadline = ContinuousClock.now + timeout
        var seen = 0
        while ContinuousClock.now < deadline {
            while seen < events.count {
                if let value = match(events[seen]) { return value }
                seen += 1
            }
            if finished { throw finishedWith ?? TimedOut(what: what + " (stream ended)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TimedOut(what: what + "; events so far: \(events)")
    }

    func waitUntilFinished(timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !finished {
            guard ContinuousClock.now < deadline else { throw TimedOut(what: "the stream to finish") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

func found(_ name: String) -> @Sendable (DiscoveryEvent) -> ServiceRecord? {
    { event in
        if case .found(let record) = event, record.name == name { return record }
        return nil
    }
}
