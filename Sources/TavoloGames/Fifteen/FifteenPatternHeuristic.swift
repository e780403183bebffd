/// Disjoint pattern databases over a partition of a k×k board's tiles: a move moves one tile, so it counts in one
/// database only, and their sum never exceeds the moves left (admissible; the sum also never falls below Manhattan
/// distance, so nothing is gained by taking the larger of the two). With `reflected`, the board mirrored in its
/// main diagonal (as far from solved: a move stays a move) is looked up in the same databases too, and the larger
/// sum taken (Felner, Korf & Hanan 2004).
///
/// The 4×4 one (`standard`) is the static **6-6-3** partition: tiles {1, 5, 6, 9, 10, 13}, {7, 8, 11, 12, 14, 15}
/// and {2, 3, 4}, with reflection. 6-6-3 rather than 5-5-5 ({1, 2, 5, 6, 9}, {3, 4, 7, 8, 12}, {10, 11, 13, 14,
/// 15}) because it searches about four times fewer nodes (median 95k against 352k on 100 random boards: a median
/// solve of 12 ms against 45 ms) for 11.5 MB instead of 1.6 MB, and a build of 7.5 s instead of 0.75 s, once
/// per process (release build, one core of the development machine: `tavolo-bots-bench fifteen-speed`).
public struct FifteenPatternHeuristic: Sendable {
    /// The board's side.
    public let k: Int
    /// The tiles of each database, in the order their cells are ranked.
    public let groups: [[UInt8]]
    /// Whether the mirrored board is looked up too.
    public let reflected: Bool
    /// Every database's entries, end to end (one buffer the search reads through one pointer).
    let table: [UInt8]
    /// Where each database starts in `table`.
    let offsets: [Int]

    /// Builds one database per group; `groups` must partition 1…k²−1.
    public init(k: Int, groups: [[UInt8]], reflected: Bool) {
        precondition(
            groups.flatMap { $0 }.sorted() == (1..<(k * k)).map { UInt8($0) }, "the groups must partition the tiles")
        self.k = k
        self.groups = groups
        self.reflected = reflected
        var table: [UInt8] = []
        table.reserveCapacity(
            groups.reduce(0) { $0 + FifteenPatternDatabase.placements(cells: k * k, count: $1.count) })
        var offsets: [Int] = []
        for group in groups {
            offsets.append(table.count)
            table += FifteenPatternDatabase(k: k, tiles: group).entries
        }
        self.table = table
        self.offsets = offsets
    }

    /// The 4×4 heuristic the `expert` bot searches with: 6-6-3 with reflection, built once per process at its
    /// first use (a static `let` is initialised once, thread-safely).
    public static let standard = FifteenPatternHeuristic(
        k: 4, groups: [[1, 5, 6, 9, 10, 13], [7, 8, 11, 12, 14, 15], [2, 3, 4]], reflected: true)

    /// Bytes held by the databases.
    public var bytes: Int { table.count }

    /// A lower bound on the moves that solve `board` (a k×k board).
    public func estimate(_ board: FifteenBoard) -> Int {
        let direct = sum(board)
        return reflected ? max(direct, sum(board.transposed)) : direct
    }

    func sum(_ board: FifteenBoard) -> Int {
        var total = 0
        for (g, group) in groups.enumerated() {
            let cells = group.map { t in board.tiles.firstIndex(of: t) ?? 0 }
            total += Int(table[offsets[g] + FifteenPatternDatabase.rank(cells: cells, boardCells: k * k)])
        }
        return total
    }
}

extension FifteenBoard {
    /// The board mirrored in its main diagonal, tiles renamed to match: the tile whose home is (r, c) becomes the
    /// tile whose home is (c, r). The blank's home is its own mirror, so the mirror is exactly as far from solved.
    public var transposed: FifteenBoard {
        var cells = [UInt8](repeating: 0, count: n * n)
        for cell in 0..<(n * n) {
            cells[Self.transpose(cell, n)] = UInt8(Self.mirrorTile(Int(tiles[cell]), n))
        }
        return FifteenBoard(n: n, tiles: cells) ?? self
    }

    /// The cell (c, r) for the cell (r, c).
    static func transpose(_ cell: Int, _ n: Int) -> Int { (cell % n) * n + cell / n }

    /// The tile whose home mirrors `tile`'s (0, the blank, stays itself).
    static func mirrorTile(_ tile: Int, _ n: Int) -> Int { tile == 0 ? 0 : transpose(tile - 1, n) + 1 }
}
