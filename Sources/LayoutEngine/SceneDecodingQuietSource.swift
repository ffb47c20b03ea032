import JSON

/// The one-pass source (docs/rules.md#one-pass): a request's bytes read front to back (`JSONStreamReader`), with
/// no parsed document in between. It answers only when it is sure: the first problem, unknown or repeated member,
/// escape or anything else outside what the stream reader reads makes it give up (`failed`), and nothing it
/// gives up on costs a message.
struct QuietSource: SceneSource {
    var r: JSONStreamReader
    /// Every name table, looked up once for the request (`WireNameTables`).
    let tables = WireNameTables.shared

    struct Object {
        /// The names of the object's members, which live as long as the program, so neither retained nor
        /// released here (a retain and a release per member cost more than matching its name).
        let names: Unmanaged<JSONNames>
        var first = true
        /// The members met, one bit each by the ordinal of their case (a repeated one gives up).
        var seen: UInt64 = 0
    }

    struct Elements {
        var first = true
        var count = 0
        let maxCount: Int
    }

    static var readsInCaseOrder: Bool { false }
    var failed: Bool { r.failed }
    var problems: Int { r.failed ? 1 : 0 }

    mutating func peek() -> SceneValueType {
        switch r.peek() {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        default: return .number
        }
    }

    @inline(__always)
    mutating func object<M: SceneMembers>(_: M.Type, _ what: StaticString, nullIsAbsent: Bool) -> Object? {
        if r.beginObject() { return Object(names: tables.names(M.self)) }
        if !nullIsAbsent { r.fail() }
        return nil
    }

    @inline(__always)
    mutating func next<M: SceneMembers>(_ o: inout Object, _: M.Type, asking: UInt64) -> M? {
        guard let k = r.nextKey(&o.first) else { return nil }
        guard let i = o.names._withUnsafeGuaranteedRef({ $0.ordinal(of: k) }) else {
            r.fail()
            return nil
        }
        let bit: UInt64 = 1 << UInt64(truncatingIfNeeded: i)
        guard o.seen & bit == 0, asking & bit != 0 else {
            r.fail()
            return nil
        }
        o.seen |= bit
        return M.ofOrdinal(i)
    }

    mutating func next(_ o: inout Object, listed keys: [String], unknown: (String) -> String) -> Int? {
        guard let k = r.nextKey(&o.first) else { return nil }
        guard let i = keys.firstIndex(where: { $0.utf8.elementsEqual(k) }), i < 64, o.seen & (1 << UInt64(i)) == 0
        else {
            r.fail()
            return nil
        }
        o.seen |= 1 << UInt64(i)
        return i
    }

    func given(_ o: Object) -> UInt64 { o.seen }
    func count(_ o: Object) -> Int { o.seen.nonzeroBitCount }
    @inline(__always)
    mutating func end<M: SceneMembers>(_ o: inout Object, _: M.Type, reportUnknown: Bool) {}
    mutating func missing<M: SceneMembers>(_ o: Object, _ member: M) { r.fail() }
    func typo<M: SceneMembers>(_ o: Object, _: M.Type, of name: String) -> String? { nil }

    @inline(__always)
    mutating func array(maxCount: Int) -> Elements? { r.beginArray() ? Elements(maxCount: maxCount) : nil }

    @inline(__always)
    mutating func next(_ a: inout Elements) -> Bool {
        guard r.nextElement(&a.first) else { return false }
        a.count &+= 1
        if a.count > a.maxCount {
            r.fail()
            return false
        }
        return true
    }

    @inline(__always)
    mutating func number(_ range: ClosedRange<Double>?) -> Double? {
        guard let d = r.number() else { return nil }
        if !d.isFinite || !(range?.contains(d) ?? true) { r.fail() }
        return d
    }

    mutating func numberNotNull(_ range: ClosedRange<Double>) -> Double? {
        guard let d = number(range) else {
            r.fail()
            return nil
        }
        return d
    }

    /// A string whose length in characters lies in `length` (its length in bytes when it is ASCII).
    @inline(__always)
    mutating func string(_ length: ClosedRange<Int>) -> String? {
        guard let bytes = r.stringBytes() else { return nil }
        let s = JSONStreamReader.string(bytes)
        if !length.contains(r.lastStringIsASCII ? bytes.count : s.count) { r.fail() }
        return s
    }

    @inline(__always)
    mutating func bool() -> Bool? { r.bool() }

    mutating func null() { _ = r.bool() }

    @inline(__always)
    mutating func enumeration<E: WireNamed>(_: E.Type) -> E? {
        guard let bytes = r.stringBytes() else { return nil }
        guard let k = ordinal(E.self, of: bytes) else {
            r.fail()
            return nil
        }
        return caseOfOrdinal(k)
    }

    @inline(__always)
    mutating func name<E: WireNamed>(_: E.Type) -> E? {
        guard let bytes = r.stringBytes(), let k = ordinal(E.self, of: bytes) else { return nil }
        return caseOfOrdinal(k)
    }

    /// The position of the case of `E` whose raw value is `bytes`, through the request's tables.
    @inline(__always)
    private func ordinal<E: WireNamed>(_: E.Type, of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        tables.names(E.self)._withUnsafeGuaranteedRef { $0.ordinal(of: bytes) }
    }

    mutating func problem(_ message: @autoclosure () -> String) { r.fail() }
    mutating func problem(
        at key: @autoclosure () -> String, index: Int, then: String?, _ message: @autoclosure () -> String
    ) { r.fail() }
    mutating func problem(root key: SceneMember, then: String?, _ message: @autoclosure () -> String) {
        r.fail()
    }
    mutating func decline() { r.fail() }
}
