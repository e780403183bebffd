import TavoloProtocol

/// An open table's offer waiting to go out, and every node it is for.
struct HeldOffer {
    var offer: TableMessage
    var to: Set<NodeID>
    var timer: (any TableTimerHandle)?
}

/// A host offers its table to every connected node on every change of seats (PROTOCOL.md §9.1), and seats are often
/// taken within a few milliseconds of each other: six players joining sent six offers of ~630 bytes to every peer, the
/// host's largest traffic. While a table is open its offer is held for `offerHold` and a newer one replaces it, so a
/// burst of seats goes out as one offer with the latest revision (a receiver keeps the highest revision anyway). Order
/// is kept: any other message of the table, or an offer of another phase (the start), sends or replaces the held offer
/// first, so no node sees a table's seeding before its seats. A node the offer seats for the first time gets it at
/// once: the other members' commitments may reach it before the start's offer, and a node keeps those only once it
/// knows it is seated (§9.3).
extension TableManager {
    /// How long an open table's offer waits for the next change of seats.
    static let offerHold: Duration = .milliseconds(40)

    /// Sends `message` to `nodes`, holding an open table's offer as above.
    func send(_ message: TableMessage, to nodes: [NodeID]) {
        let id = message.table
        if case .offer(let info) = message {
            if info.phase == .open { return offerOpenTable(message, info, to: nodes) }
            toldSeated[id] = nil
            // A start (or any later phase) replaces the held offer: its revision is higher and it lists the same seats.
            if let held = heldOffers.removeValue(forKey: id) {
                held.timer?.cancel()
                return post(message, to: held.to.union(nodes).sorted())
            }
        } else if !heldOffers.isEmpty {
            releaseOffer(of: id)
        }
        post(message, to: nodes)
    }

    /// An open table's offer: at once to the nodes it seats for the first time, held for the others.
    private func offerOpenTable(_ offer: TableMessage, _ info: TableInfo, to nodes: [NodeID]) {
        let id = info.id
        let seated = Set(info.seats.compactMap(\.owner))
        let told = toldSeated[id] ?? []
        let newlySeated = nodes.filter { seated.contains($0) && !told.contains($0) }
        if !newlySeated.isEmpty {
            toldSeated[id, default: []].formUnion(newlySeated)
            post(offer, to: newlySeated)
        }
        let rest = nodes.filter { !newlySeated.contains($0) }
        if !rest.isEmpty || heldOffers[id] != nil { hold(offer, id, to: rest) }
        // They have the newest offer: the held one would tell them nothing.
        heldOffers[id]?.to.subtract(newlySeated)
    }

    private func hold(_ offer: TableMessage, _ id: TableID, to nodes: [NodeID]) {
        if heldOffers[id] != nil {
            heldOffers[id]?.offer = offer
            heldOffers[id]?.to.formUnion(nodes)
            return
        }
        var held = HeldOffer(offer: offer, to: Set(nodes))
        let fire: @Sendable () -> Void = { [weak self] in self?.assumeIsolated { $0.releaseOffer(of: id) } }
        held.timer =
            transport.schedule(after: Self.offerHold, fire)
            ?? TaskTimer(
                task: Task { [weak self] in
                    try? await Task.sleep(for: Self.offerHold)
                    guard !Task.isCancelled else { return }
                    await self?.releaseOffer(of: id)
                })
        heldOffers[id] = held
    }

    /// Sends the held offer of table `id`, if any, now.
    func releaseOffer(of id: TableID) {
        guard let held = heldOffers.removeValue(forKey: id) else { return }
        held.timer?.cancel()
        post(held.offer, to: held.to.sorted())
    }

    private func post(_ message: TableMessage, to nodes: [NodeID]) {
        do {
            let wire = try message.wire()
            transport.post(wire.bytes, form: wire.form, to: nodes)
        } catch {
            logger.error("cannot encode \(message.typeName): \(error)")
        }
    }
}
