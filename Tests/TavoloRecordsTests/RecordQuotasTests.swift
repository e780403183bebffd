import XCTest

@testable import TavoloRecords

/// The shares of §11.3: a peer, an address and all peers together each have a bound a minute; fresh keys from one
/// address share the address's; a new minute gives room again.
final class RecordQuotasTests: XCTestCase {
    func testManyKeysFromOneAddressShareItsBoundAndEveryoneSharesTheGlobalOne() {
        var limits = RecordQuotas.Limits()
        (limits.checksPerPeer, limits.checksPerAddress, limits.checks) = (10, 25, 40)
        var q = RecordQuotas(limits: limits)
        let t0 = ContinuousClock.now
        func checked(_ peer: String, _ address: String, _ tries: Int, at t: ContinuousClock.Instant = t0) -> Int {
            (0..<tries).filter { _ in q.take(1, of: .checks, peer: peer, address: address, now: t) }.count
        }
        XCTAssertEqual(checked("k0", "10.0.0.9", 50), 10, "one key: its own bound")
        // A thousand fresh keys from the same machine: together no more than the address's bound.
        XCTAssertEqual((1...1000).map { checked("k\($0)", "10.0.0.9", 5) }.reduce(0, +), 15)
        // Other machines: the global bound caps them all.
        XCTAssertEqual((1...100).map { checked("m\($0)", "10.0.1.\($0)", 5) }.reduce(0, +), 15)
        XCTAssertEqual(checked("k0", "10.0.0.9", 50, at: t0 + .seconds(61)), 10, "a new minute")
    }

    func testAnAnswerOverAShareIsRefusedWholeAndTakesNothing() {
        var limits = RecordQuotas.Limits()
        limits.answerBytesPerPeer = 1_000
        var q = RecordQuotas(limits: limits)
        let now = ContinuousClock.now
        XCTAssertTrue(q.take(600, of: .answerBytes, peer: "a", address: "h", now: now))
        XCTAssertFalse(q.take(600, of: .answerBytes, peer: "a", address: "h", now: now))
        XCTAssertTrue(q.take(400, of: .answerBytes, peer: "a", address: "h", now: now))
        XCTAssertTrue(q.take(600, of: .checks, peer: "a", address: "h", now: now), "checks are a share of their own")
    }

    func testTheHostOfAnAddress() {
        XCTAssertEqual(RecordSync.host(of: "127.0.0.1:4100"), "127.0.0.1")
        XCTAssertEqual(RecordSync.host(of: "[fe80::1]:4100"), "fe80::1")
        XCTAssertEqual(RecordSync.host(of: "nohost"), "nohost")
    }
}
