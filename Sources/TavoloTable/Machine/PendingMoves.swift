import TavoloCore
import TavoloProtocol

/// Moves that came before their turn, for turn-based play and races alike (PROTOCOL.md §9.4, §10.2): the one queue
/// live moves, relayed moves (catch-up) and a leaver's moves wait in until `MoveSequencer` says their number is next.
/// A move waits in a *lane* under its number: a turn-based game has one lane, `turns`, its moves numbered in the
/// game's single order; a race has a lane per seat, each seat numbering its own moves from 0 (§10.1). A move may
/// overtake the seed on another link, so the queue lives in the inbox, before any game exists.
struct PendingMoves {
    struct Move {
        var from: NodeID
        var seat: Int
        var move: JSONValue
        /// The state hash the move was made for: the whole state's (turn-based) or its seat's (a race).
        var stateHash: StateHash
    }

    /// The lane of a turn-based game's moves (a race's lanes are its seats, 0 and up).
    static let turns = -1

    private var lanes: [Int: [Int: Move]] = [:]
    /// Moves waiting, every lane counted.
    private(set) var count = 0

    subscript(lane: Int, number: Int) -> Move? { lanes[lane]?[number] }

    /// Lanes holding a move, in order.
    var laneIDs: [Int] { lanes.keys.sorted() }

    /// Adds `move` as number `number` of `lane`, unless a move already waits there or `limit` moves wait in all
    /// (a peer cannot make a node hold more). Returns whether it did.
    mutating func add(_ move: Move, lane: Int, number: Int, limit: Int) -> Bool {
        guard self[lane, number] == nil, count < limit else { return false }
        lanes[lane, default: [:]][number] = move
        count += 1
        return true
    }

    /// Takes the move numbered `number` out of `lane`, if one waits there.
    mutating func take(lane: Int, number: Int) -> Move? {
        guard let move = lanes[lane]?.removeValue(forKey: number) else { return nil }
        if lanes[lane]?.isEmpty == true { lanes[lane] = nil }
        count -= 1
        return move
    }

    /// Forgets every lane `keep` does not want.
    mutating func keepLanes(_ keep: (Int) -> Bool) {
        for (lane, waiting) in lanes where !keep(lane) {
            count -= waiting.count
            lanes[lane] = nil
        }
    }

    /// Forgets the moves `member` sent in `lanes`, numbered `first` or more: they are no longer its to play, or
    /// what it said of them is not the table's word (§9.12).
    mutating func drop(from member: NodeID, numberedFrom first: Int = 0, in lanes: Set<Int>) {
        for lane in lanes {
            guard let waiting = self.lanes[lane] else { continue }
            let kept = waiting.filter { $0.key < first || $0.value.from != member }
            count -= waiting.count - kept.count
            self.lanes[lane] = kept.isEmpty ? nil : kept
        }
    }
}
