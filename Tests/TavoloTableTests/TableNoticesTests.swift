import Foundation
import TavoloProtocol
import XCTest

@testable import TavoloTable

/// Where a person stands, in words (issue 34): the pause line once read `Paused — paused: bob lost since
/// 2026-11-24T20:04:15Z`, a doubled word, a UTC stamp and nothing about the bot to come.
final class TableNoticesTests: XCTestCase {
    let rome = TimeZone(identifier: "Europe/Rome") ?? .current

    func paused(grace: Int = 120) -> TableState {
        var info = TableInfo(
            id: "t1-1", game: "othello", players: 2, host: NodeID.random(), hostName: "alice", phase: .paused,
            seats: [SeatInfo(seat: 0), SeatInfo(seat: 1)], revision: 1)
        info.grace = grace
        var st = TableState(info: info)
        st.absent = ["bob"]
        st.pausedSince = "2026-11-24T20:04:15Z"
        return st
    }

    func at(_ seconds: Double) -> Date {
        Date(timeIntervalSince1970: 1_795_550_655 + seconds)  // 2026-11-24T20:04:15Z + seconds
    }

    func testThePauseSaysWhoWhenInLocalTimeAndWhenABotTakesOver() {
        XCTAssertEqual(
            TableNotices.lines(paused(), now: at(33.5), timeZone: rome),
            ["Paused: bob was lost at 21:04 (local time); a bot takes their seat in 87 s unless they come back"])
    }

    func testAfterTheGracePeriodTheBotWaitsOnlyForTheOthers() {
        XCTAssertEqual(
            TableNotices.lines(paused(grace: 10), now: at(11), timeZone: rome),
            ["Paused: bob was lost at 21:04 (local time); a bot takes their seat as soon as the others agree, "
                + "unless they come back first"])
    }

    func testSeveralLostMembersAndTakeovers() {
        var st = paused()
        st.absent = ["bob", "carol"]
        st.takeovers = [
            GameLog.LoggedTakeover(
                member: NodeID.random(), memberName: "dan", seats: [2, 3], heir: NodeID.random(), bot: "greedy",
                number: 4, appliedAt: 5, forfeit: true)
        ]
        XCTAssertEqual(
            TableNotices.lines(st, now: at(0), timeZone: rome),
            [
                "Paused: bob and carol were lost at 21:04 (local time); a bot takes their seats in 120 s unless they "
                    + "come back",
                "dan left the game: a greedy bot plays seats 2 and 3 from move 6",
            ])
    }
}
