import Foundation
import Logging
import NIOCore
import NIOPosix
import TavoloCore
import TavoloGames
import TavoloProtocol
import XCTest

@testable import TavoloTable

/// The host's offers (PROTOCOL.md §9.1–9.2): seats taken together go out as one offer, a held offer never lets
/// another message of its table overtake it, and once play began the members, which ignore offers, get none.
final class TableHeldOfferTests: XCTestCase {
    /// Records what a shell posts; its timers fire only when the test says.
    final class HeldTransport: TableTransport, @unchecked Sendable {
        let lock = NSLock()
        var posts: [(to: [NodeID], message: TableMessage)] = []
        var timers: [@Sendable () -> Void] = []

        struct Handle: TableTimerHandle { func cancel() {} }

        func post(_ body: [UInt8], form: MessageForm, to nodes: [NodeID]) {
            guard let m = try? TableMessage.decode(body, form: form) else { return XCTFail("undecodable post") }
            lock.withLock { posts.append((nodes, m)) }
        }

        func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> (any TableTimerHandle)? {
            lock.withLock { timers.append(fire) }
            return Handle()
        }

        var offers: [TableInfo] {
            lock.withLock { posts.compactMap { if case .offer(let info) = $0.message { info } else { nil } } }
        }
    }

    func node(_ i: Int) -> NodeID { NodeID(bytes: [UInt8](repeating: 0, count: 15) + [UInt8(i + 1)])! }

    /// Node 0's table shell on a transport that records its posts, run on one event loop.
    func makeHost() -> (TableManager, HeldTransport, any EventLoop) {
        let transport = HeldTransport()
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        var logger = Logger(label: "held")
        logger.logLevel = .critical
        let host = TableManager(
            me: node(0), name: "n0", transport: transport, catalog: .standard, options: TableManager.Options(),
            logger: logger, executor: loop.executor)
        return (host, transport, loop)
    }

    func testSeatsTakenTogetherGoOutAsOneOfferAndTheStartKeepsItsPlace() async throws {
        let (host, transport, _) = makeHost()
        for i in 1...3 { await host.peerConnected(node(i), name: "n\(i)") }
        let table = try await host.host(game: "spirits", players: 3)
        _ = try await host.join(table: table.id, game: nil, seat: 0, bot: "random")
        for seat in 1...2 {
            let request = TableMessage.seatRequest(table: table.id, seat: seat, bot: "random")
            let wire = try request.wire()
            await host.received(wire.bytes, form: wire.form, from: node(seat))
        }
        // Each node seated learns it at once (its seat is how it knows to keep early commitments, §9.3); the
        // changes are held for everyone else.
        var posts = transport.lock.withLock { transport.posts }
        XCTAssertEqual(posts.map(\.to), [[node(1)], [node(2)]], "only the nodes seated, each once")
        XCTAssertEqual(transport.offers.map { $0.seats.compactMap(\.owner).count }, [2, 3])
        _ = try await host.start(table: table.id)
        posts = transport.lock.withLock { transport.posts }
        XCTAssertEqual(transport.offers.map(\.phase), [.open, .open, .seeding], "the start replaced the held offer")
        XCTAssertEqual(Set(posts[2].to), Set((1...3).map(node)), "to every connected node")
        guard case .offer = posts[2].message else { return XCTFail("the offer goes before the commitment: \(posts)") }
        XCTAssertTrue(posts.dropFirst(3).contains { if case .commit = $0.message { true } else { false } })
        XCTAssertEqual(
            posts.filter { $0.to.contains(node(3)) }.map(\.message.typeName), ["table.offer"],
            "the node not seated: one offer for four changes")
    }

    func testAHeldOfferGoesOutWhenItsTimeComesOrBeforeAnyOtherMessageOfItsTable() async throws {
        let (host, transport, loop) = makeHost()
        await host.peerConnected(node(1), name: "n1")
        let table = try await host.host(game: "othello", players: 2)
        XCTAssertEqual(transport.offers.count, 0)
        let fire = try XCTUnwrap(transport.lock.withLock { transport.timers.first })
        try await loop.submit { fire() }.get()
        XCTAssertEqual(transport.offers.map(\.revision), [table.revision], "sent when its time came")
        // Held again, then a refusal of a seat request of the same table must not overtake it.
        _ = try await host.join(table: table.id, game: nil, seat: 0, bot: nil)
        let taken = TableMessage.seatRequest(table: table.id, seat: 0, bot: nil)
        let wire = try taken.wire()
        await host.received(wire.bytes, form: wire.form, from: node(1))
        let kinds = transport.lock.withLock { transport.posts.map(\.message.typeName) }
        XCTAssertEqual(kinds, ["table.offer", "table.offer", "table.seat-refused"])
    }

    /// Pure machines: after the start a member gets no offer (it ignores them, §9.2); a node that is not a member
    /// gets every phase.
    func testMembersGetNoOffersOncePlayBeganAndOthersGetEveryPhase() throws {
        var mesh = TableMachineTests.Mesh(4)
        let info = try mesh.request(0) { $0.host(game: "othello", players: 2) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .join(seat: 0, bot: "greedy")) }.get()
        _ = try mesh.request(1) { $0.request(info.id, .join(seat: 1, bot: "random")) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .start) }.get()
        XCTAssertEqual(mesh.table(1, info.id)?.info.phase, .finished)
        func phases(to i: Int) -> [TablePhase] {
            mesh.delivered.compactMap { d in
                guard d.from == mesh[0], d.to == mesh[i], case .offer(let o) = d.message, o.id == info.id else {
                    return nil
                }
                return o.phase
            }
        }
        XCTAssertEqual(Set(phases(to: 1)), [.open, .seeding], "a member: none once play began")
        XCTAssertEqual(Set(phases(to: 3)), [.open, .seeding, .playing, .finished], "a node that is not a member")
        XCTAssertEqual(mesh.table(3, info.id)?.info.phase, .finished, "it lists the table as finished")
    }

    /// A member whose session comes back during play gets no offer either; a node that is not a member does.
    func testAMemberConnectingAgainDuringPlayGetsNoOffer() throws {
        var mesh = TableMachineTests.Mesh(3)
        let info = try mesh.request(0) { $0.host(game: "othello", players: 2) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .join(seat: 0, bot: nil)) }.get()
        _ = try mesh.request(1) { $0.request(info.id, .join(seat: 1, bot: nil)) }.get()
        _ = try mesh.request(0) { $0.request(info.id, .start) }.get()
        XCTAssertEqual(mesh.table(1, info.id)?.info.phase, .playing, "two people: it waits for a move")
        var host = mesh.nodes[mesh[0]]!
        let offered = { (effects: [TableEffect]) in
            effects.contains { if case .send(.offer, _) = $0 { true } else { false } }
        }
        XCTAssertFalse(offered(host.peerConnected(mesh[1], name: "n1")), "a member: no offer")
        XCTAssertTrue(offered(host.peerConnected(mesh[2], name: "n2")), "a node that only lists the table")
    }
}
