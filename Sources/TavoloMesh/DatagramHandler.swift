import Logging
import NIOCore
import TavoloProtocol

/// What a received datagram came to (PROTOCOL.md §4.6); each is counted in `MeshStats`.
enum DatagramVerdict: Sendable {
    /// All four checks held: passed to the application.
    case accepted
    /// Check 4 failed: not newer than the last one accepted from that sender.
    case stale
    /// Checks 2–3 failed: not from a connected peer at its address.
    case rejected
}

/// Decides on well-formed datagrams from connected peers; the node, which knows the peers.
protocol DatagramHandlerDelegate: AnyObject {
    func datagram(_ datagram: Datagram, from address: SocketAddress) -> DatagramVerdict
    /// A v2 datagram (§4.6) that claims `sender` and `seq`: the delegate authenticates it with that peer's key.
    /// `bytes` are the received buffer's, valid only during the call.
    func sealedDatagram(_ bytes: UnsafeRawBufferPointer, sender: NodeID, seq: UInt64, from address: SocketAddress)
        -> DatagramVerdict
}

/// Receives UDP datagrams: refuses what is not a valid datagram frame (check 1, a body that is not JSON
/// included), asks the delegate about the rest, and counts every datagram under exactly one verdict.
final class DatagramHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    weak var delegate: DatagramHandlerDelegate?
    private let tap: TrafficTap
    private let logger: Logger
    /// The test hook's share of datagrams lost on purpose (`MeshConfiguration.datagramDropShare`).
    private let dropShare: Double

    /// v2: datagrams are sealed (`DatagramSeal`); a clear one is rejected.
    private let sealed: Bool

    init(tap: TrafficTap, logger: Logger, sealed: Bool = false, dropShare: Double = 0) {
        self.sealed = sealed
        self.tap = tap
        self.logger = logger
        self.dropShare = dropShare
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if dropShare > 0, Double.random(in: 0..<1) < dropShare {
            tap.stats.datagramsDropped += 1
            return
        }
        var envelope = unwrapInboundIn(data)
        let verdict: DatagramVerdict
        if sealed {
            // Checked and opened where NIO read it: no copy of the datagram.
            let delegate = delegate
            verdict = envelope.data.withUnsafeReadableBytes { raw in
                guard let (sender, seq) = DatagramSeal.peek(raw) else { return .rejected }
                return delegate?.sealedDatagram(raw, sender: sender, seq: seq, from: envelope.remoteAddress)
                    ?? .rejected
            }
        } else if let bytes = envelope.data.readBytes(length: envelope.data.readableBytes),
            bytes.count <= FrameLimits.maxDatagramSize,
            case .datagram(let d)? = try? Frame.parse(
                bytes, maxPayload: FrameLimits.maxDatagramSize - FrameLimits.headerSize)
        {
            verdict = delegate?.datagram(d, from: envelope.remoteAddress) ?? .rejected
        } else {
            verdict = .rejected
        }
        switch verdict {
        case .accepted: tap.stats.datagramsReceived += 1
        case .stale: tap.stats.datagramsStale += 1
        case .rejected: tap.stats.datagramsRejected += 1
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A UDP error (e.g. ICMP port unreachable) concerns one send; the socket stays open.
        logger.debug("udp: \(error)")
    }
}
