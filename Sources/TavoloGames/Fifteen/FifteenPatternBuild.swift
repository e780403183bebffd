/// The search that fills a `FifteenPatternDatabase`: breadth first from the goal, layer by layer, each layer one
/// more pattern-tile move. A state is a placement of the pattern tiles and the region of cells the blank roams
/// without moving one of them (its free wandering is one state). Cells are bits of a `UInt64`.
///
/// Where the time goes is reading the tables at random, so: a state is queued as its cells packed into a
/// word (tile 0's cell highest, the blank's lowest), which sorts like the ranks, and each layer is sorted
/// before it is expanded, so the states it reaches lie near each other; a placement whose free cells are all
/// connected has one state, so its entry alone says whether it was seen, and only the others need a bit per region
/// (on boards of up to 16 cells a table of every connected set answers without a flood fill).
struct PatternBreadthFirst {
    let k: Int
    let n: Int
    let m: Int
    /// Bits per cell in a queued state.
    let bits: Int
    /// Every cell of the board, and all but the first or the last column.
    let board: UInt64
    let notFirstColumn: UInt64
    let notLastColumn: UInt64
    /// The weight of each tile's digit in the rank.
    let weights: [Int]
    /// One bit per set of cells: whether it is connected (boards of up to 16 cells; empty otherwise).
    var connected: [UInt64] = []
    let distance: UnsafeMutableBufferPointer<UInt8>
    /// One bit per (placement, its region's lowest cell), for placements that split the free cells.
    let seen: UnsafeMutableBufferPointer<UInt64>

    /// The entries of the pattern database of `tiles` on a k×k board, by rank.
    static func entries(k: Int, tiles: [UInt8]) -> [UInt8] {
        let search = PatternBreadthFirst(k: k, tiles: tiles)
        defer {
            search.distance.deallocate()
            search.seen.deallocate()
        }
        let home = tiles.map { Int($0) - 1 }
        // Half the queue's memory when a state fits 32 bits (six tiles on 4×4 do: 28 bits).
        if (search.m + 1) * search.bits <= 32 {
            search.run(home: home, queued: UInt32.self)
        } else {
            search.run(home: home, queued: UInt64.self)
        }
        return Array(search.distance)
    }

    init(k: Int, tiles: [UInt8]) {
        self.k = k
        n = k * k
        m = tiles.count
        bits = Int.bitWidth - (n - 1).leadingZeroBitCount
        precondition((m + 1) * bits <= 64, "too many pattern tiles to queue")
        board = n == 64 ? ~0 : (1 << UInt64(n)) - 1
        var first: UInt64 = 0
        for r in 0..<k { first |= 1 << UInt64(r * k) }
        notFirstColumn = board & ~first
        notLastColumn = board & ~(first << UInt64(k - 1))
        let size = n
        weights = (0..<m).map { i in ((i + 1)..<tiles.count).reduce(1) { $0 * (size - $1) } }
        let count = FifteenPatternDatabase.placements(cells: n, count: m)
        distance = .allocate(capacity: count)
        distance.initialize(repeating: .max)
        seen = .allocate(capacity: (count * n + 63) / 64)
        seen.initialize(repeating: 0)
        if n <= 16 { connected = connectedSets() }
    }

    func connectedSets() -> [UInt64] {
        var sets = [UInt64](repeating: 0, count: 1 << 10)
        for cells in 0..<(UInt64(1) << UInt64(n))
        where cells == 0 || region(from: cells.trailingZeroBitCount, free: cells) == cells {
            sets[Int(cells >> 6)] |= 1 << (cells & 63)
        }
        return sets
    }

    /// On a 4×4 board, for every set of free cells, the region of each cell named by its lowest cell, 4 bits a
    /// cell (512 KB, built once): the search looks a region up there instead of flooding it.
    static let regions16: [UInt64] = {
        let geometry = PatternBreadthFirst(k: 4, tiles: [1])
        defer {
            geometry.distance.deallocate()
            geometry.seen.deallocate()
        }
        return (0..<(UInt64(1) << 16)).map { free in
            var labels: UInt64 = 0
            var left = free
            while left != 0 {
                let region = geometry.region(from: left.trailingZeroBitCount, free: free)
                var cells = region
                while cells != 0 {
                    labels |= UInt64(left.trailingZeroBitCount) << UInt64(4 * cells.trailingZeroBitCount)
                    cells &= cells - 1
                }
                left &= ~region
            }
            return labels
        }
    }()

    /// The cells next to any cell of `cells`.
    @inline(__always)
    func around(_ cells: UInt64) -> UInt64 {
        ((cells << 1) & notFirstColumn) | ((cells >> 1) & notLastColumn) | ((cells << UInt64(k)) & board)
            | (cells >> UInt64(k))
    }

    /// The cells the blank reaches from `cell` through `free` cells.
    func region(from cell: Int, free: UInt64) -> UInt64 {
        var region: UInt64 = 1 << UInt64(cell)
        while true {
            let grown = (region | around(region)) & free
            if grown == region { return region }
            region = grown
        }
    }

    @inline(__always)
    func isConnected(_ free: UInt64) -> Bool {
        if n > 16 { return region(from: free.trailingZeroBitCount, free: free) == free }
        return connected[Int(free >> 6)] & (1 << (free & 63)) != 0
    }

    /// Marks the state of placement `rank` with the blank on `blank` as reached at `depth`; false when it was.
    @inline(__always)
    func reach(rank: Int, blank: Int, free: UInt64, depth: UInt8) -> Bool {
        if isConnected(free) {
            if distance[rank] != .max { return false }
            distance[rank] = depth
            return true
        }
        let lowest =
            n == 16
            ? Int((Self.regions16[Int(free)] >> UInt64(4 * blank)) & 15)
            : region(from: blank, free: free).trailingZeroBitCount
        let key = rank &* n &+ lowest
        let bit: UInt64 = 1 << UInt64(key & 63)
        if seen[key >> 6] & bit != 0 { return false }
        seen[key >> 6] |= bit
        if distance[rank] == .max { distance[rank] = depth }
        return true
    }

    func run<Word: FixedWidthInteger & UnsignedInteger>(home: [Int], queued: Word.Type) {
        let homeRank = FifteenPatternDatabase.rank(cells: home, boardCells: n)
        let homeUsed = home.reduce(UInt64(0)) { $0 | 1 << UInt64($1) }
        _ = reach(rank: homeRank, blank: n - 1, free: board & ~homeUsed, depth: 0)
        let start = home.reduce(UInt64(0)) { $0 << UInt64(bits) | UInt64($1) } << UInt64(bits) | UInt64(n - 1)
        var layer = [Word(start)]
        var depth: UInt8 = 0
        while !layer.isEmpty {
            depth += 1
            var next: [Word] = []
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * m) { scratch in
                for state in layer { expand(UInt64(state), depth: depth, scratch: scratch, into: &next) }
            }
            layer = []
            next.sort()
            layer = next
        }
    }

    /// Queues every state one pattern-tile move from `state` not reached before: a pattern tile next to the
    /// blank's region slides into it. The new rank is the old one changed by the digits the move changes.
    func expand<Word: FixedWidthInteger & UnsignedInteger>(
        _ state: UInt64, depth: UInt8, scratch: UnsafeMutableBufferPointer<Int>, into next: inout [Word]
    ) {
        let cellMask: UInt64 = (1 << UInt64(bits)) - 1
        // scratch: each tile's cell, the cells of the tiles before it, and its digit.
        var used: UInt64 = 0
        var rank = 0
        for i in 0..<m {
            let p = Int((state >> UInt64((m - i) * bits)) & cellMask)
            scratch[i] = p
            scratch[m + i] = Int(bitPattern: UInt(used))
            let digit = p &- (used & ((1 << UInt64(p)) &- 1)).nonzeroBitCount
            scratch[2 * m + i] = digit
            rank = rank &+ digit &* weights[i]
            used |= 1 << UInt64(p)
        }
        let free = board & ~used
        let roam = isConnected(free) ? free : region(from: Int(state & cellMask), free: free)
        for i in 0..<m {
            let from = scratch[i]
            let before = UInt64(UInt(bitPattern: scratch[m + i]))
            var targets = around(1 << UInt64(from)) & roam
            while targets != 0 {
                let to = targets.trailingZeroBitCount
                targets &= targets &- 1
                let digit = to &- (before & ((1 << UInt64(to)) &- 1)).nonzeroBitCount
                var after = rank &+ (digit &- scratch[2 * m + i]) &* weights[i]
                for j in (i + 1)..<m {
                    let p = scratch[j]
                    after = after &+ ((from < p ? 1 : 0) &- (to < p ? 1 : 0)) &* weights[j]
                }
                if reach(rank: after, blank: from, free: free ^ (1 << UInt64(from)) ^ (1 << UInt64(to)), depth: depth) {
                    let shift = UInt64((m - i) * bits)
                    let packed = (state & ~(cellMask << shift) & ~cellMask) | UInt64(to) << shift | UInt64(from)
                    next.append(Word(truncatingIfNeeded: packed))
                }
            }
        }
    }
}
