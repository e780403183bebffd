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
            [
                "Paused for 33 s: bob was lost at 21:04:15; a bot takes their seat at 21:06:15, in 1 min 27 s, unless "
                    + "they come back"
            ])
        // The countdown moves on; the clock time stays.
        XCTAssertEqual(
            TableNotices.lines(paused(), now: at(100), timeZone: rome),
            [
                "Paused for 1 min 40 s: bob was lost at 21:04:15; a bot takes their seat at 21:06:15, in 20 s, "
                    + "unless they come back"
            ])
    }

    func testAfterTheGracePeriodTheBotWaitsOnlyForTheOthers() {
        XCTAssertEqual(
            TableNotices.lines(paused(grace: 10), now: at(11), timeZone: rome),
            [
                "Paused for 11 s: bob was lost at 21:04:15; a bot takes their seat as soon as the others agree, "
                    + "unless they come back first"
            ])
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
                "Paused for 0 s: bob and carol were lost at 21:04:15; a bot takes their seats at 21:06:15, in 2 min, "
                    + "unless they come back",
                "dan left the game (lost for them): bot (greedy) for another member plays seats 2 and 3 from move 6",
            ])
    }

    func othello(_ phase: TablePhase) -> TableState {
        let (alice, bob) = (NodeID.random(), NodeID.random())
        let info = TableInfo(
            id: "t1-1", game: "othello", players: 2, host: alice, hostName: "alice", phase: phase,
            seats: [
                SeatInfo(seat: 0, owner: alice, ownerName: "alice"),
                SeatInfo(seat: 1, owner: bob, ownerName: "bob"),
            ], revision: 1)
        return TableState(info: info)
    }

    /// A member that left is shown as left before its seat's next move, and the bot is its heir's.
    func testALeaverIsLeftAtOnceAndTheBotIsTheHeirs() {
        var st = othello(.playing)
        st.departures = [
            .init(memberName: "bob", seats: [1], heirName: "alice", bot: "greedy", forfeit: true, isMe: false)
        ]
        XCTAssertEqual(TableNotices.seatNames(st), ["alice", "bob (left: bot (greedy) for alice takes over)"])
        XCTAssertEqual(
            TableNotices.lines(st, now: at(0)),
            ["bob left the game (lost for them): bot (greedy) for alice takes seat 1 now"])
        // Once the seat passed, the seat is the bot's, named for the node that runs it (not "alice's bot").
        st.departures = nil
        st.info.seats[1] = SeatInfo(seat: 1, owner: st.info.host, ownerName: "alice", bot: "greedy")
        XCTAssertEqual(TableNotices.seatNames(st), ["alice", "bot (greedy) for alice"])
    }

    /// The leaver's own copy stops: it says what leaving did, not a stop code.
    func testTheLeaverIsToldWhatLeavingDid() {
        var st = othello(.stopped)
        st.stopped = "table/member-left: bob left the game: it is lost for them; a bot plays their seats"
        st.leftAt = 0
        st.departures = [
            .init(memberName: "bob", seats: [1], heirName: "alice", bot: "greedy", forfeit: true, isMe: true)
        ]
        XCTAssertEqual(
            TableNotices.lines(st, now: at(0)),
            ["You left the game: it counts as lost for you; bot (greedy) for alice plays seat 1 on"])
        // Alone at the table with its own bots, nobody takes the seat over.
        st.departures = nil
        XCTAssertEqual(TableNotices.lines(st, now: at(0)), ["You left the game: it counts as lost for you"])
    }
}
