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

    /// A race's takeover of `member`, agreed at count `number`, came after a seatless member's takeover at the same
    /// count had passed here, one that passes after it (a higher id: takeovers at one count pass in the order of their
    /// members' ids, §10.6). Where both were known, `member`'s seats passed first and their heir may be that seatless
    /// member (out at `number`, not below it), which then passed them on. The seatless takeover had changed no seat:
    /// it is taken back, to pass again in that order.
    mutating func takeBackSeatlessTakeovers(passingAfter member: NodeID, at number: Int) {
        guard isRace, let logged = log.takeovers else { return }
        let back = logged.filter { $0.seats.isEmpty && $0.appliedAt == number && member < $0.member }
        guard !back.isEmpty else { return }
        log.takeovers = logged.filter { !back.contains($0) }
        for t in back {
            play?.absence.agreed.append(
                AgreedTakeover(
                    member: t.member, number: t.number, bot: t.bot, forfeit: t.forfeit, signature: t.signature))
            out.append(
                .log(.notice, "table \(id): \(ctx.name(t.member))'s takeover passes again, after \(ctx.name(member))'s")
            )
        }
        persist()
    }
}
