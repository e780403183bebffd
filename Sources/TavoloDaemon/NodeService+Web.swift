import Foundation
import TavoloControl
import TavoloProtocol

extension NodeService {
    /// Posts a chat message of this node's user to the lobby (every connected peer) or a table (its members).
    func sendChat(room: String, text: String) async -> Result<ChatSent, ControlFailure> {
        guard ChatMessage.isRoom(room) else {
            return .failure(
                ControlFailure(code: .chatBadRoom, message: "a room is 'lobby' or a table id, not '\(room)'"))
        }
        var recipients: [NodeID]
        if room == ChatMessage.lobby {
            recipients = await mesh.peerList().filter { $0.state == .connected }.map(\.id)
        } else {
            guard let table = await tables.list().first(where: { $0.id.rawValue == room }) else {
                return .failure(ControlFailure(code: .tableUnknown, message: "no table \(room) here"))
            }
            guard table.members.contains(mesh.id) else {
                return .failure(
                    ControlFailure(
                        code: .chatNotMember, message: "only the members of table \(room) chat there: take a seat first"
                    ))
            }
            recipients = table.members.filter { $0 != mesh.id }
        }
        switch chat.outgoing(room: room, text: text) {
        case .failure(let f): return .failure(f)
        case .success(let message):
            guard let body = try? WireJSON.encode(message) else {
                return .failure(ControlFailure(code: .chatBadText, message: "cannot encode the message"))
            }
            recipients.sort()
            mesh.post(body, service: .chat, to: recipients)
            return .success(ChatSent(sent: recipients.count))
        }
    }

    /// `chat-log`: the recent messages; with `follow`, then each new one as a `{"chat": …}` line.
    func chatLog(_ id: Int?, room: String?, follow: Bool) -> ControlReply {
        // Subscribe before reading the history, so nothing falls between the two.
        let stream = follow ? chat.follow(room: room) : nil
        let first = (try? WireJSON.encode(ControlResponse(id: id, result: chat.recent(room: room)))) ?? []
        guard let stream else { return .line(first) }
        let lines = AsyncStream<[UInt8]> { continuation in
            let task = Task {
                for await entry in stream { continuation.yield((try? WireJSON.encode(ChatLine(chat: entry))) ?? []) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return .stream(first: first, rest: lines)
    }
}
