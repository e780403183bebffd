import Logging
import TavoloMesh
import TavoloProtocol
import TavoloRecords
import TavoloTable

extension NodeService {
    /// The services of this node and what each takes (PROTOCOL.md §3.9): tables take JSON, compact and datagrams;
    /// records and chat take JSON on the reliable channel only.
    static func router(tables: TableManager, records: RecordSync, chat: ChatHub, logger: Logger) -> ServiceRouter {
        ServiceRouter(
            [
                // The table actor runs on the mesh's event loop, where the router is called: handled there, in
                // order, with no hop.
                .tables: .init(takes: [.json, .compact, .datagram]) { m in
                    tables.assumeIsolated { tables in
                        switch m.channel {
                        case .reliable: tables.received(m.body, form: m.form, from: m.from)
                        case .unreliable: tables.receivedDatagram(m.body, form: m.form, from: m.from)
                        }
                    }
                },
                // Records are checked off the loop, by the sync actor.
                .records: .init(takes: [.json]) { m in records.post(.message(m.body, from: m.from)) },
                // A table room is for that table's members, which the table actor knows.
                .chat: .init(takes: [.json]) { m in
                    tables.assumeIsolated { tables in
                        chat.received(m.body, from: m.from) { room in
                            tables.list().first { $0.id.rawValue == room }?.members
                        }
                    }
                },
            ], logger: logger)
    }
}
