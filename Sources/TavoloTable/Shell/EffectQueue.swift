import TavoloProtocol

/// The table shell's effects in the order the machines asked for them, held back while a game log is written: what
/// follows a `.persist` is carried out only once the write is done, and effects of later inputs queue behind it, so
/// nothing overtakes anything. Hence a move is journaled before this node sends it or confirms it (PROTOCOL.md §9.9),
/// and a game's end is told to clients only once its log and record are written. Pure: the shell does the work.
///
/// Writes still queued behind the one handed out are folded into it (`foldLaterWrites`): a node whose bot moves right
/// after the move it received journals both in one disk job, not two, each a round trip to the disk's thread.
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
    /// Writes folded into the one under way: each counts as carried out once that write is done.
    private var folded = 0

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

    /// Takes every `.persist` still queued out of the queue, oldest first, to be written with the one just handed
    /// out. A save brings the disk up to the log it is given (a journal append of what it lacks, or the whole log),
    /// so writing them with it leaves the disk as writing them one by one would; the effects that were between them
    /// stay in order and wait for this write, as they waited for theirs. Nothing while no write is under way.
    mutating func foldLaterWrites() -> [GameLog] {
        guard writing, head < items.count else { return [] }
        var logs: [GameLog] = []
        var kept: [Item] = []
        for item in items[head...] {
            if case .persist(let log) = item.effect { logs.append(log) } else { kept.append(item) }
        }
        guard !logs.isEmpty else { return [] }
        items.replaceSubrange(head..., with: kept)
        folded += logs.count
        return logs
    }

    /// The write handed out last (with those folded into it) is done: the effects after it may go.
    mutating func written() {
        writing = false
        done += 1 + folded
        folded = 0
    }
}
