import TavoloProtocol

/// The table shell's effects in the order the machines asked for them, held back while a game log is written: what
/// follows a `.persist` is carried out only once the write is done, and effects of later inputs queue behind it, so
/// nothing overtakes anything. Hence a move is journaled before this node sends it or confirms it (PROTOCOL.md §9.9),
/// and a game's end is told to clients only once its log and record are written. Pure: the shell does the work.
struct EffectQueue {
    /// One effect, and the peer whose message caused it (its log lines are rate-limited per peer).
    typealias Item = (effect: TableEffect, about: NodeID?)

    /// A `.persist` was handed out and its write is not done: nothing more is handed out until `written()`.
    private(set) var writing = false
    private var items: [Item] = []
    private var head = 0

    /// The effects waiting, a write included.
    var count: Int { items.count - head }
    /// Effects appended since the start, and those of them carried out (a write once it is done): a reader waits
    /// for `done` to reach what `appended` was when it asked (`TableManager.settled`).
    private(set) var appended = 0
    private(set) var done = 0

    mutating func append(_ effects: [TableEffect], about peer: NodeID?) {
        items.append(contentsOf: effects.map { ($0, peer) })
        appended += effects.count
    }

    /// The next effect to carry out, or nil while a write is under way or when none is waiting. A `.persist`
    /// handed out starts a write.
    mutating func next() -> Item? {
        guard !writing, head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        if case .persist = item.effect { writing = true } else { done += 1 }
        return item
    }

    /// The write handed out last is done: the effects after it may go.
    mutating func written() {
        writing = false
        done += 1
    }
}
