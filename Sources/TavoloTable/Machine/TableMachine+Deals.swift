import TavoloCore
import TavoloProtocol

/// Host-dealt decks checked against the joint seed (PROTOCOL.md §9.4, §9.13): the host deals, every member checks
/// each deal before the moves it opens, and a deal from a member that is not the host is kept (from the host's
/// successor, or while the host is away) or stops the table.
extension TableMachine {
    /// Host: deals the current deal if it has not yet (the deck order the joint seed gives).
    mutating func dealIfHost() {
        guard isHost, let s = session, let cards = s.currentDeal, dealsSent < s.dealNumber else { return }
        play?.dealsSent = s.dealNumber
        inbox.deals[s.dealNumber] = cards
        sendToTable(.deal(table: id, number: s.dealNumber, cards: cards))
    }

    mutating func handleDeal(from: NodeID, number: Int, cards: [UInt8]) {
        // A former host voted out may deal before it learns it is out: it has no say (§9.12).
        guard info.isMember(from), !replaced.contains(from), checks, !info.phase.isOver else {
            return dropped(.deal(table: id, number: number, cards: cards), from: from)
        }
        // A deal this node already checked, sent again (by a new host, §9.13, that another member may not know yet
        // as the host): no news, from any member.
        if number <= verifiedDeal, log.deals.contains(where: { $0.number == number && $0.cards == cards }) { return }
        guard from == info.host else {
            // The host is away: a takeover of it may be agreed elsewhere first, and its successor deal before this
            // node agrees it. Or the sender is the host's successor: the host's forfeit may be on its way on another
            // connection. The deal waits until the sender is the host here (§9.13).
            let early = absent.contains(info.host) || from == hostSuccessor
            if early, inbox.dealsFromSuccessor.count < Self.maxPending {
                inbox.dealsFromSuccessor[number] = (from, cards)
                return
            }
            stop(.dealNotHost, "\(ctx.name(from)) dealt but is not the host", broadcast: true)
            return
        }
        guard inbox.deals[number] == nil, number > verifiedDeal else { return }
        inbox.deals[number] = cards
        progress()
    }

    /// The current deal, checked against the joint seed once the host's arrives; false while it is awaited, or when
    /// it is wrong (the table stops).
    mutating func checkCurrentDeal(_ s: any GameSession) -> Bool {
        guard s.currentDeal != nil && verifiedDeal < s.dealNumber else { return true }
        dealIfHost()
        guard let cards = inbox.deals[s.dealNumber] else {
            awaitPeer(.deal(id, number: s.dealNumber))
            return false
        }
        guard cards == s.currentDeal else {
            let reason = "the host's deal \(s.dealNumber) is not the shuffle of joint seed \(jointSeed ?? 0)"
            stop(.dealMismatch, reason, broadcast: true)
            return false
        }
        play?.verifiedDeal = s.dealNumber
        stopAwaiting(.deal(id, number: s.dealNumber))
        dealsChecked += 1
        log.deals.append(GameLog.LoggedDeal(number: s.dealNumber, cards: cards))
        emit(.dealt(number: s.dealNumber, message: "deal \(s.dealNumber) checked against the joint seed"))
        return true
    }
}
