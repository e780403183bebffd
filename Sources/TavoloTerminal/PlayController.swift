/// What the play loop must do after a key.
public enum PlayAction: Equatable, Sendable {
    case none
    /// Send this move (the game's JSON) for the person's seat.
    case play([UInt8])
    /// Leave the table: during a game the person forfeits and a bot plays on (the person confirmed it).
    case leave
    /// Stop showing the table; the node keeps the seat (`tavolo play ID` comes back to it).
    case detach
}

/// The screen's own state between snapshots: which legal move is selected, what is typed, rules or table, a
/// quit being confirmed. Pure: keys in, actions out, so every transition is unit-tested.
public struct PlayController: Sendable {
    public enum Mode: Equatable, Sendable {
        case table
        /// The game's rules, scrolled down `offset` lines.
        case rules(offset: Int)
        /// `q` was pressed during a game: leave, detach, or stay.
        case confirmQuit
        /// `g` was pressed in a race: give up (this move, the JSON kept here) or keep racing.
        case confirmGiveUp([UInt8])
    }

    public var mode: Mode = .table
    public var selected = 0
    public var typed = ""
    /// One line for the person: why a typed move was refused, the node's answer to a move.
    public var notice: String?
    private var shownMove = -1
    private var rangFor = -1

    public init() {}

    /// Call with each new snapshot: a new move clears the selection and what was typed.
    public mutating func sync(_ s: TableSnapshot) {
        guard s.moveNumber != shownMove else { return }
        shownMove = s.moveNumber
        selected = 0
        typed = ""
    }

    /// Whether to ring the bell now: once each time it becomes the person's turn.
    public mutating func ringsBell(for s: TableSnapshot) -> Bool {
        guard s.isMyTurn, rangFor != s.moveNumber else { return false }
        rangFor = s.moveNumber
        return true
    }

    public mutating func handle(_ key: Key, _ s: TableSnapshot, rulesLines: Int = 0, page: Int = 10) -> PlayAction {
        switch mode {
        case .rules(let offset):
            let last = max(0, rulesLines - page)
            switch key {
            case .up: mode = .rules(offset: max(0, offset - 1))
            case .down: mode = .rules(offset: min(last, offset + 1))
            case .pageUp: mode = .rules(offset: max(0, offset - page))
            case .pageDown, .character(" "): mode = .rules(offset: min(last, offset + page))
            case .home: mode = .rules(offset: 0)
            case .end: mode = .rules(offset: last)
            default: mode = .table
            }
            return .none
        case .confirmQuit:
            mode = .table
            switch key {
            case .character("l"), .character("L"), .character("y"), .character("Y"): return .leave
            case .character("d"), .character("D"): return .detach
            default:
                notice = nil
                return .none
            }
        case .confirmGiveUp(let move):
            mode = .table
            notice = nil
            switch key {
            case .character("y"), .character("Y"), .character("g"), .character("G"): return .play(move)
            default: return .none
            }
        case .table:
            return handleTable(key, s)
        }
    }

    static func fifteenMove(_ key: Key) -> String? {
        switch key {
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .character("g"), .character("G"): "give-up"
        default: nil
        }
    }

    private mutating func handleTable(_ key: Key, _ s: TableSnapshot) -> PlayAction {
        let options = GameBoards.options(game: s.game, legal: s.isMyTurn ? s.legalMoves : [])
        let over = s.phase == .finished || s.phase == .stopped
        // The race: an arrow slides the tile that moves that way (PROTOCOL `games/fifteen.md`), `g` gives up.
        if s.game.hasPrefix("fifteen"), s.isMyTurn, typed.isEmpty, let name = Self.fifteenMove(key),
            let option = options.first(where: { $0.key == name })
        {
            notice = nil
            // Giving up cannot be undone: it is asked first, as leaving is.
            if name == "give-up" {
                mode = .confirmGiveUp(option.json)
                return .none
            }
            return .play(option.json)
        }
        switch key {
        case .left, .up:
            if !options.isEmpty { selected = (selected + options.count - 1) % options.count }
        case .right, .down:
            if !options.isEmpty { selected = (selected + 1) % options.count }
        case .home: selected = 0
        case .end: selected = max(0, options.count - 1)
        case .backspace: if !typed.isEmpty { typed.removeLast() }
        case .escape:
            typed = ""
            notice = nil
        case .endOfInput: return .detach
        case .character("?") where typed.isEmpty: mode = .rules(offset: 0)
        case .character("q") where typed.isEmpty, .character("Q") where typed.isEmpty:
            if over || s.mySeat == nil { return .detach }
            mode = .confirmQuit
        case .character(let c): typed.append(c)
        case .enter:
            let text = typed
            typed = ""
            guard s.isMyTurn else {
                notice = over ? "the game is over: q to close" : "not your turn yet"
                return .none
            }
            if text.trimmingCharacters(in: .whitespaces).isEmpty {
                guard options.indices.contains(selected) else { return .none }
                notice = nil
                return .play(options[selected].json)
            }
            guard let i = GameBoards.match(text, in: options) else {
                notice = "not one of your moves: \(text) (type a number 1-\(options.count) or a move as listed)"
                return .none
            }
            selected = i
            notice = nil
            return .play(options[i].json)
        case .pageUp, .pageDown: break
        }
        return .none
    }
}
