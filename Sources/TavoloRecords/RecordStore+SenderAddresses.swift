import GRDB

/// The address each kept record came from, for the per-address share of the disk (PROTOCOL.md §11.3 step 5).
///
/// Stored with the record rather than counted in memory from the peers that connect: a node id says nothing about
/// the address after a restart, so an address that filled its share under some keys could fill it again under
/// fresh keys once the node restarted. Records kept before this column existed have no address: they still count
/// for their sender and for all peers.
extension RecordStore {
    static func migrateSenderAddresses(_ m: inout DatabaseMigrator) {
        m.registerMigration("v6-sender-addresses") { db in
            try db.alter(table: "record") { t in t.add(column: "receivedFromAddress", .text) }
            try db.create(index: "record_on_receivedFromAddress", on: "record", columns: ["receivedFromAddress"])
        }
    }

    /// Records kept that peers at `address` (the host of their connections) sent, whatever their keys.
    public func receivedCount(fromAddress address: String) -> Int {
        let sql = "SELECT COUNT(*) FROM record WHERE receivedFromAddress = ?"
        return ((try? pool.read { try Int.fetchOne($0, sql: sql, arguments: [address]) }) ?? nil) ?? 0
    }
}
