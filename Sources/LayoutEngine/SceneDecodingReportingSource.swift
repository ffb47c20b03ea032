import JSON

/// The reporting source: a parsed request (`JSONDocument`), every problem reported to `mapper` at its JSON
/// pointer with the message a client reads, and reading goes on. The members of an object are asked for in the
/// order of their cases (so errors come in that order, whatever the order written); those not asked for, or not
/// known, are reported as unknown fields when the object ends, each with the known member it is one edit from.
/// Pointers are built only to report.
struct ReportingSource: SceneSource {
    let mapper: JSONMapper
    /// Where the document's root sits (a scene nested in another document, a fold of a device profile).
    let prefix: JSONPointer
    /// The value at hand.
    var value: JSONNode
    /// Its place below `prefix`.
    var path: [Token] = []

    enum Token {
        case key(String)
        case index(Int)
    }

    /// An open object: which of its members are known and read, by the ordinal of their case (the members
    /// themselves are found again in the document when asked for, without a copy of them).
    struct Object {
        let node: JSONNode
        /// Cases whose member is there.
        let present: UInt64
        /// Members that are not one of the object's.
        let unknown: Int
        /// Cases whose member was read (asked for and there, `null` included).
        var read: UInt64 = 0
        /// The ordinal of the next case to ask for.
        var position = 0
        /// Cases asked for: the names an unknown member is compared with.
        var asked: UInt64 = 0
        /// Cases given (asked for and there, not `null`).
        var given: UInt64 = 0
        /// The object's own depth in `path`.
        let base: Int
        /// For `next(_:listed:unknown:)`: the object's members, made on its first call (an object read by its
        /// keys' list is read member by member, in order), and how many of them are done.
        var listed: [(key: String, value: JSONNode)]?
        var listedPosition = 0
    }

    struct Elements {
        var iterator: JSONElements.Iterator
        var index = -1
        let base: Int
    }

    init(_ value: JSONNode, mapper: JSONMapper, at prefix: JSONPointer = .root) {
        self.mapper = mapper
        self.prefix = prefix
        self.value = value
    }

    static var readsInCaseOrder: Bool { true }
    var failed: Bool { false }
    var problems: Int { mapper.errorCount }

    /// The pointer of the value at hand (with `then` appended).
    func pointer(_ then: [String] = []) -> JSONPointer {
        var tokens = prefix.tokens
        for t in path {
            switch t {
            case .key(let k): tokens.append(k)
            case .index(let i): tokens.append(String(i))
            }
        }
        return JSONPointer(tokens + then)
    }

    mutating func peek() -> SceneValueType {
        if value.isObject { return .object }
        if value.isArray { return .array }
        if value.isString { return .string }
        if value.isNull { return .null }
        return value.boolValue != nil ? .bool : .number
    }

    mutating func object<M: SceneMembers>(_: M.Type, _ what: StaticString, nullIsAbsent: Bool) -> Object? {
        guard value.isObject else {
            if !value.isNull || !nullIsAbsent { mapper.error(pointer(), "expected \(what), found \(value.typeName)") }
            return nil
        }
        let names = M.jsonNames
        var present: UInt64 = 0
        var unknown = 0
        value.forEachMember { key, _ in
            if let i = names.ordinal(of: key) { present |= 1 << UInt64(i) } else { unknown += 1 }
        }
        return Object(node: value, present: present, unknown: unknown, base: path.count)
    }

    mutating func next<M: SceneMembers>(_ o: inout Object, _: M.Type, asking: UInt64) -> M? {
        while o.position < 64 {
            let rest = asking & (UInt64.max << UInt64(o.position))
            o.asked |= rest
            let wanted = rest & o.present
            guard wanted != 0 else {
                o.position = 64
                return nil
            }
            let i = wanted.trailingZeroBitCount
            o.position = i + 1
            o.read |= 1 << UInt64(i)
            let names = M.jsonNames
            var found: JSONNode?
            o.node.forEachMember { key, v in
                if found == nil, names.ordinal(of: key) == i { found = v }
            }
            guard let v = found, !v.isNull else { continue }
            o.given |= 1 << UInt64(i)
            enter(v, o.base, .key(M.ofOrdinal(i).rawValue))
            return M.ofOrdinal(i)
        }
        return nil
    }

    mutating func next(_ o: inout Object, listed keys: [String], unknown: (String) -> String) -> Int? {
        let members = o.listed ?? o.node.members
        o.listed = members
        while o.listedPosition < members.count {
            let member = members[o.listedPosition]
            o.listedPosition += 1
            enter(member.value, o.base, .key(member.key))
            guard let i = keys.firstIndex(of: member.key) else {
                mapper.error(pointer(), unknown(member.key))
                continue
            }
            return i
        }
        return nil
    }

    /// The keys of `o`'s members that were not read: unknown ones and those not asked for, in document order.
    private func unread<M: SceneMembers>(_ o: Object, _: M.Type) -> [String] {
        guard o.unknown > 0 || o.read != o.present else { return [] }
        let names = M.jsonNames
        var keys: [String] = []
        o.node.forEachMember { key, _ in
            if let i = names.ordinal(of: key), o.read & (1 << UInt64(i)) != 0 { return }
            keys.append(String(decoding: key, as: UTF8.self))
        }
        return keys
    }

    /// `v`, at `token` of the object or array at depth `base`, becomes the value at hand.
    private mutating func enter(_ v: JSONNode, _ base: Int, _ token: Token) {
        truncate(base)
        path.append(token)
        value = v
    }

    /// `path` cut back to `depth` tokens.
    private mutating func truncate(_ depth: Int) {
        while path.count > depth { path.removeLast() }
    }

    func given(_ o: Object) -> UInt64 { o.given }
    func count(_ o: Object) -> Int { o.node.count }

    mutating func end<M: SceneMembers>(_ o: inout Object, _: M.Type, reportUnknown: Bool) {
        truncate(o.base)
        guard reportUnknown else { return }
        let unread = unread(o, M.self)
        guard !unread.isEmpty else { return }
        let cases = Array(M.allCases)
        let known = cases.indices.filter { o.asked & (1 << UInt64($0)) != 0 }.map { cases[$0].rawValue }
        let base = pointer()
        for key in unread {
            if mapper.unknownFields.listed.count >= JSONUnknownFields.limit {
                mapper.unknown(.root)  // only counted: no pointer, no suggestion
            } else {
                mapper.unknown(base.appending(key), suggestion: NameSuggestion.suggestion(for: key, among: known))
            }
        }
    }

    mutating func missing<M: SceneMembers>(_ o: Object, _ member: M) {
        let name = member.rawValue
        if let typo = typo(o, M.self, of: name) {
            mapper.error(
                pointer([typo]), "unknown field \"\(typo)\": did you mean \"\(name)\"? \"\(name)\" is required")
        } else {
            mapper.error(pointer([name]), "is required")
        }
    }

    func typo<M: SceneMembers>(_ o: Object, _: M.Type, of name: String) -> String? {
        unread(o, M.self).first { NameSuggestion.suggestion(for: $0, among: CollectionOfOne(name)) != nil }
    }

    mutating func array(maxCount: Int) -> Elements? {
        guard value.isArray else {
            if !value.isNull { mapper.error(pointer(), "expected an array, found \(value.typeName)") }
            return nil
        }
        if value.count > maxCount {
            mapper.error(pointer(), "has \(value.count) elements, at most \(maxCount) are allowed")
            return nil
        }
        return Elements(iterator: value.elements.makeIterator(), base: path.count)
    }

    mutating func next(_ a: inout Elements) -> Bool {
        guard let v = a.iterator.next() else {
            truncate(a.base)
            return false
        }
        a.index += 1
        enter(v, a.base, .index(a.index))
        return true
    }

    mutating func number(_ range: ClosedRange<Double>?) -> Double? {
        if value.isNull { return nil }
        if let d = value.numberValue, d.isFinite, range?.contains(d) ?? true { return d }
        return JSONMapper.number(value, at: pointer(), mapper: mapper, range: range)
    }

    mutating func numberNotNull(_ range: ClosedRange<Double>) -> Double? {
        if let d = value.numberValue, d.isFinite, range.contains(d) { return d }
        return JSONMapper.number(value, at: pointer(), mapper: mapper, range: range)
    }

    mutating func string(_ length: ClosedRange<Int>) -> String? {
        if value.isNull { return nil }
        guard let s = value.stringValue else {
            mapper.error(pointer(), "expected a string, found \(value.typeName)")
            return nil
        }
        let count = s.utf8.count <= length.upperBound && length.lowerBound <= min(s.utf8.count, 1) ? -1 : s.count
        if count >= 0, !length.contains(count) {
            mapper.error(pointer(), "must be \(length.lowerBound) to \(length.upperBound) characters long, is \(count)")
            return nil
        }
        return s
    }

    mutating func bool() -> Bool? {
        if value.isNull { return nil }
        guard let b = value.boolValue else {
            mapper.error(pointer(), "expected a boolean, found \(value.typeName)")
            return nil
        }
        return b
    }

    mutating func enumeration<E: WireNamed>(_: E.Type) -> E? {
        if value.isNull { return nil }
        if let s = value.stringValue, case .some(let k?) = s.utf8.withContiguousStorageIfAvailable(E.jsonNames.ordinal)
        {
            return caseOfOrdinal(k)
        }
        return JSONMapper.enumeration(value, at: pointer(), mapper: mapper)
    }

    mutating func null() {}

    mutating func name<E: WireNamed>(_: E.Type) -> E? {
        guard let s = value.stringValue,
            case .some(let k?) = s.utf8.withContiguousStorageIfAvailable(E.jsonNames.ordinal)
        else { return nil }
        return caseOfOrdinal(k)
    }

    mutating func problem(_ message: @autoclosure () -> String) { mapper.error(pointer(), message()) }

    mutating func problem(
        at key: @autoclosure () -> String, index: Int, then: String?, _ message: @autoclosure () -> String
    ) {
        var tokens = [key()]
        if index >= 0 { tokens.append(String(index)) }
        if let then { tokens.append(then) }
        mapper.error(pointer(tokens), message())
    }

    mutating func problem(root key: SceneMember, then: String?, _ message: @autoclosure () -> String) {
        mapper.error(JSONPointer(prefix.tokens + [key.rawValue] + (then.map { [$0] } ?? [])), message())
    }

    mutating func decline() {}
}
