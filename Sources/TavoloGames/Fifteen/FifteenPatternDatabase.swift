/// One pattern database (Korf & Felner, "Disjoint pattern database heuristics", 2002): for every placement of a
/// few *pattern tiles* on a k×k board, the fewest moves **of those tiles** that bring them all home, whatever the
/// other tiles do (their moves are free). Pattern databases over disjoint sets of tiles therefore add up to a lower
/// bound on the moves of the whole board (`FifteenPatternHeuristic`).
///
/// Built deterministically by a breadth-first search from the goal over abstract states — a placement and the
/// region the blank can roam without moving a pattern tile — so the same tiles give the same bytes on any machine.
/// A placement of m tiles on N = k² cells is stored at its rank among the N!/(N−m)! ordered placements, one byte
/// each: 5,765,760 bytes for six tiles on 4×4, 524,160 for five.
public struct FifteenPatternDatabase: Sendable {
    /// The board's side.
    public let k: Int
    /// The pattern tiles, in the order their cells are ranked.
    public let tiles: [UInt8]
    /// Moves of the pattern tiles from each placement to home, by `rank`.
    public let entries: [UInt8]

    /// Builds the database of `tiles` (distinct, 1…k²−1) on a k×k board, k ≤ 8.
    public init(k: Int, tiles: [UInt8]) {
        precondition((2...8).contains(k) && !tiles.isEmpty && tiles.count < k * k, "bad pattern")
        self.k = k
        self.tiles = tiles
        entries = PatternBreadthFirst.entries(k: k, tiles: tiles)
    }

    /// Ordered placements of `count` tiles on `cells` cells: cells!/(cells−count)!.
    public static func placements(cells: Int, count: Int) -> Int {
        (0..<count).reduce(1) { $0 * (cells - $1) }
    }

    /// The rank of a placement (`cells[i]` is where `tiles[i]` is): mixed radix N, N−1, …, each digit the cell's
    /// index among the cells not taken by earlier tiles.
    public static func rank(cells: [Int], boardCells: Int) -> Int {
        cells.withUnsafeBufferPointer { rank(cells: $0, boardCells: boardCells) }
    }

    static func rank(cells: UnsafeBufferPointer<Int>, boardCells: Int) -> Int {
        var rank = 0
        var used: UInt64 = 0
        for i in 0..<cells.count {
            let p = cells[i]
            let below = (used & ((1 << UInt64(p)) - 1)).nonzeroBitCount
            rank = rank * (boardCells - i) + p - below
            used |= 1 << UInt64(p)
        }
        return rank
    }

    /// The placement of `rank`, the inverse of `rank(cells:boardCells:)`.
    public static func cells(of rank: Int, count: Int, boardCells: Int) -> [Int] {
        [Int](unsafeUninitializedCapacity: count) { buffer, initialized in
            cells(of: rank, into: UnsafeMutableBufferPointer(rebasing: buffer[0..<count]), boardCells: boardCells)
            initialized = count
        }
    }

    static func cells(of rank: Int, into cells: UnsafeMutableBufferPointer<Int>, boardCells: Int) {
        var rest = rank
        for i in stride(from: cells.count - 1, through: 0, by: -1) {
            cells[i] = rest % (boardCells - i)
            rest /= boardCells - i
        }
        var free = ~UInt64(0)
        for i in 0..<cells.count {
            // The digit-th free cell: drop the digit lowest free cells.
            var rest = free
            for _ in 0..<cells[i] { rest &= rest - 1 }
            cells[i] = rest.trailingZeroBitCount
            free &= ~(1 << UInt64(cells[i]))
        }
    }

    /// The fewest pattern-tile moves from the placement of the pattern tiles on `board`.
    public func moves(on board: FifteenBoard) -> Int {
        let cells = tiles.map { t in board.tiles.firstIndex(of: t) ?? 0 }
        return Int(entries[Self.rank(cells: cells, boardCells: k * k)])
    }
}
