/// Optimal solver: IDA* with additive pattern databases (`FifteenPatternHeuristic`), the first solution found
/// being a shortest one. A move changes one tile, so it changes one database's entry (and one of the mirror's):
/// those are looked up again, the other groups' entries kept. Its budget is in nodes, never time, so every machine
/// finds the same solution or gives up at the same point.
public struct FifteenPatternSearch {
    /// A shortest solution of `board`, as moves, and the nodes searched; nil when more than `nodeLimit` nodes
    /// would be needed. `board` must have the heuristic's size.
    public static func solve(
        _ board: FifteenBoard, heuristic: FifteenPatternHeuristic = .standard, nodeLimit: Int = .max
    ) -> (moves: [FifteenMove], nodes: Int)? {
        precondition(board.n == heuristic.k, "the heuristic is for another size")
        return heuristic.table.withUnsafeBufferPointer { table in
            var frame = PatternSearchFrame(board: board, heuristic: heuristic, table: table, nodeLimit: nodeLimit)
            defer { frame.deallocate() }
            guard let moves = frame.run() else { return nil }
            return (moves, frame.nodes)
        }
    }
}

/// The search's working memory: unsafe buffers, so a node costs no reference counting or uniqueness checks.
struct PatternSearchFrame {
    let k: Int
    let cellCount: Int
    let table: UnsafeBufferPointer<UInt8>
    let reflected: Bool
    /// The tile on each cell (0 the blank).
    let tiles: UnsafeMutableBufferPointer<UInt8>
    /// The cell of each tile, on the board and on its mirror.
    let cells: UnsafeMutableBufferPointer<Int>
    let mirrorCells: UnsafeMutableBufferPointer<Int>
    /// Each tile's group; the groups' tiles end to end, where each group starts, and its database's offset.
    let groupOf: UnsafeMutableBufferPointer<Int>
    let groupTiles: UnsafeMutableBufferPointer<Int>
    let groupStart: UnsafeMutableBufferPointer<Int>
    let offsets: UnsafeMutableBufferPointer<Int>
    /// The mirror of each tile and of each cell.
    let mirrorTile: UnsafeMutableBufferPointer<Int>
    let mirrorCell: UnsafeMutableBufferPointer<Int>
    /// Each group's current entry, on the board and on its mirror.
    let entry: UnsafeMutableBufferPointer<Int>
    let mirrorEntry: UnsafeMutableBufferPointer<Int>
    var sum = 0
    var mirrorSum = 0
    var blank: Int
    var path: [FifteenMove] = []
    var nodes = 0
    let nodeLimit: Int

    init(board: FifteenBoard, heuristic: FifteenPatternHeuristic, table: UnsafeBufferPointer<UInt8>, nodeLimit: Int) {
        k = board.n
        cellCount = k * k
        self.table = table
        reflected = heuristic.reflected
        self.nodeLimit = nodeLimit
        blank = board.blank
        let groups = heuristic.groups
        func ints(_ values: [Int]) -> UnsafeMutableBufferPointer<Int> {
            let buffer = UnsafeMutableBufferPointer<Int>.allocate(capacity: values.count)
            _ = buffer.initialize(from: values)
            return buffer
        }
        let n = cellCount
        tiles = .allocate(capacity: n)
        _ = tiles.initialize(from: board.tiles)
        var cellOf = [Int](repeating: 0, count: n)
        for c in 0..<n { cellOf[Int(board.tiles[c])] = c }
        let side = board.n
        let mirrorOfTile = (0..<n).map { FifteenBoard.mirrorTile($0, side) }
        let mirrorOfCell = (0..<n).map { FifteenBoard.transpose($0, side) }
        var mirrorCellOf = [Int](repeating: 0, count: n)
        for t in 0..<n { mirrorCellOf[mirrorOfTile[t]] = mirrorOfCell[cellOf[t]] }
        cells = ints(cellOf)
        mirrorCells = ints(mirrorCellOf)
        mirrorTile = ints(mirrorOfTile)
        mirrorCell = ints(mirrorOfCell)
        var owner = [Int](repeating: 0, count: n)
        for (g, group) in groups.enumerated() { for t in group { owner[Int(t)] = g } }
        groupOf = ints(owner)
        groupTiles = ints(groups.flatMap { $0.map(Int.init) })
        groupStart = ints(groups.indices.map { g in groups[..<g].reduce(0) { $0 + $1.count } } + [n - 1])
        offsets = ints(heuristic.offsets)
        entry = ints(Array(repeating: 0, count: groups.count))
        mirrorEntry = ints(Array(repeating: 0, count: groups.count))
        for g in groups.indices {
            entry[g] = lookup(g, cells)
            mirrorEntry[g] = lookup(g, mirrorCells)
        }
        sum = entry.reduce(0, +)
        mirrorSum = mirrorEntry.reduce(0, +)
    }

    func deallocate() {
        for buffer in [cells, mirrorCells, groupOf, groupTiles, groupStart, offsets, mirrorTile, mirrorCell] {
            buffer.deallocate()
        }
        entry.deallocate()
        mirrorEntry.deallocate()
        tiles.deallocate()
    }

    /// Group `g`'s database entry for the tiles' cells in `at`.
    func lookup(_ g: Int, _ at: UnsafeMutableBufferPointer<Int>) -> Int {
        var rank = 0
        var used: UInt64 = 0
        var radix = cellCount
        for i in groupStart[g]..<groupStart[g + 1] {
            let p = at[groupTiles[i]]
            rank = rank * radix + p - (used & ((1 << UInt64(p)) - 1)).nonzeroBitCount
            used |= 1 << UInt64(p)
            radix -= 1
        }
        return Int(table[offsets[g] + rank])
    }

    var estimate: Int { reflected ? max(sum, mirrorSum) : sum }

    mutating func run() -> [FifteenMove]? {
        var bound = estimate
        while true {
            let t = search(depth: 0, bound: bound, previous: nil)
            if t < 0 { return path }
            if t == Int.max || nodes > nodeLimit { return nil }
            bound = t
        }
    }

    /// -1 when solved (the path holds the solution); otherwise the smallest f above `bound` seen.
    mutating func search(depth: Int, bound: Int, previous: FifteenMove?) -> Int {
        nodes += 1
        let h = estimate
        if h == 0 { return -1 }
        if depth + h > bound { return depth + h }
        if nodes > nodeLimit { return Int.max }
        var minimum = Int.max
        for move in FifteenMove.slides where move != previous?.opposite {
            let (dr, dc) = move.tileOffset
            let r = blank / k + dr
            let c = blank % k + dc
            guard r >= 0, r < k, c >= 0, c < k else { continue }
            let from = r * k + c
            let to = blank
            let undo = slide(from: from, to: to)
            path.append(move)
            let t = search(depth: depth + 1, bound: bound, previous: move)
            if t < 0 { return -1 }
            path.removeLast()
            unslide(from: from, to: to, undo)
            if t < minimum { minimum = t }
        }
        return minimum
    }

    /// What a slide changed, to put back without looking up again.
    struct Undo {
        var group: Int
        var entry: Int
        var mirrorGroup: Int
        var mirrorEntry: Int
    }

    /// Moves the tile at `from` into the blank at `to`, looking up the two entries that changed.
    mutating func slide(from: Int, to: Int) -> Undo {
        let tile = Int(tiles[from])
        tiles[to] = tiles[from]
        tiles[from] = 0
        blank = from
        cells[tile] = to
        let g = groupOf[tile]
        let undo = Undo(
            group: g, entry: entry[g], mirrorGroup: groupOf[mirrorTile[tile]],
            mirrorEntry: mirrorEntry[groupOf[mirrorTile[tile]]])
        let now = lookup(g, cells)
        sum += now - entry[g]
        entry[g] = now
        if reflected {
            let mirror = mirrorTile[tile]
            mirrorCells[mirror] = mirrorCell[to]
            let m = groupOf[mirror]
            let mirrorNow = lookup(m, mirrorCells)
            mirrorSum += mirrorNow - mirrorEntry[m]
            mirrorEntry[m] = mirrorNow
        }
        return undo
    }

    /// Takes back `slide(from:to:)`: the tile now at `to` goes back to `from`, the saved entries with it.
    mutating func unslide(from: Int, to: Int, _ undo: Undo) {
        let tile = Int(tiles[to])
        tiles[from] = tiles[to]
        tiles[to] = 0
        blank = to
        cells[tile] = from
        sum += undo.entry - entry[undo.group]
        entry[undo.group] = undo.entry
        if reflected {
            mirrorCells[mirrorTile[tile]] = mirrorCell[from]
            mirrorSum += undo.mirrorEntry - mirrorEntry[undo.mirrorGroup]
            mirrorEntry[undo.mirrorGroup] = undo.mirrorEntry
        }
    }
}
