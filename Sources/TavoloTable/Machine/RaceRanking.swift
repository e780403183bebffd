import TavoloCore
import TavoloProtocol

/// The agreed ranking of a simultaneous game (PROTOCOL.md §10.3): every member reports the order in which *it*
/// saw the seats complete; a seat's score is the sum of its positions over every valid report; fewer is better,
/// then fewer moves, then the lower seat. No clock is reported, so no node can claim an earlier time; a node
/// can only misorder its own report, which is one vote among the members'.
public enum RaceRanking {
    /// `orders`: one report per member that sent one. A report that is not exactly the completed seats, each
    /// once, is no vote (returned in `ignored` by index). `moves`: each seat's move count.
    public static func rank(orders: [[Int]], completed: Set<Int>, moves: [Int]) -> (ranking: [Int], ignored: [Int]) {
        var score: [Int: Int] = [:]
        for seat in completed { score[seat] = 0 }
        var ignored: [Int] = []
        for (i, order) in orders.enumerated() {
            guard order.count == completed.count, Set(order) == completed else {
                ignored.append(i)
                continue
            }
            for (position, seat) in order.enumerated() { score[seat, default: 0] += position }
        }
        let ranking = completed.sorted { a, b in
            let (sa, sb) = (score[a] ?? 0, score[b] ?? 0)
            if sa != sb { return sa < sb }
            let (ma, mb) = (moves.indices.contains(a) ? moves[a] : 0, moves.indices.contains(b) ? moves[b] : 0)
            if ma != mb { return ma < mb }
            return a < b
        }
        return (ranking, ignored)
    }
}

/// What a table machine keeps for a simultaneous game.
struct RaceState {
    /// Each member's reported order (the first it sent).
    var orders: [NodeID: [Int]] = [:]
    /// Orders a finished member relayed with their members' results (§9.5): taken with the result, or not at all.
    var relayedOrders: [NodeID: [Int]] = [:]
    var orderSent = false
    /// This node's bot seats with a move timer running.
    var botTimers: Set<Int> = []
    /// Human seats of this node told they may move.
    var announced: Set<Int> = []
    /// Per seat, the move number this node lacks while later ones of that seat wait, and the members it asked for
    /// it (its sync, once each: §10.6).
    var gapsAsked: [Int: (next: Int, asked: Set<NodeID>)] = [:]
}
