/// What binds every secret and proof of a sealed deck to one table and one member (§14.2): the table id, the
/// member's index among the participants (participant order, §9), and a deal number where a value belongs to a deal.
/// A proof copied from another table, member or deal does not verify.
public struct SealedContext: Hashable, Sendable {
    public let tableId: String

    public init(tableId: String) {
        precondition(tableId.utf8.count <= 64)
        self.tableId = tableId
    }

    /// A transcript under `label` that starts with the table id (`string`, §2).
    func transcript(_ label: String) -> SealedTranscript {
        var t = SealedTranscript(label: label)
        t.append(string: tableId)
        return t
    }
}
