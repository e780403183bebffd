import Foundation

/// The `Encoder` side of the canonical writer: turns any `Encodable` into the writer's nodes, containers and all.
extension CanonicalJSONWriter {
    final class ValueEncoder: Encoder {
        let root: Root
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        /// The value encoded; containers asked for again share the node already made.
        var result: Node?

        init(root: Root, codingPath: [any CodingKey]) {
            self.root = root
            self.codingPath = codingPath
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let object: ObjectNode
            if case .object(let o)? = result {
                object = o
            } else {
                object = ObjectNode()
                result = .object(object)
            }
            return KeyedEncodingContainer(KeyedContainer(object: object, root: root, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let array: ArrayNode
            if case .array(let a)? = result {
                array = a
            } else {
                array = ArrayNode()
                result = .array(array)
            }
            return UnkeyedContainer(array: array, root: root, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let object: ObjectNode
        let root: Root
        let codingPath: [any CodingKey]

        private func put(_ node: Node, _ key: Key) { object.members.append((key.stringValue, node)) }

        mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { throw Unsupported() }
        mutating func encode(_ value: Float, forKey key: Key) throws { throw Unsupported() }
        mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(Int64(value)), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { put(.int(Int64(value)), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { put(.int(Int64(value)), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { put(.int(Int64(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { put(.int(value), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.uint(value), key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let node = try CanonicalJSONWriter.node(for: value, root: root, codingPath: codingPath + [key])
            put(node ?? .object(ObjectNode()), key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let nested = ObjectNode()
            put(.object(nested), key)
            return KeyedEncodingContainer(
                KeyedContainer<NestedKey>(object: nested, root: root, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = ArrayNode()
            put(.array(nested), key)
            return UnkeyedContainer(array: nested, root: root, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder {
            root.unsupported = true
            return ValueEncoder(root: root, codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            root.unsupported = true
            return ValueEncoder(root: root, codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let array: ArrayNode
        let root: Root
        let codingPath: [any CodingKey]
        var count: Int { array.items.count }

        private func add(_ node: Node) { array.items.append(node) }

        mutating func encodeNil() throws { add(.null) }
        mutating func encode(_ value: Bool) throws { add(.bool(value)) }
        mutating func encode(_ value: String) throws { add(.string(value)) }
        mutating func encode(_ value: Double) throws { throw Unsupported() }
        mutating func encode(_ value: Float) throws { throw Unsupported() }
        mutating func encode(_ value: Int) throws { add(.int(Int64(value))) }
        mutating func encode(_ value: Int8) throws { add(.int(Int64(value))) }
        mutating func encode(_ value: Int16) throws { add(.int(Int64(value))) }
        mutating func encode(_ value: Int32) throws { add(.int(Int64(value))) }
        mutating func encode(_ value: Int64) throws { add(.int(value)) }
        mutating func encode(_ value: UInt) throws { add(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt8) throws { add(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt16) throws { add(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt32) throws { add(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt64) throws { add(.uint(value)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            add(try CanonicalJSONWriter.node(for: value, root: root, codingPath: codingPath) ?? .object(ObjectNode()))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let nested = ObjectNode()
            add(.object(nested))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, root: root, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = ArrayNode()
            add(.array(nested))
            return UnkeyedContainer(array: nested, root: root, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder {
            root.unsupported = true
            return ValueEncoder(root: root, codingPath: codingPath)
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: ValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        private func set(_ node: Node) { encoder.result = node }

        mutating func encodeNil() throws { set(.null) }
        mutating func encode(_ value: Bool) throws { set(.bool(value)) }
        mutating func encode(_ value: String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { throw Unsupported() }
        mutating func encode(_ value: Float) throws { throw Unsupported() }
        mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
        mutating func encode(_ value: Int8) throws { set(.int(Int64(value))) }
        mutating func encode(_ value: Int16) throws { set(.int(Int64(value))) }
        mutating func encode(_ value: Int32) throws { set(.int(Int64(value))) }
        mutating func encode(_ value: Int64) throws { set(.int(value)) }
        mutating func encode(_ value: UInt) throws { set(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt8) throws { set(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt16) throws { set(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt32) throws { set(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt64) throws { set(.uint(value)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            set(
                try CanonicalJSONWriter.node(for: value, root: encoder.root, codingPath: encoder.codingPath)
                    ?? .object(ObjectNode()))
        }
    }
}
