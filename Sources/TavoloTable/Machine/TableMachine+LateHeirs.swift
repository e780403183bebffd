import TavoloCore
import TavoloProtocol

/// An heir named before this node knew it was out (PROTOCOL.md §9.12). The heir of seats passing at move `p` is
/// named leaving out every member agreed out below `p`. A forfeit (or an agreement) still in flight when those seats
/// pass here is learned afterwards: this node named that member heir, where the nodes that had it first named the
/// next one. The heir is named again once it is known, as they named it; the seats' bot is the same whoever its
/// heir is (every member runs it from the game seed), so only the owner and the log change.
extension TableMachine {
    /// `member`'s takeover, agreed at `number`, came after seats passing above `number` were handed to it here.
    mutating func renameHeirs(passedTo member: NodeID, outBelow number: Int) {
        guard var logged = log.takeovers else { return }
        var renamed = false
        for i in logged.indices where logged[i].heir == member && logged[i].appliedAt > number {
            // As it is named when seats pass: those passed before this one, and those out below its point, are no heirs.
            let passedBefore = Set(logged[..<i].map(\.member))
            guard let heir = heir(of: logged[i].member, at: logged[i].appliedAt, passed: passedBefore) else { continue }
            renamed = true
            logged[i].heir = heir
            for seat in logged[i].seats where info.seats[safe: seat]?.owner == member {
                info.seats[seat].owner = heir
                info.seats[seat].ownerName = ctx.name(heir)
            }
            let seats = logged[i].seats.map(String.init).joined(separator: ", ")
            out.append(
                .log(
                    .notice,
                    "table \(id): seats \(seats) pass to \(ctx.name(heir)), not \(ctx.name(member)), out before"))
        }
        guard renamed else { return }
        log.takeovers = logged
        log.table = info
        persist()
    }
}
