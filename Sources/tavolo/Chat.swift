import ArgumentParser
import Foundation
import TavoloControl
import TavoloCore
import TavoloProtocol

/// `tavolo chat`: say something in the lobby or at a table, or read what is said (PROTOCOL.md §12).
struct Chat: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Chat with the nodes nearby: send a message to the lobby or a table, or read them.",
        discussion: """
            With words: sends them (at most \(ChatMessage.maxTextBytes) bytes; control characters are removed). \
            Without: prints the recent messages; --follow then prints each new one until interrupted.
            Examples: tavolo chat --node alice hello all · tavolo chat --node alice --room 3a1b2c4d-1 good game \
            · tavolo chat --node alice --follow
            """)

    @OptionGroup var nodeOptions: NodeOptions

    @Option(
        help:
            "'lobby' (every node nearby) or a table id (its players). Sending: the lobby by default; reading: every room."
    )
    var room: String?

    @Flag(help: "After the recent messages, print new ones as they come, until interrupted.")
    var follow = false

    @Flag(help: "Print JSON: the send result, or one {room, from, fromId, text, mine, at} object a line.")
    var json = false

    @Argument(help: "The message; none to read instead.")
    var words: [String] = []

    func validate() throws {
        guard room.map(ChatMessage.isRoom) ?? true else { throw ValidationError("--room is 'lobby' or a table id") }
        if !words.isEmpty && follow { throw ValidationError("give a message or --follow, not both") }
    }

    func run() throws {
        let client = try nodeOptions.connect(timeout: follow ? nil : 10)
        do {
            if !words.isEmpty {
                let room = self.room ?? ChatMessage.lobby
                let sent = try client.call(.chat(room: room, text: words.joined(separator: " ")))
                if json {
                    print(String(decoding: try CanonicalJSON.encode(sent), as: UTF8.self))
                } else {
                    print("sent to \(sent.sent) node\(sent.sent == 1 ? "" : "s") (\(room))")
                }
                return
            }
            let writers = ChatWriters()
            for entry in try client.call(.chatLog(room: room, follow: follow)) {
                show(entry, writers)
            }
            while follow {
                let line = try client.readLine()
                if let e = try? WireJSON.decode(ChatLine.self, line) { show(e.chat, writers) }
            }
        } catch {
            throw CleanExit.failure("\(error)")
        }
    }

    func show(_ e: ChatEntry, _ writers: ChatWriters) {
        if json {
            print(String(decoding: (try? CanonicalJSON.encode(e)) ?? [], as: UTF8.self))
        } else {
            let time = Date(timeIntervalSince1970: Double(e.at) / 1000).formatted(date: .omitted, time: .shortened)
            let place = e.room == ChatMessage.lobby ? "" : " @\(e.room)"
            print("\(time) \(Terminal.printable(writers.shown(e)))\(place): \(Terminal.printable(e.text))")
        }
        fflush(nil)
    }
}

/// The writers seen so far: one whose name looks like another writer's is shown with its node id (§4.1).
final class ChatWriters {
    private var entries: [(name: String, node: String?)] = []

    func shown(_ e: ChatEntry) -> String {
        if !entries.contains(where: { $0.name == e.from && $0.node == e.fromId.hex }) {
            entries.append((e.from, e.fromId.hex))
        }
        let names = PeerNameDisplay.names(entries + [(e.from, e.fromId.hex)])
        return names[names.count - 1]
    }
}
