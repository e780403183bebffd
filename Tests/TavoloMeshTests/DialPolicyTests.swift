import NIOCore
import TavoloProtocol
import XCTest

@testable import TavoloMesh

/// PROTOCOL.md §4.7 "Who dials" and "Reconnecting", without sockets or clocks.
final class DialPolicyTests: XCTestCase {
    let small = NodeID(hex: "00000000000000000000000000000001")!
    let mid = NodeID(hex: "80000000000000000000000000000000")!
    let large = NodeID(hex: "ff000000000000000000000000000000")!
    lazy var policy = DialPolicy(localID: mid, redialAfterLoss: .seconds(5))
    let t0 = NIODeadline.uptimeNanoseconds(1_000_000_000_000)

    func shouldDial(_ peer: NodeID, _ state: DialState, at now: NIODeadline, connected: Bool = false) -> Bool {
        policy.shouldDial(peer, state: state, connected: connected, advertised: true, compatible: true, now: now)
    }

    func testTheSmallerIdDials() {
        XCTAssertTrue(policy.dials(large))
        XCTAssertFalse(policy.dials(small))
        XCTAssertFalse(policy.dials(mid), "never itself")
        XCTAssertFalse(shouldDial(small, DialState(), at: t0))
        XCTAssertTrue(shouldDial(large, DialState(), at: t0))
    }

    func testNoDialWhenConnectedUnadvertisedIncompatibleOrAlreadyDialing() {
        var dialing = DialState()
        dialing.dialStarted()
        XCTAssertFalse(shouldDial(large, dialing, at: t0))
        XCTAssertFalse(shouldDial(large, DialState(), at: t0, connected: true))
        XCTAssertFalse(
            policy.shouldDial(large, state: DialState(), connected: false, advertised: false, compatible: true, now: t0)
        )
        XCTAssertFalse(
            policy.shouldDial(large, state: DialState(), connected: false, advertised: true, compatible: false, now: t0)
        )
    }

    func testBackoffIsHalfASecondDoublingToFourThenEveryFive() {
        XCTAssertEqual(
            (1...8).map { DialPolicy.backoff(afterFailures: $0) },
            [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5), .seconds(5),
                .seconds(5),
            ])
    }

    func testFailedDialsWaitTheirBackoffAndSuccessResetsIt() {
        var state = DialState()
        var now = t0
        for expected in [TimeAmount.milliseconds(500), .seconds(1), .seconds(2)] {
            state.dialStarted()
            state.dialFailed(now: now)
            XCTAssertFalse(shouldDial(large, state, at: now + expected - .nanoseconds(1)))
            XCTAssertTrue(shouldDial(large, state, at: now + expected))
            now = now + expected
        }
        XCTAssertEqual(state.failures, 3)
        state.dialStarted()
        state.connected()
        XCTAssertEqual(state.failures, 0)
        XCTAssertFalse(state.dialing)
    }

    func testALostPeerWaitsOneHeartbeatTimeoutUnlessItReappearsInDNSSD() {
        var state = DialState()
        state.connected()
        state.connectionLost(now: t0, policy: policy)
        XCTAssertFalse(shouldDial(large, state, at: t0 + .seconds(4)))
        XCTAssertTrue(shouldDial(large, state, at: t0 + .seconds(5)))
        // It restarted: its service is announced again, and it is dialed at once.
        state.rediscovered(now: t0 + .seconds(1))
        XCTAssertTrue(shouldDial(large, state, at: t0 + .seconds(1)))
    }
}
