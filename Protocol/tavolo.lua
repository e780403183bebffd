-- Wireshark dissector for the Tavolo wire protocol (Protocol/PROTOCOL.md sections 3, 4 and 8): the plaintext frames
-- of a node's packet log (header version byte 1, section 3.6) and the sealed wire of versions 2 and 3. The wire is
-- sealed (section 3.7): on a live capture only the Noise handshake messages (type 7), the headers, a datagram's
-- sender and sequence number, and goodbyes refusing a handshake are readable; every other payload, the service
-- byte included, is shown as ciphertext. A node's packet log (--packet-log) records the frames in clear: read that
-- instead. There every application, compact and datagram message starts with its service byte (section 3.9:
-- 1 tables, 2 records, 3 chat), shown as tavolo.service and in the Info column.
--
--   tshark -r capture.pcapng -X lua_script:Protocol/tavolo.lua -Y tavolo
--   tshark -i lo -X lua_script:Protocol/tavolo.lua -f "tcp or udp" -Y tavolo
--   wireshark -X lua_script:Protocol/tavolo.lua capture.pcapng    (or copy it to ~/.local/lib/wireshark/plugins/)
--
-- Tavolo nodes pick their ports at random unless told otherwise, so the dissector finds its traffic with
-- heuristics on TCP and UDP (magic "TV", version 1, a known type, reserved byte 0); the preference
-- tavolo.ports adds fixed ports (e.g. -o tavolo.ports:7000-7010). On a port that another dissector owns
-- (6000-6063 is X11, for one) add -o tcp.try_heuristic_first:TRUE -o udp.try_heuristic_first:TRUE, or name
-- the port in tavolo.ports. TCP frames split across segments are
-- reassembled with dissect_tcp_pdus. JSON payloads are handed to Wireshark's json dissector and their
-- top-level members also become named tavolo.* fields. Compact hot messages (type 8, and datagram bodies whose
-- first byte is 1-8; section 13) are decoded into tavolo.compact.* fields, tavolo.app.type naming the JSON
-- message each stands for; in the short kinds (5-7) tavolo.compact.table shows the table id as text whichever
-- form carries it, and tavolo.compact.hash the 16 hex digits of the 8-byte hash.

local tavolo = Proto("tavolo", "Tavolo")

local HEADER_SIZE = 10
local MAX_PAYLOAD = 1048576  -- 1 MiB, the reliable channel's limit
local VERSION = 1  -- the plaintext layout of a packet log (section 3.6)
local SEALED_VERSIONS = { [2] = true, [3] = true }  -- the wire: 3 names services, 2 did not (section 3.6)

local type_names = {
    [1] = "handshake", [2] = "heartbeat", [3] = "heartbeat-ack", [4] = "goodbye", [5] = "application", [6] = "datagram",
    [7] = "noise-handshake", [8] = "compact",
}

-- Section 13: the kinds of a compact body (its first byte), by the JSON message each stands for. Kinds 5-7 are the
-- short kinds (section 13.2): the table id also in its 0x00 form, hashes of 8 bytes. Kind 8 is reserved.
-- Section 3.9: the service byte that starts every application message.
local service_names = { [1] = "tables", [2] = "records", [3] = "chat" }
local function service_name(b) return service_names[b] or string.format("service 0x%02x", b) end

local compact_kinds = {
    [1] = "table.move", [2] = "table.confirm", [3] = "table.race-move", [4] = "table.progress",
    [5] = "table.move", [6] = "table.confirm", [7] = "table.race-move",
}

local f = tavolo.fields
f.magic = ProtoField.string("tavolo.magic", "Magic")
f.version = ProtoField.uint8("tavolo.version", "Version", base.DEC)
f.type = ProtoField.uint8("tavolo.type", "Type", base.DEC, type_names)
f.type_name = ProtoField.string("tavolo.type_name", "Type name")
f.flags = ProtoField.uint8("tavolo.flags", "Flags", base.HEX)
f.reserved = ProtoField.uint8("tavolo.reserved", "Reserved", base.HEX)
f.length = ProtoField.uint32("tavolo.length", "Payload length", base.DEC)
f.payload = ProtoField.bytes("tavolo.payload", "Payload")
f.channel = ProtoField.string("tavolo.channel", "Channel")

f.hs_version = ProtoField.uint32("tavolo.handshake.version", "Protocol version", base.DEC)
f.hs_node_id = ProtoField.string("tavolo.handshake.node_id", "Node id")
f.hs_name = ProtoField.string("tavolo.handshake.name", "Node name")
f.hs_udp_port = ProtoField.uint32("tavolo.handshake.udp_port", "UDP port", base.DEC)
f.hs_capabilities = ProtoField.string("tavolo.handshake.capabilities", "Capabilities")

f.hb_seq = ProtoField.uint64("tavolo.heartbeat.seq", "Sequence", base.DEC)
f.hb_sent_at = ProtoField.uint64("tavolo.heartbeat.sent_at", "Sent at (sender's monotonic ns)", base.DEC)

f.bye_code = ProtoField.string("tavolo.goodbye.code", "Code")
f.bye_reason = ProtoField.string("tavolo.goodbye.reason", "Reason")

f.app_type = ProtoField.string("tavolo.app.type", "Application message type")
f.service = ProtoField.uint8("tavolo.service", "Service", base.HEX, service_names)
f.service_name = ProtoField.string("tavolo.service_name", "Service name")

f.dg_sender = ProtoField.string("tavolo.datagram.sender", "Sender node id")
f.dg_seq = ProtoField.uint64("tavolo.datagram.seq", "Sequence", base.DEC)
f.dg_body = ProtoField.bytes("tavolo.datagram.body", "Body")

f.c_kind = ProtoField.uint8("tavolo.compact.kind", "Compact kind", base.DEC, compact_kinds)
f.c_table = ProtoField.string("tavolo.compact.table", "Table")
f.c_number = ProtoField.uint32("tavolo.compact.number", "Number", base.DEC)
f.c_seat = ProtoField.uint32("tavolo.compact.seat", "Seat", base.DEC)
f.c_hash = ProtoField.string("tavolo.compact.hash", "Hash (stateHash, or seatHash of a race move)")
f.c_json = ProtoField.string("tavolo.compact.json", "Move or progress (JSON)")

local e_bad_magic = ProtoExpert.new("tavolo.bad_magic", "Not a Tavolo frame header", expert.group.MALFORMED, expert.severity.ERROR)
local e_version = ProtoExpert.new("tavolo.unsupported_version", "Unsupported protocol version", expert.group.PROTOCOL, expert.severity.WARN)
local e_type = ProtoExpert.new("tavolo.unknown_type", "Unknown message type", expert.group.PROTOCOL, expert.severity.WARN)
local e_too_large = ProtoExpert.new("tavolo.too_large", "Frame longer than the 1 MiB limit", expert.group.MALFORMED, expert.severity.ERROR)
local e_bad_payload = ProtoExpert.new("tavolo.bad_payload", "Payload does not decode", expert.group.MALFORMED, expert.severity.ERROR)
tavolo.experts = { e_bad_magic, e_version, e_type, e_too_large, e_bad_payload }

tavolo.prefs.ports = Pref.range("Ports", "", "TCP and UDP ports always decoded as Tavolo (heuristics find the others)", 65535)
tavolo.prefs.heuristics = Pref.bool("Heuristic detection", true, "Recognise Tavolo on any TCP or UDP port by its header")

local json_dissector = Dissector.get("json")

------------------------------------------------------------------------------------------------------------
-- A small JSON reader that remembers where each value is, for the named fields' byte ranges.
-- Nodes: { kind = "object"|"array"|"string"|"number"|"bool"|"null", value = …, s = first byte, e = after last }.

local function utf8_char(cp)
    if cp < 0x80 then return string.char(cp) end
    if cp < 0x800 then return string.char(0xC0 + math.floor(cp / 64), 0x80 + cp % 64) end
    if cp < 0x10000 then
        return string.char(0xE0 + math.floor(cp / 4096), 0x80 + math.floor(cp / 64) % 64, 0x80 + cp % 64)
    end
    return string.char(0xF0 + math.floor(cp / 262144), 0x80 + math.floor(cp / 4096) % 64,
        0x80 + math.floor(cp / 64) % 64, 0x80 + cp % 64)
end

local escapes = { ['"'] = '"', ['\\'] = '\\', ['/'] = '/', b = '\b', f = '\f', n = '\n', r = '\r', t = '\t' }

local function skip_ws(s, i)
    local _, j = s:find("^[ \t\r\n]*", i)
    return j + 1
end

local parse_value

local function parse_string(s, i)
    local out, j = {}, i + 1
    while j <= #s do
        local c = s:sub(j, j)
        if c == '"' then return { kind = "string", value = table.concat(out), s = i, e = j + 1 }, j + 1 end
        if c == "\\" then
            local esc = s:sub(j + 1, j + 1)
            if esc == "u" then
                local cp = tonumber(s:sub(j + 2, j + 5), 16)
                if not cp then return nil end
                j = j + 6
                if cp >= 0xD800 and cp < 0xDC00 and s:sub(j, j + 1) == "\\u" then
                    local low = tonumber(s:sub(j + 2, j + 5), 16)
                    if low and low >= 0xDC00 and low < 0xE000 then
                        cp = 0x10000 + (cp - 0xD800) * 1024 + (low - 0xDC00)
                        j = j + 6
                    end
                end
                out[#out + 1] = utf8_char(cp)
            elseif escapes[esc] then
                out[#out + 1] = escapes[esc]
                j = j + 2
            else
                return nil
            end
        elseif c:byte() < 0x20 then
            return nil
        else
            out[#out + 1] = c
            j = j + 1
        end
    end
    return nil
end

parse_value = function(s, i, depth)
    if depth > 64 then return nil end
    i = skip_ws(s, i)
    local c = s:sub(i, i)
    if c == '"' then return parse_string(s, i) end
    if c == "{" then
        local members, order, j = {}, {}, skip_ws(s, i + 1)
        if s:sub(j, j) == "}" then return { kind = "object", value = members, order = order, s = i, e = j + 1 }, j + 1 end
        while true do
            j = skip_ws(s, j)
            if s:sub(j, j) ~= '"' then return nil end
            local key, nj = parse_string(s, j)
            if not key then return nil end
            nj = skip_ws(s, nj)
            if s:sub(nj, nj) ~= ":" then return nil end
            local v, vj = parse_value(s, nj + 1, depth + 1)
            if not v then return nil end
            members[key.value] = v
            order[#order + 1] = key.value
            j = skip_ws(s, vj)
            local d = s:sub(j, j)
            if d == "}" then return { kind = "object", value = members, order = order, s = i, e = j + 1 }, j + 1 end
            if d ~= "," then return nil end
            j = j + 1
        end
    end
    if c == "[" then
        local items, j = {}, skip_ws(s, i + 1)
        if s:sub(j, j) == "]" then return { kind = "array", value = items, s = i, e = j + 1 }, j + 1 end
        while true do
            local v, vj = parse_value(s, j, depth + 1)
            if not v then return nil end
            items[#items + 1] = v
            j = skip_ws(s, vj)
            local d = s:sub(j, j)
            if d == "]" then return { kind = "array", value = items, s = i, e = j + 1 }, j + 1 end
            if d ~= "," then return nil end
            j = j + 1
        end
    end
    local num = s:match("^-?%d+%.?%d*[eE]?[-+]?%d*", i)
    if num and #num > 0 then return { kind = "number", value = num, s = i, e = i + #num }, i + #num end
    for word, v in pairs({ ["true"] = true, ["false"] = false }) do
        if s:sub(i, i + #word - 1) == word then return { kind = "bool", value = v, s = i, e = i + #word }, i + #word end
    end
    if s:sub(i, i + 3) == "null" then return { kind = "null", s = i, e = i + 4 }, i + 4 end
    return nil
end

-- The whole text as one JSON value, or nil.
local function parse_json(s)
    local v, j = parse_value(s, 1, 0)
    if not v or skip_ws(s, j) <= #s then return nil end
    return v
end

------------------------------------------------------------------------------------------------------------

local function header_ok(tvb, offset)
    if tvb:len() - offset < 4 then return false end
    local version = tvb:len() - offset >= 3 and tvb(offset + 2, 1):uint() or 0
    if tvb(offset, 2):string() ~= "TV" or (version ~= VERSION and not SEALED_VERSIONS[version]) then return false end
    if not type_names[tvb(offset + 3, 1):uint()] then return false end
    if tvb:len() - offset >= HEADER_SIZE then
        if tvb(offset + 5, 1):uint() ~= 0 or tvb(offset + 6, 4):uint() > MAX_PAYLOAD then return false end
    end
    return true
end

-- Adds a string/number member of `obj` as `field`, its bytes highlighted; returns the member's value.
local function add_member(tree, tvb, base_offset, obj, name, field, as)
    local m = obj and obj.value[name]
    if not m then return nil end
    local range = tvb(base_offset + m.s - 1, m.e - m.s)
    if as == "uint64" then
        if m.kind ~= "number" or not m.value:match("^%d+$") then return nil end
        local v = UInt64.new(0)
        for digit in m.value:gmatch("%d") do v = v * 10 + tonumber(digit) end
        tree:add(field, range, v)
    elseif as == "uint" then
        if m.kind ~= "number" or not m.value:match("^%d+$") then return nil end
        tree:add(field, range, tonumber(m.value))
    elseif as == "list" then
        if m.kind ~= "array" then return nil end
        local names = {}
        for _, item in ipairs(m.value) do names[#names + 1] = tostring(item.value) end
        tree:add(field, range, table.concat(names, ","))
    else
        if m.kind ~= "string" then return nil end
        tree:add(field, range, m.value)
    end
    return m.value
end

-- Dissects the JSON of a payload: json dissector for the tree, then named fields. Returns the parsed object.
local function dissect_json(tvb, offset, length, pinfo, tree, subtree)
    if length == 0 then return nil end
    local sub = tvb(offset, length):tvb()
    pcall(function() json_dissector:call(sub, pinfo, tree) end)
    local obj = parse_json(tvb(offset, length):raw())
    if not obj then subtree:add_proto_expert_info(e_bad_payload, "payload is not JSON") end
    return obj
end

-- Section 13.2: an unsigned LEB128 varint at `o`, before `limit`: its value and the offset after it, or nil when it
-- is cut short, longer than 5 bytes, not in its shortest form or over 2^31 - 1.
local function read_varint(tvb, o, limit)
    local value, scale = 0, 1
    for i = 0, 4 do
        if o + i >= limit then return nil end
        local b = tvb(o + i, 1):uint()
        value = value + (b % 128) * scale
        if b < 128 then
            if (i > 0 and b == 0) or value > 2147483647 then return nil end
            return value, o + i + 1
        end
        scale = scale * 128
    end
    return nil
end

-- The most arrays and objects open at once in a JSON text (strings skipped).
local function json_depth(text)
    local depth, deepest, in_string, escaped = 0, 0, false, false
    for i = 1, #text do
        local c = text:sub(i, i)
        if in_string then
            if escaped then escaped = false
            elseif c == "\\" then escaped = true
            elseif c == '"' then in_string = false end
        elseif c == '"' then in_string = true
        elseif c == "[" or c == "{" then
            depth = depth + 1
            if depth > deepest then deepest = depth end
        elseif c == "]" or c == "}" then depth = depth - 1 end
    end
    return deepest
end

-- A compact body (section 13) at `p`, `length` bytes: its fields under `t`. Returns the summary for the Info
-- column ("table.confirm 3a1b2c4d-1-1 #5"), or nil when it is malformed (marked, as a receiver would drop it).
local function dissect_compact(tvb, p, length, pinfo, tree, t)
    local limit = p + length
    local function bad(why)
        t:add_proto_expert_info(e_bad_payload, "compact body: " .. why)
        return nil
    end
    if length < 2 then return bad("cut short") end
    local kind = tvb(p, 1):uint()
    local name = compact_kinds[kind]
    if not name then return bad("reserved kind " .. kind) end
    t:add(f.c_kind, tvb(p, 1))
    t:add(f.app_type, tvb(p, 1), name)
    local short = kind >= 5
    local id_length = tvb(p + 1, 1):uint()
    local id, o
    if short and id_length == 0 then
        -- The short table id (section 13.2): 0x00, the 4 bytes of <h>, then <e> and <n> as varints.
        if p + 6 > limit then return bad("short table id cut short") end
        local e, after_e = read_varint(tvb, p + 6, limit)
        if not e then return bad("short table id: <e>") end
        local n, after_n = read_varint(tvb, after_e, limit)
        if not n then return bad("short table id: <n>") end
        id = string.format("%s-%d-%d", tvb(p + 2, 4):bytes():tohex():lower(), e, n)
        t:add(f.c_table, tvb(p + 1, after_n - p - 1), id)
        o = after_n
    else
        if id_length < 1 or id_length > 64 or p + 2 + id_length > limit then return bad("table id length") end
        id = tvb(p + 2, id_length):string()
        if not id:match("^[%w%-]+$") then return bad("table id not letters, digits and -") end
        t:add(f.c_table, tvb(p + 2, id_length), id)
        o = p + 2 + id_length
    end
    local hash_size = short and 8 or 32
    local number, seat
    local function varint(field)
        local v, after = read_varint(tvb, o, limit)
        if not v then return nil end
        t:add(field, tvb(o, after - o), v)
        o = after
        return v
    end
    local function hash()
        if o + hash_size > limit then return false end
        t:add(f.c_hash, tvb(o, hash_size), tvb(o, hash_size):bytes():tohex():lower())
        o = o + hash_size
        return true
    end
    local function rest()
        if o >= limit then return false end
        local text = tvb(o, limit - o):raw()
        if not parse_json(text) or json_depth(text) > 15 then return false end
        t:add(f.c_json, tvb(o, limit - o), text)
        pcall(function() json_dissector:call(tvb(o, limit - o):tvb(), pinfo, tree) end)
        return true
    end
    if kind == 1 or kind == 5 then
        number = varint(f.c_number); if not number then return bad("number") end
        seat = varint(f.c_seat); if not seat then return bad("seat") end
        if not hash() then return bad("stateHash cut short") end
        if not rest() then return bad("move is not one JSON value") end
    elseif kind == 2 or kind == 6 then
        number = varint(f.c_number); if not number then return bad("number") end
        if not hash() then return bad("stateHash cut short") end
        if o ~= limit then return bad((limit - o) .. " bytes after the hash") end
    else
        seat = varint(f.c_seat); if not seat then return bad("seat") end
        number = varint(f.c_number); if not number then return bad("number") end
        if (kind == 3 or kind == 7) and not hash() then return bad("seatHash cut short") end
        if not rest() then return bad("move or progress is not one JSON value") end
    end
    return string.format("%s %s #%d%s", name, id, number, seat and (" seat " .. seat) or "")
end

-- Section 3.9: the service byte at `p` (the first of `length` bytes): its fields under `t`; returns its name, or nil
-- (marked) when there is no byte after it for the message, which makes the frame a bad-frame (section 3.5).
local function dissect_service(tvb, p, length, t)
    if length < 2 then
        t:add_proto_expert_info(e_bad_payload, "no service byte and message (section 3.9)")
        return nil
    end
    local b = tvb(p, 1):uint()
    t:add(f.service, tvb(p, 1))
    local name = service_name(b)
    t:add(f.service_name, tvb(p, 1), name)
    return name
end

-- Summaries of the frames of the packet being dissected, for the Info column.
local info_parts = {}

-- One frame at `offset`, which has at least its whole length; returns the frame's size.
local function dissect_frame(tvb, pinfo, tree, offset, channel)
    local length = tvb(offset + 6, 4):uint()
    local mtype = tvb(offset + 3, 1):uint()
    local name = type_names[mtype] or ("type-" .. mtype)
    local total = HEADER_SIZE + length
    local t = tree:add(tavolo, tvb(offset, total), "Tavolo " .. name)
    t:add(f.magic, tvb(offset, 2))
    local vitem = t:add(f.version, tvb(offset + 2, 1))
    local titem = t:add(f.type, tvb(offset + 3, 1))
    t:add(f.type_name, tvb(offset + 3, 1), name)
    t:add(f.flags, tvb(offset + 4, 1))
    t:add(f.reserved, tvb(offset + 5, 1))
    t:add(f.length, tvb(offset + 6, 4))
    t:add(f.channel, channel):set_generated()
    local p = offset + HEADER_SIZE
    local info = name
    local version = tvb(offset + 2, 1):uint()
    local sealed = SEALED_VERSIONS[version]
    if version ~= VERSION and not sealed then vitem:add_proto_expert_info(e_version) end
    if not type_names[mtype] then titem:add_proto_expert_info(e_type) end
    if length > 0 then t:add(f.payload, tvb(p, length)) end
    -- v2: a goodbye refusing a handshake is sent in clear (JSON); every other payload is ciphertext.
    local clear_goodbye = mtype == 4 and length > 0 and tvb(p, 1):uint() == 0x7b and parse_json(tvb(p, length):raw())

    if sealed and mtype == 7 then
        info = string.format("noise-handshake %d bytes", length)
    elseif sealed and mtype == 6 and length >= 40 then
        t:add(f.dg_sender, tvb(p, 16), tvb(p, 16):bytes():tohex():lower())
        t:add(f.dg_seq, tvb(p + 16, 8))
        info = string.format("sealed datagram seq=%s", tvb(p + 16, 8):uint64())
    elseif sealed and not clear_goodbye then
        info = string.format("sealed %s %d bytes", name, length)
    elseif mtype == 1 then
        local obj = dissect_json(tvb, p, length, pinfo, tree, t)
        add_member(t, tvb, p, obj, "version", f.hs_version, "uint")
        local id = add_member(t, tvb, p, obj, "nodeId", f.hs_node_id)
        local n = add_member(t, tvb, p, obj, "name", f.hs_name)
        add_member(t, tvb, p, obj, "udpPort", f.hs_udp_port, "uint")
        add_member(t, tvb, p, obj, "capabilities", f.hs_capabilities, "list")
        if obj and not (id and n) then t:add_proto_expert_info(e_bad_payload, "handshake without nodeId or name") end
        info = string.format("handshake %s %s", n or "?", id and id:sub(1, 8) or "?")
    elseif mtype == 2 or mtype == 3 then
        local obj = dissect_json(tvb, p, length, pinfo, tree, t)
        local seq = add_member(t, tvb, p, obj, "seq", f.hb_seq, "uint64")
        add_member(t, tvb, p, obj, "sentAt", f.hb_sent_at, "uint64")
        info = string.format("%s seq=%s", name, seq or "?")
    elseif mtype == 4 then
        local obj = dissect_json(tvb, p, length, pinfo, tree, t)
        local code = add_member(t, tvb, p, obj, "code", f.bye_code)
        add_member(t, tvb, p, obj, "reason", f.bye_reason)
        info = string.format("goodbye %s", code or "?")
    elseif mtype == 5 then
        local service = dissect_service(tvb, p, length, t)
        local kind
        if service then
            local obj = dissect_json(tvb, p + 1, length - 1, pinfo, tree, t)
            kind = obj and obj.kind == "object" and (add_member(t, tvb, p + 1, obj, "type", f.app_type)
                or add_member(t, tvb, p + 1, obj, "kind", f.app_type))
        end
        info = "application" .. (service and (" " .. service) or "") .. (kind and (" " .. kind) or "")
    elseif mtype == 8 then
        local service = dissect_service(tvb, p, length, t)
        local summary = service and dissect_compact(tvb, p + 1, length - 1, pinfo, tree, t)
        info = "compact" .. (service and (" " .. service) or "") .. (summary and (" " .. summary) or "")
    elseif mtype == 6 then
        if length < 24 then
            t:add_proto_expert_info(e_bad_payload, "datagram shorter than its 24-byte prefix")
        else
            t:add(f.dg_sender, tvb(p, 16), tvb(p, 16):bytes():tohex():lower())
            t:add(f.dg_seq, tvb(p + 16, 8))
            if length > 24 then t:add(f.dg_body, tvb(p + 24, length - 24)) end
            local kind
            local service = dissect_service(tvb, p + 24, length - 24, t)
            local m, m_length = p + 25, length - 25
            local first = service and m_length > 0 and tvb(m, 1):uint() or 0
            if not service then
                kind = nil
            elseif first >= 1 and first <= 8 then  -- a compact body (section 13.1)
                kind = dissect_compact(tvb, m, m_length, pinfo, tree, t)
            else
                local obj = dissect_json(tvb, m, m_length, pinfo, tree, t)
                kind = obj and obj.kind == "object" and (add_member(t, tvb, m, obj, "type", f.app_type)
                    or add_member(t, tvb, m, obj, "kind", f.app_type))
            end
            info = string.format("datagram seq=%s%s%s", tvb(p + 16, 8):uint64(), service and (" " .. service) or "",
                kind and (" " .. kind) or "")
        end
    end
    -- The json dissector writes its own columns; the packet's summary is ours.
    info_parts[#info_parts + 1] = info
    pinfo.cols.protocol:set("Tavolo")
    pinfo.cols.info:set(table.concat(info_parts, ", "))
    return total
end

local function start_info(pinfo)
    info_parts = {}
    pinfo.cols.protocol:set("Tavolo")
    pinfo.cols.info:set("")
end

-- TCP: dissect_tcp_pdus asks for each frame's length and reassembles frames that span segments.
local function tcp_pdu_length(tvb, pinfo, offset)
    return HEADER_SIZE + tvb(offset + 6, 4):uint()
end

local function tcp_pdu(tvb, pinfo, tree)
    if tvb(0, 2):string() ~= "TV" then
        local t = tree:add(tavolo, tvb(), "Tavolo (not a frame header)")
        t:add_proto_expert_info(e_bad_magic)
        return tvb:len()
    end
    if tvb(6, 4):uint() > MAX_PAYLOAD then
        local t = tree:add(tavolo, tvb(0, HEADER_SIZE), "Tavolo (oversized frame)")
        t:add_proto_expert_info(e_too_large)
        return tvb:len()
    end
    return dissect_frame(tvb, pinfo, tree, 0, "reliable")
end

local function dissect_tcp(tvb, pinfo, tree)
    start_info(pinfo)
    dissect_tcp_pdus(tvb, tree, HEADER_SIZE, tcp_pdu_length, tcp_pdu, true)
    return tvb:len()
end

local function dissect_udp(tvb, pinfo, tree)
    if tvb:len() < HEADER_SIZE or tvb(0, 2):string() ~= "TV" then return 0 end
    start_info(pinfo)
    local length = tvb(6, 4):uint()
    if HEADER_SIZE + length > tvb:len() then
        local t = tree:add(tavolo, tvb(), "Tavolo (truncated datagram)")
        t:add_proto_expert_info(e_bad_payload, "header announces more bytes than the datagram has")
        return tvb:len()
    end
    dissect_frame(tvb, pinfo, tree, 0, "unreliable")
    return tvb:len()
end

function tavolo.dissector(tvb, pinfo, tree)
    if pinfo.port_type == 2 then return dissect_tcp(tvb, pinfo, tree) end  -- PT_TCP
    return dissect_udp(tvb, pinfo, tree)
end

local function heur_tcp(tvb, pinfo, tree)
    if not tavolo.prefs.heuristics or not header_ok(tvb, 0) then return false end
    pinfo.conversation = tavolo  -- the rest of the stream (continuation segments) is ours too
    dissect_tcp(tvb, pinfo, tree)
    return true
end

local function heur_udp(tvb, pinfo, tree)
    if not tavolo.prefs.heuristics or tvb:len() < HEADER_SIZE or not header_ok(tvb, 0) then return false end
    dissect_udp(tvb, pinfo, tree)
    return true
end

tavolo:register_heuristic("tcp", heur_tcp)
tavolo:register_heuristic("udp", heur_udp)

local registered_ports = ""
function tavolo.prefs_changed()
    local tcp_table, udp_table = DissectorTable.get("tcp.port"), DissectorTable.get("udp.port")
    if registered_ports ~= "" then
        tcp_table:remove(registered_ports, tavolo)
        udp_table:remove(registered_ports, tavolo)
    end
    registered_ports = tavolo.prefs.ports and tostring(tavolo.prefs.ports) or ""
    if registered_ports ~= "" then
        tcp_table:add(registered_ports, tavolo)
        udp_table:add(registered_ports, tavolo)
    end
end
