/// Fast, not optimal: solves an N×N board row by row and column by column until a 3×3 corner is left, then
/// solves that corner optimally with IDA*. Each tile is brought home by a breadth-first search over (blank, tile)
/// positions that never touches a tile already placed; the last two tiles of a row or column are placed together
/// (a search over blank and both tiles), which is what the usual hand method does with its rotation trick.
public struct FifteenReduction {
    /// A solution of `board`, or nil if a step found no path (it does not happen on a solvable board).
    public static func solve(_ board: FifteenBoard) -> [FifteenMove]? {
        var solver = FifteenReduction(board: board)
        return solver.run()
    }

    var board: FifteenBoard
    var locked: [Bool]
    var moves: [FifteenMove] = []
    var n: Int { board.n }

    init(board: FifteenBoard) {
        self.board = board
        locked = Array(repeating: false, count: board.n * board.n)
    }

    mutating func run() -> [FifteenMove]? {
        var top = 0
        var left = 0
        while n - top > 3 || n - left > 3 {
            if n - top >= n - left {
                for c in left..<(n - 2) { guard place(single: top * n + c) else { return nil } }
                guard place(pair: top * n + n - 2, top * n + n - 1) else { return nil }
                top += 1
            } else {
                for r in top..<(n - 2) { guard place(single: r * n + left) else { return nil } }
                guard place(pair: (n - 2) * n + left, (n - 1) * n + left) else { return nil }
                left += 1
            }
        }
        guard solveCorner(top: top, left: left) else { return nil }
        return board.isSolved ? moves : nil
    }

    /// The tile whose home is `cell`.
    func tile(homedAt cell: Int) -> UInt8 { UInt8(cell + 1) }

    mutating func place(single target: Int) -> Bool {
        guard let at = board.tiles.firstIndex(of: tile(homedAt: target)) else { return false }
        guard let path = search(from: [board.blank, at], goal: [target]) else { return false }
        follow(path)
        locked[target] = true
        return true
    }

    mutating func place(pair a: Int, _ b: Int) -> Bool {
        guard let atA = board.tiles.firstIndex(of: tile(homedAt: a)),
            let atB = board.tiles.firstIndex(of: tile(homedAt: b))
        else { return false }
        guard let path = search(from: [board.blank, atA, atB], goal: [a, b]) else { return false }
        follow(path)
        locked[a] = true
        locked[b] = true
        return true
    }

    /// Breadth-first search over the positions of the blank (first) and the tracked tiles, moving only through
    /// unlocked cells; returns the blank's successive cells.
    func search(from start: [Int], goal: [Int]) -> [Int]? {
        let cells = n * n
        func key(_ s: [Int]) -> Int { s.reduce(0) { $0 * cells + $1 } }
        func done(_ s: [Int]) -> Bool { Array(s.dropFirst()) == goal }
        if done(start) { return [] }
        var parent: [Int: (previous: Int, blank: Int)] = [key(start): (-1, start[0])]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let s = queue[head]
            head += 1
            let b = s[0]
            for next in neighbours(b) where !locked[next] {
                var t = s
                t[0] = next
                for i in 1..<t.count where t[i] == next { t[i] = b }
                let k = key(t)
                guard parent[k] == nil else { continue }
                parent[k] = (key(s), next)
                if done(t) {
                    var blanks: [Int] = []
                    var at = k
                    while let p = parent[at], p.previous >= 0 {
                        blanks.append(p.blank)
                        at = p.previous
                    }
                    return blanks.reversed()
                }
                queue.append(t)
            }
        }
        return nil
    }

    func neighbours(_ cell: Int) -> [Int] {
        var out: [Int] = []
        let r = cell / n
        let c = cell % n
        if r > 0 { out.append(cell - n) }
        if r < n - 1 { out.append(cell + n) }
        if c > 0 { out.append(cell - 1) }
        if c < n - 1 { out.append(cell + 1) }
        return out
    }

    /// Moves the blank through `blanks` (each next to the one before), recording the tile moves.
    mutating func follow(_ blanks: [Int]) {
        for next in blanks {
            let move: FifteenMove
            switch next - board.blank {
            case n: move = .up
            case -n: move = .down
            case 1: move = .left
            default: move = .right
            }
            board.slide(move)
            moves.append(move)
        }
    }

    /// The 3×3 corner left at (`top`, `left`), renumbered as a 3×3 puzzle and solved optimally.
    mutating func solveCorner(top: Int, left: Int) -> Bool {
        let k = n - top
        var local: [UInt8] = []
        for r in top..<n {
            for c in left..<n {
                let t = Int(board.tiles[r * n + c])
                if t == 0 {
                    local.append(0)
                } else {
                    let home = t - 1
                    local.append(UInt8((home / n - top) * k + (home % n - left) + 1))
                }
            }
        }
        guard let corner = FifteenBoard(n: k, tiles: local),
            let solution = FifteenIDAStar.solve(corner)?.moves
        else { return false }
        for move in solution {
            board.slide(move)
            moves.append(move)
        }
        return true
    }
}
