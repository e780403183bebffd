import GRDB

/// Every seat owner signs (PROTOCOL.md §11.7): the owner of a bot's seat as well as a person's. Before, a game of
/// bots alone was complete with any one owner's signature, so anyone could name a victim's node at bot seats it never
/// played: the record was kept, listed as the victim's own game and counted for its bots.
extension RecordStore {
    /// Records kept as signed under the earlier rule are checked again: one a peer sent that this node never signed
    /// goes (a receiver refuses it now, §11.4 step 7); any other stays, unverified until the missing signatures come.
    /// The leaderboards are then counted again from the records still signed.
    static func migrateSeatOwnerSignatures(_ m: inout DatabaseMigrator, me: String) {
        m.registerMigration("v8-every-seat-owner-signs") { db in
            let incomplete = """
                SELECT r.id FROM record r WHERE r.verified AND EXISTS (
                    SELECT 1 FROM seat s WHERE s.recordID = r.id
                      AND NOT EXISTS (SELECT 1 FROM signature g WHERE g.recordID = r.id AND g.node = s.node))
                """
            let refused = try String.fetchAll(
                db,
                sql: """
                    SELECT id FROM record WHERE source = 'peer' AND id IN (\(incomplete))
                      AND NOT EXISTS (SELECT 1 FROM signature g WHERE g.recordID = record.id AND g.node = ?)
                    """, arguments: [me])
            // A migration runs with foreign keys off: no cascade, each table is emptied of them by name.
            let deletes =
                ["seat", "signature", "forfeit"].map { "DELETE FROM \($0) WHERE recordID = ?" } + [
                    "DELETE FROM record WHERE id = ?"
                ]
            for id in refused {
                for sql in deletes { try db.cachedStatement(sql: sql).execute(arguments: [id]) }
            }
            var changed = refused.count
            try db.execute(sql: "UPDATE record SET verified = 0 WHERE id IN (\(incomplete))")
            changed += db.changesCount
            if changed > 0 { try Standings.recount(db) }
        }
    }

    /// Records this node signed that still lack the signature of `peer`, a seat owner (newest first, at most
    /// `limit`): `peer` may never have had this node's signature (it was not connected when the game ended here, or
    /// this node signed at start), so it is sent again when `peer` connects, and `peer` answers with its own.
    public func awaitingSignature(of peer: String, limit: Int) throws -> [String] {
        // From the peer's seats (indexed by node): a key that never sat at a game here costs one index probe.
        let ids = try pool.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT r.id FROM seat s JOIN record r ON r.id = s.recordID
                    WHERE s.node = ? AND NOT r.verified
                      AND EXISTS (SELECT 1 FROM signature g WHERE g.recordID = r.id AND g.node = ?)
                      AND NOT EXISTS (SELECT 1 FROM signature g WHERE g.recordID = r.id AND g.node = s.node)
                    ORDER BY s.endedAt DESC LIMIT ?
                    """, arguments: [peer, me, limit])
        }
        // A node with two seats at one game is listed twice.
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}
