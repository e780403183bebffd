/// Optimal solver: IDA* with Manhattan distance plus linear conflicts (admissible, so the first solution found is
/// a shortest one). Works on any k×k board whose goal is 1…k²−1 then the blank; the reduction solver uses it for
/// the last 3×3 of larger boards. Tiles are `UInt8`, 0 the blank.
public struct FifteenIDAStar {
    let k: Int
    var tiles: [UInt8]
    var blank: Int
    var path: [FifteenMove] = []
    /// Nodes expanded so far (the bench's figure).
    public private(set) var nodes = 0
    let nodeLimit: Int
    /// Goal row and column of each tile.
    let goalRow: [Int]
    let goalCol: [Int]
    var rowConflicts: [Int]
    var colConflicts: [Int]
    /// Manhattan distance, kept up to date move by move.
    var md = 0

    init(k: Int, tiles: [UInt8], nodeLimit: Int) {
        self.k = k
        self.tiles = tiles
        blank = tiles.firstIndex(of: 0) ?? 0
        self.nodeLimit = nodeLimit
        goalRow = (0..<(k * k)).map { $0 == 0 ? 0 : ($0 - 1) / k }
        goalCol = (0..<(k * k)).map { $0 == 0 ? 0 : ($0 - 1) % k }
        rowConflicts = Array(repeating: 0, count: k)
        colConflicts = Array(repeating: 0, count: k)
        for i in 0..<k {
            rowConflicts[i] = lineConflict(row: i)
            colConflicts[i] = lineConflict(col: i)
        }
        md = manhattan()
    }

    /// A shortest solution of `board`, as moves; nil when more than `nodeLimit` nodes would be needed.
    public static func solve(_ board: FifteenBoard, nodeLimit: Int = .max) -> (moves: [FifteenMove], nodes: Int)? {
        var search = FifteenIDAStar(k: board.n, tiles: board.tiles, nodeLimit: nodeLimit)
        guard let moves = search.run() else { return nil }
        return (moves, search.nodes)
    }

    mutating func run() -> [FifteenMove]? {
        var bound = heuristic()
        while true {
            let t = search(g: 0, bound: bound, previous: nil)
            if t < 0 { return path }
            if t == Int.max || nodes > nodeLimit { return nil }
            bound = t
        }
    }

    func manhattan() -> Int {
        var d = 0
        for cell in 0..<(k * k) where tiles[cell] != 0 {
            let t = Int(tiles[cell])
            d += abs(cell / k - goalRow[t]) + abs(cell % k - goalCol[t])
        }
        return d
    }

    func heuristic() -> Int { md + 2 * (rowConflicts.reduce(0, +) + colConflicts.reduce(0, +)) }

    /// Tiles to take out of a line so the rest of its own tiles are in order: len − longest increasing run.
    /// On the stack: this runs twice per node searched.
    func lineConflict(row r: Int) -> Int {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: k) { goals in
            var count = 0
            for c in 0..<k {
                let t = Int(tiles[r * k + c])
                if t != 0, goalRow[t] == r {
                    goals[count] = goalCol[t]
                    count += 1
                }
            }
            return count - Self.longestIncreasing(goals, count)
        }
    }

    func lineConflict(col c: Int) -> Int {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: k) { goals in
            var count = 0
            for r in 0..<k {
                let t = Int(tiles[r * k + c])
                if t != 0, goalCol[t] == c {
                    goals[count] = goalRow[t]
                    count += 1
                }
            }
            return count - Self.longestIncreasing(goals, count)
        }
    }

    static func longestIncreasing(_ xs: UnsafeMutableBufferPointer<Int>, _ n: Int) -> Int {
        guard n > 1 else { return n }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: n) { best in
            var longest = 1
            for i in 0..<n {
                best[i] = 1
                for j in 0..<i where xs[j] < xs[i] && best[j] + 1 > best[i] { best[i] = best[j] + 1 }
                if best[i] > longest { longest = best[i] }
            }
            return longest
        }
    }

    /// -1 when solved (the path holds the solution); otherwise the smallest f above `bound` seen.
    mutating func search(g: Int, bound: Int, previous: FifteenMove?) -> Int {
        nodes += 1
        let h = heuristic()
        if h == 0 { return -1 }
        let f = g + h
        if f > bound { return f }
        if nodes > nodeLimit { return Int.max }
        var minimum = Int.max
        for move in FifteenMove.slides where move != previous?.opposite {
            let (dr, dc) = move.tileOffset
            let r = blank / k + dr
            let c = blank % k + dc
            guard r >= 0, r < k, c >= 0, c < k else { continue }
            let from = r * k + c
            let to = blank
            slide(from: from, to: to, vertical: dr != 0)
            path.append(move)
            let t = search(g: g + 1, bound: bound, previous: move)
            if t < 0 { return -1 }
            path.removeLast()
            slide(from: to, to: from, vertical: dr != 0)
            if t < minimum { minimum = t }
        }
        return minimum
    }

    /// Moves the tile at `from` into the blank at `to`, updating the conflicts of the two lines it crossed.
    mutating func slide(from: Int, to: Int, vertical: Bool) {
        let t = Int(tiles[from])
        md -= abs(from / k - goalRow[t]) + abs(from % k - goalCol[t])
        md += abs(to / k - goalRow[t]) + abs(to % k - goalCol[t])
        tiles[to] = tiles[from]
        tiles[from] = 0
        blank = from
        if vertical {
            rowConflicts[from / k] = lineConflict(row: from / k)
            rowConflicts[to / k] = lineConflict(row: to / k)
        } else {
            colConflicts[from % k] = lineConflict(col: from % k)
            colConflicts[to % k] = lineConflict(col: to % k)
        }
    }
}
