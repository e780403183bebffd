import TavoloCore

/// A move of the Fifteen puzzle, named by the direction the tile moves (as a keyboard user thinks: pressing ←
/// slides the tile to the right of the blank leftwards into it), or giving up the race.
/// Sorted in this order: up, down, left, right, give-up (PROTOCOL `games/fifteen.md`).
public enum FifteenMove: Int, GameMove, CaseIterable {
    case up, down, left, right, giveUp

    /// The four sliding moves, in canonical order.
    public static let slides: [FifteenMove] = [.up, .down, .left, .right]

    public var description: String {
        switch self {
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .giveUp: "give-up"
        }
    }

    /// The move that undoes this one (nil for give-up).
    public var opposite: FifteenMove? {
        switch self {
        case .up: .down
        case .down: .up
        case .left: .right
        case .right: .left
        case .giveUp: nil
        }
    }

    /// Where the moving tile sits relative to the blank, as (rows, columns): the tile moving up is below it.
    var tileOffset: (dr: Int, dc: Int) {
        switch self {
        case .up: (1, 0)
        case .down: (-1, 0)
        case .left: (0, 1)
        case .right: (0, -1)
        case .giveUp: (0, 0)
        }
    }

    public static func < (a: FifteenMove, b: FifteenMove) -> Bool { a.rawValue < b.rawValue }

    public init?(name: String) {
        guard let m = Self.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = m
    }

    public init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let m = FifteenMove(name: s) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a fifteen move: \(s)"))
        }
        self = m
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// One N×N board: cell `r × N + c` holds a tile 1…N²−1 or 0 for the blank.
public struct FifteenBoard: Hashable, Sendable, Codable {
    public let n: Int
    public private(set) var tiles: [UInt8]
    public private(set) var blank: Int

    /// The solved board: 1…N²−1 in reading order, the blank last.
    public init(solved n: Int) {
        self.n = n
        tiles = (1..<(n * n)).map { UInt8($0) } + [0]
        blank = n * n - 1
    }

    /// A board from its cells (row by row, 0 the blank); nil unless it is a permutation of 0…N²−1.
    public init?(n: Int, tiles: [UInt8]) {
        guard tiles.count == n * n, Set(tiles) == Set((0..<(n * n)).map { UInt8($0) }),
            let b = tiles.firstIndex(of: 0)
        else { return nil }
        self.n = n
        self.tiles = tiles
        blank = b
    }

    public var isSolved: Bool {
        for i in 0..<(n * n - 1) where tiles[i] != UInt8(i + 1) { return false }
        return true
    }

    /// Tiles already on their own cell (the blank not counted).
    public var tilesInPlace: Int {
        (0..<(n * n - 1)).reduce(0) { $0 + (tiles[$1] == UInt8($1 + 1) ? 1 : 0) }
    }

    /// The sliding moves possible here, sorted.
    public var slides: [FifteenMove] { FifteenMove.slides.filter(canSlide) }

    public func canSlide(_ move: FifteenMove) -> Bool {
        tileCell(for: move) != nil
    }

    /// The cell of the tile that `move` would slide into the blank.
    public func tileCell(for move: FifteenMove) -> Int? {
        guard move != .giveUp else { return nil }
        let (dr, dc) = move.tileOffset
        let r = blank / n + dr
        let c = blank % n + dc
        guard (0..<n).contains(r), (0..<n).contains(c) else { return nil }
        return r * n + c
    }

    /// The tile that `move` slides, if it can.
    public func tile(movedBy move: FifteenMove) -> UInt8? { tileCell(for: move).map { tiles[$0] } }

    /// Slides a tile; false (and no change) when no tile can move that way.
    @discardableResult
    public mutating func slide(_ move: FifteenMove) -> Bool {
        guard let cell = tileCell(for: move) else { return false }
        tiles[blank] = tiles[cell]
        tiles[cell] = 0
        blank = cell
        return true
    }

    /// The scramble of PROTOCOL `games/fifteen.md`: `steps` moves from the solved board, each chosen with
    /// `rng.below(k)` among the k possible slides in canonical order, leaving out the one undoing the previous.
    public static func scrambled(n: Int, steps: Int = 130, rng: inout TavoloRNG) -> FifteenBoard {
        var board = FifteenBoard(solved: n)
        var previous: FifteenMove?
        for _ in 0..<steps {
            let options = board.slides.filter { $0 != previous?.opposite }
            let move = options[rng.below(options.count)]
            board.slide(move)
            previous = move
        }
        return board
    }

    /// A board drawn uniformly from every solvable arrangement (not a scramble): a shuffle, and when it is one of
    /// the unsolvable half, its first two tiles swapped, which pairs each unsolvable board with one solvable one.
    public static func randomSolvable(n: Int, rng: inout TavoloRNG) -> FifteenBoard {
        var cells = (0..<(n * n)).map { UInt8($0) }
        rng.shuffle(&cells)
        // Solvable exactly when the permutation's parity (the blank counted as tile n²) is the parity of the
        // blank's distance from its home: every slide swaps the blank with a tile and moves it one cell.
        let ranks = cells.map { $0 == 0 ? n * n : Int($0) }
        var inversions = 0
        for i in ranks.indices { for j in (i + 1)..<ranks.count where ranks[i] > ranks[j] { inversions += 1 } }
        let blank = cells.firstIndex(of: 0) ?? 0
        if inversions % 2 != (2 * (n - 1) - blank / n - blank % n) % 2 {
            let tiles = cells.indices.filter { cells[$0] != 0 }
            cells.swapAt(tiles[0], tiles[1])
        }
        return FifteenBoard(n: n, tiles: cells) ?? FifteenBoard(solved: n)
    }

    /// Rows as text, for people (`.` is the blank).
    public var rows: [String] {
        (0..<n).map { r in
            (0..<n).map { c in
                let t = tiles[r * n + c]
                return t == 0 ? " ." : (t < 10 ? " \(t)" : "\(t)")
            }.joined(separator: " ")
        }
    }
}
