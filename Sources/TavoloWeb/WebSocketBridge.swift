import Foundation
import HummingbirdWebSocket
import Logging
import TavoloControl
import TavoloCore
import TavoloProtocol

/// One page's WebSocket: each text message is a control request line (PROTOCOL.md §7), answered with the same
/// response lines the control socket sends; `events` and `chat-log --follow` streams go on over the same socket.
/// All writes go through one queue, so lines never interleave.
struct WebSocketBridge {
    let dispatch: ControlDispatcher
    let logger: Logger

    /// Streams one page may hold open at once (events, chat): more is a page gone wrong.
    static let maxStreams = 8

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        let (lines, sink) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let writer = Task {
            for await line in lines {
                do { try await outbound.write(.text(line)) } catch { break }
            }
        }
        let streams = StreamCount()
        let dispatch = self.dispatch
        // One child task per request (a stream lives as long as the socket); a discarding group keeps nothing
        // of those that are done, and cancels the streams when the page goes.
        await withDiscardingTaskGroup { group in
            do {
                for try await message in inbound.messages(maxSize: ControlSocket.maxLineLength) {
                    guard case .text(let text) = message else { continue }
                    group.addTask {
                        switch await Self.answer(Array(text.utf8), dispatch: dispatch) {
                        case .line(let bytes): sink.yield(String(decoding: bytes, as: UTF8.self))
                        case .stream(let first, let rest):
                            guard streams.take() else {
                                let refusal = ControlFailure(code: .webTooManyStreams, message: "too many open streams")
                                sink.yield(String(decoding: refusal.line(id: nil), as: UTF8.self))
                                return
                            }
                            defer { streams.give() }
                            sink.yield(String(decoding: first, as: UTF8.self))
                            for await bytes in rest {
                                if Task.isCancelled { break }
                                sink.yield(String(decoding: bytes, as: UTF8.self))
                            }
                        }
                    }
                }
            } catch {
                logger.debug("page WebSocket: \(error)")
            }
            group.cancelAll()
        }
        sink.finish()
        await writer.value
    }

    /// The control socket's parsing (`ControlRequestLine`), minus what a page must never do (`inject`, even on a
    /// test node).
    static func answer(_ line: [UInt8], dispatch: ControlDispatcher) async -> ControlReply {
        switch ControlRequestLine.decode(line) {
        case (let id, .failure(let failure)): return .failure(failure, id: id)
        case (let id, .success(.inject)):
            return .failure(.controlForbidden, "inject is not available to the page", id: id)
        case (let id, .success(let request)): return await dispatch(id, request)
        }
    }
}

final class StreamCount: @unchecked Sendable {
    private let lock = NSLock()
    private var open = 0

    func take() -> Bool {
        lock.withLock {
            guard open < WebSocketBridge.maxStreams else { return false }
            open += 1
            return true
        }
    }

    func give() { lock.withLock { open -= 1 } }
}
