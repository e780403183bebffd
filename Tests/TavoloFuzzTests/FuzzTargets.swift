// swift-format-ignore-file: NeverForceUnwrap

// (node ids made from 16 literal bytes)
import Foundation
import NIOCore
import NIOEmbedded
import TavoloControl
import TavoloCore
import TavoloGames
import TavoloProtocol
import TavoloTable
import TavoloTestSupport

@testable import TavoloDaemon
@testable import TavoloMesh

/// What one target saw: inputs tried, and how many got through its checks (a target that accepts nothing, or
/// everything, is not exploring).
struct FuzzTally {
    var inputs = 0
    var accepted = 0
}

/// The node's input paths from peers and local clients, each fed one input at a time.
enum FuzzTargets {
    /// Valid frames of every type, from the protocol's vectors.
    static func frameSeeds() throws -> [[UInt8]] {
        let valid = try ProtocolVectors.object("frames.json")["valid"] as? [[String: Any]] ?? []
        return valid.compactMap { ($0["hex"] as? String).flatMap { [UInt8](hexString: $0) } }
    }

    /// A TCP byte stream: split like the node does (first frame limited to 16 KiB), every frame's payload
    /// decoded; the stream ends at the first error, as the connection would.
    static func frameStream(_ bytes: [UInt8]) -> Bool {
        var buffer = ByteBuffer(bytes: bytes)
        var splitter = FrameSplitter(maxFirstPayload: FrameLimits.maxHandshakePayload)
        var decodedAny = false
        while true {
            do {
                guard var raw = try splitter.nextFrame(&buffer) else { return decodedAny }
                let frame = try FramePayloadDecoder.decode(&raw)
                decodedAny = true
                // What is accepted is what the limits allow.
                if case .application(_, let body) = frame { precondition(JSONSyntax.isWellFormed(body)) }
                if case .handshake(let h) = frame { precondition(h.violation == nil) }
            } catch {
                return decodedAny
            }
        }
    }

    /// One control line through the daemon's line decoder and request decoder.
    static func controlLines(_ bytes: [UInt8]) -> Bool {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineDecoder()))
        defer { _ = try? channel.finish() }
        guard (try? channel.writeInbound(ByteBuffer(bytes: bytes))) != nil else { return false }
        var decoded = false
        while let line = try? channel.readInbound(as: ByteBuffer.self) {
            let bytes = Array(line.readableBytesView)
            guard JSONSyntax.isWellFormed(bytes) else { continue }
            if (try? WireJSON.decode(ControlRequest.self, bytes)) != nil { decoded = true }
        }
        return decoded
    }

    static let controlSeeds: [[UInt8]] = [
        #"{"id":1,"op":"peers"}"#, #"{"op":"status"}"#, #"{"id":"x","op":"tables"}"#,
        #"{"game":"othello","id":2,"op":"host","players":2}"#, #"{"op":"join","seat":1,"table":"0000000a-1"}"#,
        #"{"bot":"random","game":"spirits","op":"join"}"#, #"{"bot":"random","op":"fill","table":"a-1"}"#,
        #"{"node":"n1","op":"invite","seat":0,"table":"a-1"}"#, #"{"op":"start","table":"a-1"}"#,
        #"{"move":"d3","op":"move","table":"a-1"}"#, #"{"move":{"card":12,"kind":"play"},"op":"move","table":"a-1"}"#,
        #"{"op":"leave","table":"a-1"}"#, #"{"op":"state","table":"a-1"}"#,
        #"{"kinds":["moved","stopped"],"op":"events"}"#,
        #"{"message":{"table":"a-1","type":"table.leave"},"op":"inject"}"#,
        #"{"op":"chat","room":"lobby","text":"ciao"}"#, #"{"follow":true,"op":"chat-log","room":"a-1"}"#,
        #"{"op":"web"}"#, #"{"op":"games"}"#, #"{"op":"discovery"}"#,
        "{\"op\":\"peers\"}\r\n{\"op\":\"status\"}\n",
    ].map { Array($0.utf8) }
}

/// A node (`a`) hosting an Othello table against `b`, already playing, fed table messages as if from `b` (a
/// member) or `c` (an outsider), with peers coming and going and timers firing in between.
struct TableFuzzNode {
    static let a = NodeID(bytes: [UInt8](repeating: 0, count: 15) + [0x0A])!
    static let b = NodeID(bytes: [UInt8](repeating: 0, count: 15) + [0x0B])!
    static let c = NodeID(bytes: [UInt8](repeating: 0, count: 15) + [0x0C])!

    var directory: TableDirectory
    let table: TableID
    var seeds: [[UInt8]] = []

    init() throws {
        var d = TableDirectory(
            context: TableContext(me: Self.a, myName: "a", catalog: .standard),
            nonces: .reproducible(seed: 1, nodeIndex: 0))
        _ = d.peerConnected(Self.b, name: "b")
        _ = d.peerConnected(Self.c, name: "c")
        let info = try d.host(game: "othello", players: 2).0.get()
        table = info.id
        _ = try d.request(table, .join(seat: 0, bot: nil)).0.get()
        _ = d.received(.seatRequest(table: table, seat: 1, bot: nil), from: Self.b)
        _ = try d.request(table, .start).0.get()
        let nonce = [UInt8](repeating: 7, count: JointSeed.nonceLength)
        _ = d.received(.commit(table: table, commitment: JointSeed.commitment(for: nonce)), from: Self.b)
        _ = d.received(.reveal(table: table, nonce: nonce.hexString), from: Self.b)
        directory = d
        guard d.tables[table]?.info.phase == .playing, let hash = d.tables[table]?.session?.stateHash.hex else {
            throw CocoaError(.featureUnsupported)
        }
        let t = "\"table\":\"\(table)\""
        let h = "\"\(hash)\""
        let offer = try CanonicalJSON.encode(TableMessage.offer(info))
        var foreign = info
        foreign.host = Self.c
        foreign.id = TableID("0000000c-1") ?? info.id
        seeds =
            [
                #"{"move":"c4","number":1,"seat":1,"stateHash":\#(h),\#(t),"type":"table.move"}"#,
                #"{"move":"d3","number":0,"seat":0,"stateHash":\#(h),\#(t),"type":"table.move"}"#,
                #"{"number":0,"stateHash":\#(h),\#(t),"type":"table.confirm"}"#,
                #"{"code":"move/illegal","number":0,"reason":"no",\#(t),"type":"table.reject"}"#,
                #"{"code":"hash/mismatch","reason":"forged",\#(t),"type":"table.stop"}"#,
                #"{"cards":[1,2,3],"number":1,\#(t),"type":"table.deal"}"#,
                #"{"finalHash":\#(h),"scores":[30,34],\#(t),"type":"table.result","winners":[1]}"#,
                #"{"commitment":"\#(String(repeating: "ab", count: 32))",\#(t),"type":"table.commit"}"#,
                #"{"nonce":"\#(String(repeating: "07", count: 32))",\#(t),"type":"table.reveal"}"#,
                #"{\#(t),"type":"table.leave"}"#, #"{"seat":1,\#(t),"type":"table.seat-request"}"#,
                #"{"reason":"taken",\#(t),"type":"table.seat-refused"}"#, #"{"seat":0,\#(t),"type":"table.invite"}"#,
            ].map { Array($0.utf8) } + [offer, try CanonicalJSON.encode(TableMessage.offer(foreign))]
    }

    /// Decodes like `TableManager.received` (after the mesh's checks) and feeds the directory.
    mutating func feed(_ bytes: [UInt8], _ rng: inout FuzzRNG) -> Bool {
        switch rng.below(40) {
        case 0: _ = directory.peerLost(rng.pick([Self.b, Self.c]))
        case 1: _ = directory.peerConnected(rng.pick([Self.b, Self.c]), name: rng.pick(["b", "c", "x"]))
        case 2:
            let timers: [TableTimer] = [
                .seeding(table), .seatRequest(table), .confirmations(table, move: rng.below(4)), .results(table),
                .deal(table, number: 1), .botMove(table, number: rng.below(4)), .expire(table),
            ]
            _ = directory.timerFired(rng.pick(timers))
        case 3: _ = directory.request(table, .move(.string(rng.pick(["d3", "c4", "f5", "e6", "a1"]))))
        default: break
        }
        guard JSONSyntax.isWellFormed(bytes), let m = try? CanonicalJSON.decode(TableMessage.self, bytes) else {
            return false
        }
        _ = directory.received(m, from: rng.pick([Self.b, Self.b, Self.c]))
        for (id, t) in directory.tables { precondition(t.info.id == id) }
        precondition(directory.tables.values.count { $0.info.host == Self.c } <= TableDirectory.maxTablesPerPeer)
        return true
    }
}
