import Foundation
import TavoloControl

extension Simulation {
    /// Bytes and frames sent, all nodes together and each node's.
    typealias Traffic = (bytes: Int, frames: Int, nodes: [(bytes: Int, frames: Int)])

    /// Reliable bytes and frames every node has sent so far (0 for a node that does not answer), and their sums.
    static func traffic(_ clients: [ControlClient]) -> Traffic {
        let nodes = clients.map { c -> (bytes: Int, frames: Int) in
            guard let s = try? c.call(.status) else { return (0, 0) }
            return (s.stats.bytesSent, s.stats.framesSent)
        }
        return (nodes.reduce(0) { $0 + $1.bytes }, nodes.reduce(0) { $0 + $1.frames }, nodes)
    }

    /// The traffic once the nodes have sent nothing but heartbeats for 1.5 s, at most 20 s on: the records sync
    /// after a game included, the idle links' heartbeats after it not. A heartbeat or its ack is a 10-byte header and
    /// a JSON object of about 30 bytes (§4.2, §4.3); a stretch whose frames are at most `heartbeatBytes` on average
    /// is heartbeats (what records sync sends after a game, signatures and summaries, is hundreds of bytes a frame).
    static func quietTraffic(_ clients: [ControlClient]) -> Traffic {
        let heartbeatBytes = 64
        let deadline = Date().addingTimeInterval(20)
        var mark = traffic(clients)
        var markedAt = Date()
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.25)
            let now = traffic(clients)
            if now.bytes - mark.bytes > heartbeatBytes * (now.frames - mark.frames) {
                mark = now
                markedAt = Date()
            } else if Date().timeIntervalSince(markedAt) >= 1.5 {
                break
            }
        }
        return mark
    }
}
