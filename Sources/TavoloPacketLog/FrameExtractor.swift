import TavoloProtocol

/// Finds Tavolo frames in transport segments: a UDP datagram is one frame; a TCP stream (one per direction
/// of a connection) is reassembled in sequence order and split at each header's length.
///
/// In files Tavolo wrote every flow is Tavolo and anything else is an error. In other captures (a live
/// capture of `lo`), a TCP flow counts only once it starts with a valid header and a UDP datagram only
/// when it starts with the magic, so unrelated traffic is skipped quietly.
struct FrameExtractor {
    private(set) var frames: [LoggedFrame] = []
    private(set) var issues: [PacketLogIssue] = []

    private struct FlowKey: Hashable {
        let source: PacketEndpoint
        let destination: PacketEndpoint
    }

    private struct Stream {
        var next: UInt32?
        var buffer: [UInt8] = []
        /// Stream byte offset (from the first byte seen) of `buffer[0]`.
        var bufferOffset = 0
        /// nil until decided: does this flow carry Tavolo frames?
        var isTavolo: Bool?
        /// After a gap or bad bytes: skip to the next plausible header.
        var resync = false
        /// Packet in which the frame at the start of `buffer` began.
        var frameStartPacket: RawPacket?
    }

    private var streams: [FlowKey: Stream] = [:]
    private var streamOrder: [FlowKey] = []

    mutating func add(_ s: TransportSegment) {
        if let c = s.checksumError {
            issue(
                .checksum, s.packet,
                "\(c) (\(s.transport.rawValue.uppercased()) \(s.source) → \(s.destination)): the packet was changed after recording"
            )
        }
        switch s.transport {
        case .udp: addDatagram(s)
        case .tcp: addSegment(s)
        }
    }

    private mutating func issue(_ kind: PacketLogIssue.Kind, _ p: RawPacket, _ message: String) {
        issues.append(PacketLogIssue(kind: kind, block: p.block, offset: p.offset, packet: p.number, message: message))
    }

    private mutating func addDatagram(_ s: TransportSegment) {
        let startsWithMagic = s.payload.count >= 2 && s.payload[0] == 0x54 && s.payload[1] == 0x56
        guard s.packet.synthesized || startsWithMagic else { return }
        emit(bytes: s.payload, segment: s, packet: s.packet, maxPayload: FrameLimits.maxReliablePayload)
    }

    private mutating func addSegment(_ s: TransportSegment) {
        let key = FlowKey(source: s.source, destination: s.destination)
        var st = streams[key] ?? Stream()
        if streams[key] == nil { streamOrder.append(key) }
        defer { streams[key] = st }
        if s.syn {
            st.next = s.seq &+ 1
            return
        }
        guard !s.payload.isEmpty else { return }
        if st.isTavolo == false { return }
        var payload = s.payload[...]
        if let next = st.next {
            let delta = Int32(bitPattern: s.seq &- next)
            if delta < 0 {
                // Retransmitted bytes: keep only what is new.
                let old = Int(-Int64(delta))
                guard old < payload.count else { return }
                payload = payload.dropFirst(old)
            } else if delta > 0 {
                if st.isTavolo == true {
                    let pending = st.buffer.isEmpty ? "" : "; dropped \(st.buffer.count) bytes of an unfinished frame"
                    issue(
                        .streamGap, s.packet,
                        "TCP \(s.source) → \(s.destination): \(delta) bytes missing before this segment\(pending)")
                }
                st.bufferOffset += st.buffer.count + Int(delta)
                st.buffer.removeAll()
                st.resync = true
            }
        }
        st.next = s.seq &+ UInt32(truncatingIfNeeded: s.payload.count)
        if st.isTavolo == nil {
            if s.packet.synthesized
                || Self.plausibleHeader(Array(payload.prefix(FrameLimits.headerSize)), partialOK: true)
            {
                st.isTavolo = true
            } else {
                st.isTavolo = false
                return
            }
        }
        if st.buffer.isEmpty { st.frameStartPacket = s.packet }
        st.buffer += payload
        split(&st, segment: s)
    }

    /// Takes every whole frame off the front of the stream's buffer.
    private mutating func split(_ st: inout Stream, segment s: TransportSegment) {
        var consumed = 0
        defer {
            if consumed > 0 {
                st.buffer.removeFirst(consumed)
                st.bufferOffset += consumed
            }
        }
        while st.buffer.count - consumed >= FrameLimits.headerSize {
            let header = Array(st.buffer[consumed..<(consumed + FrameLimits.headerSize)])
            if st.resync || !(header[0] == 0x54 && header[1] == 0x56)
                || Self.length(header) > FrameLimits.maxReliablePayload
            {
                let wasResync = st.resync
                let from = consumed
                var found: Int?
                var i = wasResync ? consumed : consumed + 1
                while i + FrameLimits.headerSize <= st.buffer.count {
                    if Self.plausibleHeader(Array(st.buffer[i..<(i + FrameLimits.headerSize)]), partialOK: false) {
                        found = i
                        break
                    }
                    i += 1
                }
                if !wasResync {
                    let what =
                        !(header[0] == 0x54 && header[1] == 0x56)
                        ? "bad magic 0x\(header[0..<2].map { String(format2: $0) }.joined()) (expected 0x5456, \"TV\")"
                        : "frame length \(Self.length(header)) exceeds the limit of \(FrameLimits.maxReliablePayload)"
                    let skip =
                        found.map { "skipped \($0 - from) bytes to the next frame header" }
                        ?? "no frame header follows yet"
                    issue(
                        .badFrame, s.packet,
                        "TCP \(s.source) → \(s.destination), stream byte \(st.bufferOffset + from): \(what); \(skip)")
                }
                guard let found else {
                    // Keep the last bytes: a header may straddle into the next segment.
                    consumed = max(consumed, st.buffer.count - (FrameLimits.headerSize - 1))
                    st.resync = true
                    return
                }
                consumed = found
                st.resync = false
                continue
            }
            let total = FrameLimits.headerSize + Self.length(header)
            guard st.buffer.count - consumed >= total else { return }
            let bytes = Array(st.buffer[consumed..<(consumed + total)])
            emit(bytes: bytes, segment: s, packet: s.packet, maxPayload: FrameLimits.maxReliablePayload)
            consumed += total
            st.frameStartPacket = s.packet
        }
    }

    /// Reports frames cut off by the end of the capture.
    mutating func finish() {
        for key in streamOrder {
            guard let st = streams[key], st.isTavolo == true, !st.buffer.isEmpty, !st.resync else { continue }
            let header = Array(st.buffer.prefix(FrameLimits.headerSize))
            let needed =
                header.count == FrameLimits.headerSize
                ? FrameLimits.headerSize + Self.length(header) : FrameLimits.headerSize
            let type =
                header.count > 3 ? (MessageType(rawValue: header[3])?.description ?? "type-\(header[3])") : "unknown"
            let p = st.frameStartPacket
            issues.append(
                PacketLogIssue(
                    kind: .truncatedFrame, block: p?.block, offset: p?.offset, packet: p?.number,
                    message:
                        "TCP \(key.source) → \(key.destination), stream byte \(st.bufferOffset): the capture ends inside a \(type) frame "
                        + "(\(st.buffer.count) of its \(needed) bytes)"))
        }
    }

    private mutating func emit(bytes: [UInt8], segment s: TransportSegment, packet: RawPacket, maxPayload: Int) {
        var frame: Frame?
        var error: String?
        do { frame = try Frame.parse(bytes, maxPayload: maxPayload) } catch let e { error = e.description }
        if let error {
            issue(.badFrame, packet, "\(s.transport == .tcp ? "TCP" : "UDP") \(s.source) → \(s.destination): \(error)")
        }
        frames.append(
            LoggedFrame(
                number: frames.count + 1, packet: packet.number, timeNanos: packet.timeNanos,
                direction: packet.direction,
                transport: s.transport, source: s.source, destination: s.destination, bytes: bytes, frame: frame,
                error: error))
    }

    static func length(_ header: [UInt8]) -> Int {
        Int(header[6]) << 24 | Int(header[7]) << 16 | Int(header[8]) << 8 | Int(header[9])
    }

    /// Magic, version 1, a known type, reserved 0, a length within the limit (checks what `header` has).
    static func plausibleHeader(_ header: [UInt8], partialOK: Bool) -> Bool {
        guard header.count >= (partialOK ? 4 : FrameLimits.headerSize) else { return false }
        guard header[0] == 0x54, header[1] == 0x56, header[2] == ProtocolVersion.current,
            MessageType(rawValue: header[3]) != nil
        else { return false }
        if header.count >= FrameLimits.headerSize {
            return header[5] == 0 && length(header) <= FrameLimits.maxReliablePayload
        }
        return true
    }
}
