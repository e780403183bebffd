import Foundation
import Logging
import TavoloControl
import TavoloCore
import TavoloGames
import TavoloMesh
import TavoloProtocol
import TavoloRecordFormat
import TavoloRecords
import TavoloTable

/// The node's records (TavoloRecords): opened at start, written when a table ends, shared with peers.
final class NodeRecords: Sendable {
    let store: RecordStore
    let sync: RecordSync
    /// Signs the record of every game this node played (§11.7).
    let signer: RecordSigner

    init(store: RecordStore, sync: RecordSync, signer: RecordSigner) {
        self.store = store
        self.sync = sync
        self.signer = signer
    }

    /// Opens `records.sqlite` (importing the game logs on first start), or rebuilds it with `rebuild`. A broken
    /// database is one line for the user, with the way out.
    static func open(options: NodeService.Options, me: NodeID, logger: Logger) throws(NodeService.StartError)
        -> RecordStore
    {
        do {
            if options.rebuildRecords {
                let (store, n, moved) = try RecordStore.rebuild(stateDirectory: options.stateDirectory, me: me.hex)
                logger.notice(
                    "records rebuilt from \(n) game logs\(moved.map { "; the old database is now \($0)" } ?? "")")
                return store
            }
            try FileManager.default.createDirectory(
                atPath: options.stateDirectory, withIntermediateDirectories: true)
            let (store, imported) = try RecordStore.open(stateDirectory: options.stateDirectory, me: me.hex)
            if imported > 0 { logger.notice("records: imported \(imported) games from the game logs") }
            return store
        } catch let e as RecordStore.OpenError {
            throw NodeService.StartError(e.description)
        } catch {
            throw NodeService.StartError("cannot create \(options.stateDirectory): \(error.localizedDescription)")
        }
    }

    /// Records a table that ended, synchronously: the transaction commits before the table's end is told to
    /// local clients, so a game reported finished is on disk (called by the table shell on its disk's thread, never
    /// on the mesh's loop: the shell holds the end's event back until this returns).
    func tableEnded(_ log: GameLog, logger: Logger) {
        guard let made = RecordedGame.withBody(log, startedAt: nil, endedAt: log.endedAt ?? 0) else { return }
        // This node signs what it played; the other seat owners' signatures come from them (`ownRecordStored`).
        let mine = signer.sign(recordID: made.record.id).map { [$0] } ?? []
        let owners = Set(made.body.seats.map(\.node)).subtracting([signer.node])
        do {
            let stored = try store.insert([SignedRecord(made.record, made.body, signatures: mine)], source: .local) == 1
            // Already held (a member's copy came first): this node's signature is added to it.
            if !stored { try store.addSignatures(mine, recordID: made.record.id) }
            // Told either way: this node's signature may be the one that completes a member's copy held already.
            Task {
                await sync.recordsAdded([made.record.id])
                await sync.ownRecordStored(made.record.id, seatOwners: owners)
            }
        } catch {
            logger.error("cannot record table \(log.table.id): \(error)")
        }
    }
}

extension NodeService {
    func answerRecords(_ id: Int?, _ request: ControlRequest) -> ControlReply {
        func ok<R: Codable & Sendable>(_ r: R) -> ControlReply { .ok(r, id: id) }
        func fail(_ code: ControlErrorCode, _ message: String) -> ControlReply { .failure(code, message, id: id) }
        let store = records.store
        do {
            switch request {
            case .history(let game, let player): return ok(try store.history(game: game, player: player))
            case .scores(let game): return ok(try store.scores(game: game, catalog: .standard))
            case .record(let table):
                let found = try store.stored(table: table)
                guard !found.isEmpty else { return fail(.recordsUnknown, "no recorded game of table '\(table)'") }
                return ok(found)
            default: return fail(.controlBadRequest, "not a records request")
            }
        } catch {
            return fail(.recordsFailed, "the records database failed: \(error)")
        }
    }
}
