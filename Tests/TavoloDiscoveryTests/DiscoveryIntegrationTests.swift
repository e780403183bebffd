import Foundation
import TavoloTestSupport
import XCTest

@testable import TavoloDiscovery

/// Against the real avahi-daemon (scripts/setup starts it on lo).
final class DiscoveryIntegrationTests: XCTestCase {
    func testTwoServicesAreFoundUpdatedAndRemoved() async throws {
        try requireAvahi()
        let type = uniqueServiceType()
        let suffix = uniqueSuffix()
        let alphaName = "alpha-\(suffix)"
        let betaName = "beta \(suffix)"  // a space, to check names are not escaped on the way

        let alpha = try ServiceAdvertiser(name: alphaName, type: type, port: 40001, txt: ["id": "a1", "v": "1"])
        let beta = try ServiceAdvertiser(
            name: betaName, type: type, port: 40002, txt: ["id": "b2", "v": "1", "u": "40012", "flag": ""])
        defer {
            alpha.cancel()
            beta.cancel()
        }
        let registeredAlpha = try await alpha.start()
        let registeredBeta = try await beta.start()
        XCTAssertEqual(registeredAlpha, alphaName)
        XCTAssertEqual(registeredBeta, betaName)

        let log = EventLog()
        await log.start(browse(type: type))
        defer { Task { await log.stop() } }

        let a = try await log.waitFor("alpha found", found(alphaName))
        let b = try await log.waitFor("beta found", found(betaName))
        XCTAssertEqual(a.port, 40001)
        XCTAssertEqual(a.txt, ["id": "a1", "v": "1"])
        XCTAssertEqual(b.port, 40002)
        XCTAssertEqual(b.txt, ["id": "b2", "v": "1", "u": "40012", "flag": ""])
        XCTAssertEqual(a.type, type)
        XCTAssertEqual(a.domain, "local")
        XCTAssertFalse(a.host.isEmpty)
        XCTAssertFalse(a.host.hasSuffix("."))
        XCTAssertFalse(a.addresses.isEmpty)
        for address in a.addresses + b.addresses {
            var parsed = in_addr()
            XCTAssertEqual(inet_pton(AF_INET, address, &parsed), 1, "not an IPv4 address: \(address)")
        }
        print("discovery: found \(a) and \(b)")

        try await alpha.updateTXT(["id": "a1", "v": "2", "u": "40011"])
        let updated = try await log.waitFor("alpha updated") { event -> ServiceRecord? in
            if case .updated(let record) = event, record.name == alphaName { return record }
            return nil
        }
        XCTAssertEqual(updated.txt, ["id": "a1", "v": "2", "u": "40011"])
        XCTAssertEqual(updated.port, 40001)

        beta.cancel()
        _ = try await log.waitFor("beta removed") { event -> Bool? in
            if case .removed(let name) = event, name == betaName { return true }
            return nil
        }
        let events = await log.events
        XCTAssertFalse(events.contains(.removed(name: alphaName)), "alpha must still be there")
        XCTAssertEqual(events.filter { if case .found = $0 { true } else { false } }.count, 2, "\(events)")
    }

    func testServiceRegisteredBeforeOrAfterBrowseStartsIsFound() async throws {
        try requireAvahi()
        let type = uniqueServiceType()
        let log = EventLog()
        await log.start(browse(type: type))
        defer { Task { await log.stop() } }
        let name = "late-\(uniqueSuffix())"
        let late = try ServiceAdvertiser(name: name, type: type, port: 40100)
        defer { late.cancel() }
        _ = try await late.start()
        let record = try await log.waitFor("late service found", found(name))
        XCTAssertEqual(record.port, 40100)
        XCTAssertEqual(record.txt, [:])
    }

    func testNameConflictIsReported() async throws {
        try requireAvahi()
        let type = uniqueServiceType()
        let name = "same-\(uniqueSuffix())"
        let first = try ServiceAdvertiser(name: name, type: type, port: 40201)
        defer { first.cancel() }
        _ = try await first.start()

        let second = try ServiceAdvertiser(name: name, type: type, port: 40202)
        defer { second.cancel() }
        do {
            let got = try await second.start()
            XCTFail("expected a name conflict, registered as \(got)")
        } catch DiscoveryError.nameConflict(let conflicting) {
            XCTAssertEqual(conflicting, name)
        }

        let renamed = try ServiceAdvertiser(name: name, type: type, port: 40203, allowRename: true)
        defer { renamed.cancel() }
        let newName = try await renamed.start()
        XCTAssertNotEqual(newName, name)
        XCTAssertTrue(newName.hasPrefix(name), newName)
    }

    func testCancellingTheConsumerEndsTheBrowse() async throws {
        try requireAvahi()
        let stream = browse(type: uniqueServiceType())
        let ended = NSCondition()
        nonisolated(unsafe) var done = false
        let consumer = Task {
            // Ended by the cancellation either way: the stream finishes, or it throws.
            do { for try await _ in stream {} } catch {}
            ended.withLock {
                done = true
                ended.broadcast()
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        consumer.cancel()
        // Bounded, not timed: the browse ends, or the test fails after 10 s instead of hanging.
        let deadline = Date().addingTimeInterval(10)
        let finished = ended.withLock {
            while !done && ended.wait(until: deadline) {}
            return done
        }
        XCTAssertTrue(finished, "the browse did not end within 10 s of its consumer's cancellation")
    }

    /// Every ref is deallocated (its context released) and every loop thread ends once things are cancelled.
    func testCancellationReleasesRefsAndThreads() async throws {
        try requireAvahi()
        let refsBefore = ServiceRef.liveRefs.value
        let threadsBefore = DNSSDLoop.liveThreads.value
        let type = uniqueServiceType()
        let names = (1...3).map { "life-\($0)-\(uniqueSuffix())" }
        var advertisers: [ServiceAdvertiser] = []
        for (index, name) in names.enumerated() {
            let advertiser = try ServiceAdvertiser(name: name, type: type, port: 40300 + index, txt: ["i": "\(index)"])
            _ = try await advertiser.start()
            advertisers.append(advertiser)
        }
        let log = EventLog()
        await log.start(browse(type: type))
        for name in names { _ = try await log.waitFor("\(name) found", found(name)) }
        // 3 registrations + 1 browse + 3 resolves (kept: never released) + 1 address query (one host).
        XCTAssertGreaterThanOrEqual(ServiceRef.liveRefs.value - refsBefore, 8)
        XCTAssertGreaterThanOrEqual(DNSSDLoop.liveThreads.value - threadsBefore, 4)

        for advertiser in advertisers { advertiser.cancel() }
        for name in names {
            _ = try await log.waitFor("\(name) removed") { $0 == .removed(name: name) ? true : nil }
        }
        await log.stop()
        try await log.waitUntilFinished()
        try await eventually(
            "every ref released and every loop thread ended", within: 5,
            context: {
                "refs \(ServiceRef.liveRefs.value) (before \(refsBefore)), threads "
                    + "\(DNSSDLoop.liveThreads.value) (before \(threadsBefore))"
            }
        ) { ServiceRef.liveRefs.value <= refsBefore && DNSSDLoop.liveThreads.value <= threadsBefore }
    }

    func testUpdateBeforeStartAndInvalidArguments() async throws {
        let advertiser = try ServiceAdvertiser(name: "x", type: "_tavolo._tcp", port: 1)
        do {
            try await advertiser.updateTXT(["a": "b"])
            XCTFail("expected notRegistered")
        } catch DiscoveryError.notRegistered {}
        XCTAssertThrowsError(try ServiceAdvertiser(name: "x", port: 0))
        XCTAssertThrowsError(try ServiceAdvertiser(name: "", port: 1))
        XCTAssertThrowsError(try ServiceAdvertiser(name: "x", type: "tavolo.tcp", port: 1))
        XCTAssertThrowsError(try ServiceAdvertiser(name: "x", port: 1, txt: ["a=b": "c"]))
    }

    func testDaemonNotRunningMessageSaysWhatToDo() {
        let message = DiscoveryError.daemonNotRunning.description
        XCTAssertTrue(message.hasPrefix("avahi-daemon is not running: start it (scripts/setup does)"), message)
    }
}
