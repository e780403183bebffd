import Crypto
import NIOCore
import TavoloNoise
import TavoloProtocol

/// Why the secure channel cut a connection (PROTOCOL.md §3.7). Nothing the peer sent after the failure is
/// delivered.
enum SecureChannelError: Error, CustomStringConvertible {
    /// A Noise handshake message or a sealed frame did not authenticate, or was out of turn.
    case noise(NoiseError, stage: String)
    /// The static key the peer proved does not hash to the node id its handshake claims.
    case identityMismatch(claimed: NodeID, proven: String)
    /// Something other than a noise-handshake frame during the handshake, or one after it.
    case unexpectedFrame(UInt8, stage: String)
    /// The peer refused the connection with a goodbye in clear during the handshake.
    case refused(Goodbye)

    var description: String {
        switch self {
        case .noise(let e, let stage): "authentication failed (\(stage)): \(e)"
        case .identityMismatch(let c, let p): "identity mismatch: claims \(c.hex) but its static key gives \(p)"
        case .unexpectedFrame(let t, let stage): "unexpected frame type \(t) during \(stage)"
        case .refused(let g): "refused by the peer in clear: \(g.code.rawValue): \(g.reason)"
        }
    }
}

/// The head of a peer pipeline on the v2 wire: runs the Noise XX handshake, then seals every outbound frame and
/// opens every inbound one. Inbound it turns sealed wire frames back into the plaintext frames of §3 (what the
/// rest of the pipeline, the counters and the packet log see); outbound it takes whole plaintext frames.
///
/// The Tavolo handshake frame the session writes first becomes the payload of Noise message 2 (responder) or 3
/// (initiator); the peer's arrives as the payload of the other and is passed on as a plaintext handshake frame,
/// after its `nodeId` was checked against the peer's static key.
///
/// Every plaintext frame it passes on is one whole frame whose header it wrote itself, within the limits of §3.1
/// (the first, the handshake, within the handshake's): the v2 pipeline needs no `FrameSplitter` after it.
final class SecureChannelHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        case handshaking(NoiseHandshakeState)
        case transport(send: NoiseCipherState, receive: NoiseCipherState)
        case failed
    }

    private var state: State
    private var buffer = ByteBuffer()
    /// Set at the first bad header or failed authentication: nothing more is read from the peer.
    private var inboundClosed = false
    /// The peer's handshake payload when it arrived before the session gave ours (delivered once ours is out).
    private var pendingDelivery: [UInt8]?
    /// The session's plaintext handshake payload, until it goes out in a Noise message.
    private var localHandshake: [UInt8]?
    /// Whether a sealed frame has been opened: until then a clear goodbye `circle-mismatch` is the responder's
    /// refusal of message 3 (§3.8).
    private var openedAny = false
    /// Whether a plaintext frame has been passed on: the first must be within the handshake's limit (§3.4).
    private var deliveredAny = false
    /// Set once the handshake is complete: the datagram keys of this session (§4.6).
    private(set) var sessionKeys: SessionKeys?

    struct SessionKeys {
        var remoteStatic: [UInt8]
        var datagramSend: [UInt8]
        var datagramReceive: [UInt8]
    }

    /// `psk`: the circle's key (§3.8), for Noise_XXpsk3; nil for plain XX.
    init(initiator: Bool, staticKey: Curve25519.KeyAgreement.PrivateKey, psk: [UInt8]? = nil) {
        state = .handshaking(
            NoiseHandshakeState(
                initiator: initiator, prologue: TavoloKeyDerivation.prologue, staticKey: staticKey, psk: psk))
    }

    // MARK: Inbound

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    /// The initiator speaks first: message 1, at once.
    private func start(_ context: ChannelHandlerContext) {
        if case .handshaking(var hs) = state, hs.isInitiator, hs.messageIndex == 0 {
            do {
                let m1 = try hs.writeMessage(payload: [])
                state = .handshaking(hs)
                writeWire(type: SecureWire.noiseHandshakeType, m1, context: context)
                context.flush()
            } catch {
                fail(context, .noise(error as? NoiseError ?? .outOfTurn, stage: "message 1"))
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !inboundClosed else { return }
        var incoming = unwrapInboundIn(data)
        // Usually every earlier frame was whole: work on NIO's buffer itself instead of copying it into ours.
        if buffer.readableBytes == 0 { buffer = incoming } else { buffer.writeBuffer(&incoming) }
        drain(context)
        if buffer.readerIndex > 65_536 { buffer.discardReadBytes() }
    }

    private func drain(_ context: ChannelHandlerContext) {
        while !inboundClosed {
            let limit = isHandshaking ? SecureWire.maxHandshakeMessage : FrameLimits.maxReliablePayload + 16
            let header: SecureWire.Header
            do {
                guard let h = try SecureWire.parseHeader(buffer, maxPayload: limit) else { return }
                header = h
            } catch {
                // A bad header is answered with a goodbye (§3.5): in clear during the handshake, sealed after.
                inboundClosed = true
                buffer.clear()
                context.fireErrorCaught(error)
                return
            }
            guard let whole = buffer.readSlice(length: FrameLimits.headerSize + header.length) else { return }
            handle(header, frame: whole, context: context)
        }
    }

    private var isHandshaking: Bool {
        if case .handshaking = state { return true }
        return false
    }

    private func handle(_ header: SecureWire.Header, frame: ByteBuffer, context: ChannelHandlerContext) {
        if openInPlace(header, frame: frame, context: context) { return }
        let headerBytes = Array(frame.readableBytesView.prefix(FrameLimits.headerSize))
        let body = Array(frame.readableBytesView.dropFirst(FrameLimits.headerSize))
        switch state {
        case .failed:
            return
        case .handshaking(let hs):
            readHandshake(header, body: body, hs, context: context)
        case .transport(let send, var receive):
            guard header.type != SecureWire.noiseHandshakeType else {
                return fail(context, .unexpectedFrame(header.type, stage: "transport"))
            }
            do {
                let plaintext = try receive.decrypt(associatedData: headerBytes, ciphertext: body)
                state = .transport(send: send, receive: receive)
                openedAny = true
                deliver(type: header.type, plaintext, context: context)
            } catch {
                // The initiator of Noise_XXpsk3 finishes on sending message 3, before the responder has checked the
                // PSK in it: a responder of another circle answers with goodbye circle-mismatch in clear (§3.8), as
                // the first frame after the handshake.
                if !openedAny, header.type == MessageType.goodbye.rawValue,
                    case .goodbye(let g)? = try? Frame.decode(type: .goodbye, payload: body), g.code == .circleMismatch
                {
                    return fail(context, .refused(g))
                }
                fail(context, .noise(error as? NoiseError ?? .authenticationFailed, stage: "frame"))
            }
        }
    }

    /// The hot path: a transport frame opened straight from the frame's bytes (header as associated data) into the
    /// buffer passed on, behind the plaintext header written first: no copies, one allocation. False when the frame
    /// is not one, or does not open (the slow path then says why).
    private func openInPlace(_ header: SecureWire.Header, frame: ByteBuffer, context: ChannelHandlerContext) -> Bool {
        guard case .transport(let send, var receive) = state, header.type != SecureWire.noiseHandshakeType,
            header.length >= 16
        else { return false }
        let length = Int(header.length) - 16
        var out = context.channel.allocator.buffer(capacity: FrameLimits.headerSize + length)
        SecureWire.writeHeader(version: ProtocolVersion.current, type: header.type, length: length, into: &out)
        do {
            try frame.withUnsafeReadableBytes { raw in
                _ = try out.writeWithUnsafeMutableBytes(minimumWritableBytes: length) { dest in
                    try receive.open(
                        UnsafeRawBufferPointer(rebasing: raw[FrameLimits.headerSize...]),
                        associatedData: UnsafeRawBufferPointer(rebasing: raw[..<FrameLimits.headerSize]),
                        into: UnsafeMutableRawBufferPointer(rebasing: dest[..<length]))
                    return length
                }
            }
        } catch {
            return false
        }
        state = .transport(send: send, receive: receive)
        openedAny = true
        deliver(out, payloadBytes: length, context: context)
        return true
    }

    /// A frame during the Noise handshake: the next handshake message, or a refusal in clear.
    private func readHandshake(
        _ header: SecureWire.Header, body: [UInt8], _ handshake: NoiseHandshakeState, context: ChannelHandlerContext
    ) {
        var hs = handshake
        if header.type == MessageType.goodbye.rawValue,
            case .goodbye(let g)? = try? Frame.decode(type: .goodbye, payload: body)
        {
            // A refusal in clear (§3.7, §3.8): unauthenticated, so only logged and the connection closed.
            return fail(context, .refused(g))
        }
        guard header.type == SecureWire.noiseHandshakeType else {
            return fail(context, .unexpectedFrame(header.type, stage: "the handshake"))
        }
        let stage = "message \(hs.messageIndex + 1)"
        do {
            let payload = try hs.readMessage(body)
            state = .handshaking(hs)
            if hs.messageIndex == 1 {  // responder: answer with message 2 once the session gave its handshake
                return writeOwnHandshakeIfDue(context)
            }
            try checkIdentity(payload, hs)
            if hs.isInitiator { writeOwnHandshakeIfDue(context) } else { try finish(hs) }
            guard case .transport = state else {
                pendingDelivery = payload
                return
            }
            deliver(type: MessageType.handshake.rawValue, payload, context: context)
        } catch let error as NoiseError {
            if error == .authenticationFailed { sayCircleMismatch(context) }
            fail(context, .noise(error, stage: stage))
        } catch let error as SecureChannelError {
            fail(context, error)
        } catch {
            fail(context, .noise(.outOfTurn, stage: stage))
        }
    }

    /// A handshake message that does not authenticate is, between honest nodes, a circle key that differs (§3.8):
    /// said once, in clear, before the close. (A damaged message gets the same answer: they cannot be told apart.)
    private func sayCircleMismatch(_ context: ChannelHandlerContext) {
        let g = Goodbye(
            code: .circleMismatch,
            reason:
                "the handshake did not authenticate: not the same private circle (another circle, another passphrase, or none), or a damaged message"
        )
        guard let bytes = try? Frame.goodbye(g).encoded() else { return }
        writeWire(type: MessageType.goodbye.rawValue, Array(bytes.dropFirst(FrameLimits.headerSize)), context: context)
        context.flush()
    }

    private func checkIdentity(_ payload: [UInt8], _ hs: NoiseHandshakeState) throws {
        guard let remote = hs.remoteStatic else { throw NoiseError.badKey }
        let proven = TavoloKeyDerivation.nodeIDBytes(staticPublicKey: Array(remote.rawRepresentation))
        // A payload that is not a valid handshake is refused downstream (bad-frame); only a claimed id is checked.
        if case .handshake(let h)? = try? Frame.decode(type: .handshake, payload: payload), h.nodeId.bytes != proven {
            throw SecureChannelError.identityMismatch(claimed: h.nodeId, proven: NodeID(bytes: proven)?.hex ?? "?")
        }
    }

    private func finish(_ hs: NoiseHandshakeState) throws {
        let (send, receive) = try hs.split()
        let (i2r, r2i) = TavoloKeyDerivation.datagramKeys(handshakeHash: hs.handshakeHash)
        sessionKeys = SessionKeys(
            remoteStatic: hs.remoteStatic.map { Array($0.rawRepresentation) } ?? [],
            datagramSend: hs.isInitiator ? i2r : r2i, datagramReceive: hs.isInitiator ? r2i : i2r)
        state = .transport(send: send, receive: receive)
    }

    private func deliver(type: UInt8, _ payload: [UInt8], context: ChannelHandlerContext) {
        var out = context.channel.allocator.buffer(capacity: FrameLimits.headerSize + payload.count)
        SecureWire.writeHeader(version: ProtocolVersion.current, type: type, length: payload.count, into: &out)
        out.writeBytes(payload)
        deliver(out, payloadBytes: payload.count, context: context)
    }

    /// Passes on one whole plaintext frame (header written here, `payloadBytes` after it).
    private func deliver(_ frame: ByteBuffer, payloadBytes: Int, context: ChannelHandlerContext) {
        if !deliveredAny {
            deliveredAny = true
            // The limit `FrameSplitter(maxFirstPayload:)` keeps on the v1 wire; a Noise message may hold a little more.
            guard payloadBytes <= FrameLimits.maxHandshakePayload else {
                inboundClosed = true
                buffer.clear()
                return context.fireErrorCaught(
                    FrameError.tooLarge(length: payloadBytes, limit: FrameLimits.maxHandshakePayload))
            }
        }
        context.fireChannelRead(wrapInboundOut(frame))
    }

    private func fail(_ context: ChannelHandlerContext, _ error: SecureChannelError) {
        state = .failed
        inboundClosed = true
        buffer.clear()
        context.fireErrorCaught(error)
    }

    // MARK: Outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = unwrapOutboundIn(data)
        guard frame.readableBytes >= FrameLimits.headerSize,
            let type = frame.getInteger(at: frame.readerIndex + 3, as: UInt8.self)
        else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch state {
        case .handshaking:
            let payload = Array(frame.readableBytesView.dropFirst(FrameLimits.headerSize))
            // Before the keys exist only the session's handshake (into a Noise message) and a goodbye (in clear,
            // unauthenticated: why the connection is refused, §3.7) go out; nothing else is sent.
            if type == MessageType.handshake.rawValue, localHandshake == nil {
                localHandshake = payload
                writeOwnHandshakeIfDue(context)
            } else if type == MessageType.goodbye.rawValue {
                writeWire(type: type, payload, context: context)
            }
            promise?.succeed()
        case .transport(var send, let receive):
            // The hot path: sealed straight from the frame's bytes into the outgoing buffer, behind its header (the
            // associated data): no copies, one allocation.
            let length = frame.readableBytes - FrameLimits.headerSize
            let sealedLength = FrameLimits.headerSize + length + 16
            var out = context.channel.allocator.buffer(capacity: sealedLength)
            SecureWire.writeHeader(version: SecureWire.version, type: type, length: length + 16, into: &out)
            do {
                try frame.withUnsafeReadableBytes { plaintext in
                    try out.withVeryUnsafeMutableBytes { storage in
                        try send.seal(
                            UnsafeRawBufferPointer(rebasing: plaintext[FrameLimits.headerSize...]),
                            associatedData: UnsafeRawBufferPointer(rebasing: storage[..<FrameLimits.headerSize]),
                            into: UnsafeMutableRawBufferPointer(
                                rebasing: storage[FrameLimits.headerSize..<sealedLength]))
                    }
                }
                out.moveWriterIndex(forwardBy: length + 16)
                state = .transport(send: send, receive: receive)
                context.write(wrapOutboundOut(out), promise: promise)
            } catch {
                promise?.fail(error)
            }
        case .failed:
            promise?.fail(ChannelError.ioOnClosedChannel)
        }
    }

    /// Writes Noise message 2 (responder, after message 1) or 3 (initiator, after message 2) once the session's
    /// handshake payload is known.
    private func writeOwnHandshakeIfDue(_ context: ChannelHandlerContext) {
        guard case .handshaking(var hs) = state, hs.isMyTurn, hs.messageIndex > 0, let payload = localHandshake
        else { return }
        do {
            let message = try hs.writeMessage(payload: payload)
            writeWire(type: SecureWire.noiseHandshakeType, message, context: context)
            context.flush()
            if hs.isComplete { try finish(hs) } else { state = .handshaking(hs) }
            if case .transport = state, let peer = pendingDelivery {
                pendingDelivery = nil
                deliver(type: MessageType.handshake.rawValue, peer, context: context)
            }
        } catch {
            fail(context, .noise(error as? NoiseError ?? .outOfTurn, stage: "message \(hs.messageIndex + 1)"))
        }
    }

    private func writeWire(type: UInt8, _ body: [UInt8], context: ChannelHandlerContext) {
        var out = context.channel.allocator.buffer(capacity: FrameLimits.headerSize + body.count)
        out.writeBytes(SecureWire.header(version: SecureWire.version, type: type, length: body.count))
        out.writeBytes(body)
        context.write(wrapOutboundOut(out), promise: nil)
    }
}
