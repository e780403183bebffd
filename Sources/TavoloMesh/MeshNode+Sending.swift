import NIOCore
import TavoloProtocol

/// Sending. `post` is the table layer's path (on the loop, no waiting); `send` and `broadcast` are the typed,
/// awaitable API. Both end in one place per channel: `PeerSession.write` for reliable, `sendDatagrams` for
/// unreliable.
extension MeshNode {
    /// Sends an application message (JSON-encoded) for `service` to one peer. Throws if it is not connected, if the
    /// message is over its channel's limit, or after shutdown.
    public func send<T: Encodable & Sendable>(
        _ message: T, service: Service, to peer: NodeID, on channel: MeshChannel = .reliable
    ) async throws {
        try await sendEncoded(try WireJSON.encode(message), service: service, to: [peer], on: channel)
    }

    /// Sends an application message for `service` to every connected peer; returns how many it was sent to.
    @discardableResult
    public func broadcast<T: Encodable & Sendable>(
        _ message: T, service: Service, on channel: MeshChannel = .reliable
    ) async throws -> Int {
        try await sendEncoded(try WireJSON.encode(message), service: service, to: nil, on: channel)
    }

    /// Queues a pre-encoded message for `service` for some connected peers on the reliable channel without
    /// waiting: JSON in an application frame, or a compact body (PROTOCOL.md §13) in a compact frame, as `form`
    /// says. Calls from one thread keep their order. Peers not connected are skipped. A body not of its form, or
    /// over the frame limit, is dropped with an error log: the peer would close the connection.
    ///
    /// The frame is encoded once, into one buffer that every peer's pipeline reads (each session seals it under
    /// its own key): a message to five peers costs one encoding, not five.
    public func post(_ body: [UInt8], service: Service, form: MessageForm = .json, to targets: [NodeID]) {
        let valid = form == .compact ? CompactMessage.isCompact(body) : JSONSyntax.isWellFormed(body)
        guard body.count < FrameLimits.maxReliablePayload, valid else {
            logger.error("dropping a \(service) message of \(body.count) bytes: not \(form), or over the frame limit")
            return
        }
        let type: MessageType = form == .compact ? .compact : .application
        let write: @Sendable () -> Void = {
            guard !self.isShutDown else { return }
            var frame: ByteBuffer?
            for t in targets {
                guard let s = self.peers[t]?.session else { continue }
                if frame == nil { frame = Self.frameBuffer(type: type, service: service, body: body) }
                if let frame { s.write(frame, type: type) }
            }
        }
        // On the loop already (an actor running on it): write now, keeping the caller's order.
        if loop.inEventLoop { write() } else { loop.execute(write) }
    }

    /// Header, service byte and message in one buffer, written once and shared by every peer it goes to.
    static func frameBuffer(
        type: MessageType, service: Service, body: [UInt8], allocator: ByteBufferAllocator = .init()
    ) -> ByteBuffer {
        var header: [UInt8] = []
        header.reserveCapacity(FrameLimits.headerSize)
        FrameHeader(type: type, length: UInt32(body.count + 1)).encode(into: &header)
        var buffer = allocator.buffer(capacity: header.count + 1 + body.count)
        buffer.writeBytes(header)
        buffer.writeInteger(service.rawValue)
        buffer.writeBytes(body)
        return buffer
    }

    /// Sends a pre-encoded message (JSON or a compact body) for `service` to some connected peers as datagrams
    /// without waiting (the table layer's live progress, PROTOCOL.md §10.4); peers not connected are skipped, and
    /// a datagram lost is lost.
    public func postDatagram(_ body: [UInt8], service: Service, to targets: [NodeID]) {
        let send: @Sendable () -> Void = {
            let connected = targets.filter { self.peers[$0]?.session != nil }
            guard !connected.isEmpty else { return }
            do { _ = try self.sendDatagrams(.init(service: service, message: body), to: connected) } catch {
                self.logger.debug("datagram not sent: \(error)")
            }
        }
        if loop.inEventLoop { send() } else { loop.execute(send) }
    }

    /// Sends pre-encoded JSON for `service` to some peers (nil = all connected). Throws if a named peer is not
    /// connected.
    @discardableResult
    func sendEncoded(_ body: [UInt8], service: Service, to targets: [NodeID]?, on channel: MeshChannel) async throws
        -> Int
    {
        switch channel {
        case .reliable:
            guard body.count < FrameLimits.maxReliablePayload else { throw MeshError.messageTooLarge(body.count + 1) }
            // Encoded once; every peer's pipeline reads the same buffer.
            let frame = Self.frameBuffer(type: .application, service: service, body: body)
            if let targets {
                // Fast path: check the targets against the snapshot here, then let the loop write without
                // waiting for it. A peer lost in between loses the message, as it would a moment later.
                let size = frame.readableBytes * targets.count
                let unsent = try sendState.withLockedValue { state -> Int in
                    guard !state.shutDown else { throw MeshError.shutDown }
                    if let missing = targets.first(where: { !state.connected.contains($0) }) {
                        throw MeshError.notConnected(missing)
                    }
                    state.unsentBytes += size
                    return state.unsentBytes
                }
                let write: @Sendable () -> Void = {
                    self.sendState.withLockedValue { $0.unsentBytes -= size }
                    guard !self.isShutDown else { return }
                    for t in targets { self.peers[t]?.session?.write(frame, type: .application) }
                }
                if loop.inEventLoop {
                    write()
                } else if unsent <= Self.maxUnsentBytes {
                    loop.execute(write)
                } else {
                    try await loop.submit(write).get()
                }
                return targets.count
            }
            return try await loop.submit {
                guard !self.isShutDown else { throw MeshError.shutDown }
                let sessions = try self.resolve(targets)
                for s in sessions { s.write(frame, type: .application) }
                return sessions.count
            }.get()
        case .unreliable:
            return try await loop.submit {
                try self.sendDatagrams(.init(service: service, message: body), to: targets)
            }.get()
        }
    }

    /// One datagram per target, all with the same sequence number (it counts datagrams, not deliveries), written
    /// together and flushed once. On v2 each is sealed straight into the buffer sent; the clear frame is encoded
    /// only on v1, or for the packet log.
    private func sendDatagrams(_ message: Datagram.Body, to targets: [NodeID]?) throws -> Int {
        guard !isShutDown, let udp else { throw MeshError.shutDown }
        let sessions = try resolve(targets)
        datagramSeq += 1
        let seq = datagramSeq
        let sealed = config.staticKey != nil
        // What is sealed: the service byte and the message (§4.6), so an observer does not learn the service.
        let body = message.bytes
        var clearFrame: [UInt8]?
        func clear() throws -> [UInt8] {
            if let clearFrame { return clearFrame }
            let datagram = Datagram(sender: id, seq: seq, service: message.service, body: message.message)
            let bytes = try Frame.datagram(datagram).encoded()
            clearFrame = bytes
            return bytes
        }
        let size = sealed ? body.count + DatagramSeal.overhead : try clear().count
        guard size <= FrameLimits.maxDatagramSize else { throw MeshError.datagramTooLarge(size) }
        var sent = 0
        for s in sessions {
            guard let pid = s.peerID, let peer = peers[pid], let address = peer.udpAddress else { continue }
            let data: ByteBuffer
            if sealed {
                guard let keys = peer.datagramKeys else { continue }
                data = DatagramSeal.seal(body: body, sender: id, seq: seq, key: keys.send, allocator: udp.allocator)
                if tap.recorder != nil, let bytes = try? clear() {
                    tap.capture(
                        udp.allocator.buffer(bytes: bytes), .sent, .udp, local: udp.localAddress, remote: address)
                }
            } else {
                data = udp.allocator.buffer(bytes: try clear())
            }
            udp.write(AddressedEnvelope(remoteAddress: address, data: data), promise: nil)
            sent += 1
        }
        if sent > 0 { udp.flush() }
        return sent
    }

    private func resolve(_ targets: [NodeID]?) throws -> [PeerSession] {
        guard let targets else {
            return peers.values.compactMap(\.session).sorted { ($0.peerID?.hex ?? "") < ($1.peerID?.hex ?? "") }
        }
        return try targets.map { t in
            guard let s = peers[t]?.session else { throw MeshError.notConnected(t) }
            return s
        }
    }
}
