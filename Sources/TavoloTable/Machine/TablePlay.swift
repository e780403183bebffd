/// Play, from the joint seed on (`TablePlayState`), kept in a box with copy-on-write: a copy of the stage, which every
/// read of one of play's fields made (the enum's payload is a value), costs one retain instead of a retain and
/// release of each of its collections, and a change made through `_modify` changes the box in place. Copies still
/// behave as values: the first change to a shared box copies it (`isKnownUniquelyReferenced`).
@dynamicMemberLookup
struct TablePlay {
    private final class Box {
        var state: TablePlayState
        init(_ state: TablePlayState) { self.state = state }
    }

    private var box: Box

    init(seed: UInt64, sequencer: MoveSequencer, round: SeedRound) {
        box = Box(TablePlayState(seed: seed, sequencer: sequencer, round: round))
    }

    @inline(__always)
    subscript<Value>(dynamicMember path: KeyPath<TablePlayState, Value>) -> Value {
        box.state[keyPath: path]
    }

    @inline(__always)
    subscript<Value>(dynamicMember path: WritableKeyPath<TablePlayState, Value>) -> Value {
        get { box.state[keyPath: path] }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.state) }
            yield &box.state[keyPath: path]
        }
    }
}
