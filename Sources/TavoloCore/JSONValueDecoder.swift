// swift-format-ignore-file: NeverForceUnwrap

// (each `as! T` follows a check that T is that very type: the cast cannot fail)
/// Decodes a `Decodable` straight from a parsed `JSONValue`: no bytes in between, no error thrown to find a type.
///
/// Strict like the protocol (PROTOCOL.md §2): an integer field takes only an integer literal in range (`1.0` and
/// `1e0` are not integers), a number field takes either; a string is never a number and a number never a string.
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, codingPath: [any CodingKey] = []) {
        self.value = value
        self.codingPath = codingPath
    }

    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        if let v = value as? T { return v }
        return try T(from: JSONValueDecoder(value))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw mismatch([String: JSONValue].self, value, codingPath)
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self, value, codingPath) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValue(value: value, codingPath: codingPath)
    }
}

private func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
    if value == .null {
        return .valueNotFound(type, .init(codingPath: path, debugDescription: "expected \(type), found null"))
    }
    return .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(value.kindName)"))
}

extension JSONValue {
    fileprivate var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .unsigned, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One value's scalar reads, shared by the three container kinds.
private func decodeScalar<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
    switch value {
    case .bool(let b): if let v = b as? T { return v }
    case .string(let s): if let v = s as? T { return v }
    case .integer(let n):
        if let v = try integer(type, n, path) { return v }
        if T.self == Double.self { return Double(n) as! T }
        if T.self == Float.self { return Float(n) as! T }
    case .unsigned(let u):
        if T.self == UInt64.self { return u as! T }
        if T.self == UInt.self, let v = UInt(exactly: u) { return v as! T }
        if T.self == Double.self { return Double(u) as! T }
        if T.self == Float.self { return Float(u) as! T }
        if isScalar(type) && type != Bool.self && type != String.self {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "\(u) does not fit \(T.self)"))
        }
    case .number(let d):
        if T.self == Double.self { return d as! T }
        if T.self == Float.self { return Float(d) as! T }
    default: break
    }
    if T.self == JSONValue.self { return value as! T }
    if isScalar(type) { throw mismatch(type, value, path) }
    return try T(from: JSONValueDecoder(value, codingPath: path))
}

private func isScalar(_ type: Any.Type) -> Bool {
    type == Bool.self || type == String.self || type == Double.self || type == Float.self || type == Int.self
        || type == Int8.self || type == Int16.self || type == Int32.self || type == Int64.self || type == UInt.self
        || type == UInt8.self || type == UInt16.self || type == UInt32.self || type == UInt64.self
}

/// `n` as the fixed-width integer type `T`, nil if `T` is not one; out of range is an error, not a wrap.
private func integer<T>(_ type: T.Type, _ n: Int64, _ path: [any CodingKey]) throws -> T? {
    func exact<I: FixedWidthInteger>(_: I.Type) throws -> T {
        guard let v = I(exactly: n) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "\(n) does not fit \(I.self)"))
        }
        return v as! T
    }
    switch type {
    case is Int.Type: return try exact(Int.self)
    case is Int8.Type: return try exact(Int8.self)
    case is Int16.Type: return try exact(Int16.self)
    case is Int32.Type: return try exact(Int32.self)
    case is Int64.Type: return try exact(Int64.self)
    case is UInt.Type: return try exact(UInt.self)
    case is UInt8.Type: return try exact(UInt8.self)
    case is UInt16.Type: return try exact(UInt16.self)
    case is UInt32.Type: return try exact(UInt32.self)
    case is UInt64.Type: return try exact(UInt64.self)
    default: return nil
    }
}

private struct SingleValue: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    func decodeNil() -> Bool { value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeScalar(type, value, codingPath) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func member(_ key: Key) throws -> JSONValue {
        guard let v = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no member '\(key.stringValue)'"))
        }
        return v
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decodeScalar(type, try member(key), codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try JSONValueDecoder(try member(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONValueDecoder(try member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        JSONValueDecoder(members["super"] ?? .null, codingPath: codingPath + [IndexKey(stringValue: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONValueDecoder(members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }
    private var path: [any CodingKey] { codingPath + [IndexKey(intValue: currentIndex)] }

    mutating func next(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path, debugDescription: "the array has only \(elements.count) elements"))
        }
        defer { currentIndex += 1 }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if elements[currentIndex] == .null {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let here = path
        return try decodeScalar(type, try next(type), here)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let here = path
        return try JSONValueDecoder(try next([String: JSONValue].self), codingPath: here).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let here = path
        return try JSONValueDecoder(try next([JSONValue].self), codingPath: here).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let here = path
        return JSONValueDecoder(try next(JSONValue.self), codingPath: here)
    }
}

private struct IndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
}
