import JSON

// What the scene reader (SceneDecodingReader.swift) reads from: one protocol, two sources
// (docs/rules.md#one-pass). `QuietSource` reads the body's bytes front to back and gives up at the first
// problem; `ReportingSource` reads a parsed document and reports every problem at its JSON pointer. The reader
// is written once against this protocol and specialised for each source by the optimiser.

/// The members of one kind of object of a request: each case's name is the member's name in JSON, and the
/// order of the cases is the order in which the reporting source asks for them (and lists its errors).
protocol SceneMembers: WireNamed, Equatable {}

extension SceneMembers {
    /// The member's bit in a mask: bit `ordinal` (its position in `allCases`), a constant where the case is.
    @inline(__always)
    var bit: UInt64 { 1 << UInt64(ordinal) }

    /// Every member (every bit: a mask to ask for with, not to compare with).
    static var everyMember: UInt64 { UInt64.max }
}

/// The JSON type of the value at hand.
enum SceneValueType { case object, array, string, number, bool, null }

/// A request as the scene reader meets it: objects whose members are named by a `SceneMembers` type, arrays, and
/// the value at hand (the member or element last given), read as the type the reader expects.
///
/// The quiet source answers nil or false for anything doubtful and then `failed`; the reporting source reports
/// the problem where it is and goes on. `null` reads as absent everywhere (nil, without a problem), except in
/// `constants`. Messages are autoclosures, built only by the reporting source.
protocol SceneSource {
    /// An open object, as the source iterates it.
    associatedtype Object
    /// An open array.
    associatedtype Elements

    /// Whether the members of an object are met in the order of their cases (else as written).
    static var readsInCaseOrder: Bool { get }
    /// True once the quiet source has given up (never for the reporting source).
    var failed: Bool { get }
    /// The number of problems met so far (the quiet source: 0 or 1).
    var problems: Int { get }
    /// The type of the value at hand.
    mutating func peek() -> SceneValueType

    /// Opens the value at hand as an object of `M`'s members; nil for `null` (a problem too unless
    /// `nullIsAbsent`) and for another type (then "expected `what`, found …").
    mutating func object<M: SceneMembers>(_: M.Type, _ what: StaticString, nullIsAbsent: Bool) -> Object?
    /// The next member of `o` that is one of `M`'s, its value now at hand; nil at the end of the object. The
    /// quiet source reads them in the order written and gives up at an unknown, repeated or unasked one; the
    /// reporting source asks for each of `asking` in the order of `M`'s cases, and leaves the others unread.
    mutating func next<M: SceneMembers>(_ o: inout Object, _: M.Type, asking: UInt64) -> M?
    /// The next member of `o` whose name is one of `keys`, by its index there, its value now at hand; a member
    /// that is not is a problem (`unknown(name)`), not an unknown field.
    mutating func next(_ o: inout Object, listed keys: [String], unknown: (String) -> String) -> Int?
    /// The members of `o` read so far, one bit each by the ordinal of their case (the quiet source only).
    func given(_ o: Object) -> UInt64
    /// Members in `o` (after its end), known or not.
    func count(_ o: Object) -> Int
    /// Closes `o`, its members done: its path is the value at hand's again. With `reportUnknown`, the reporting
    /// source reports its unread members as unknown fields, each with a member of `M` it is one edit from.
    mutating func end<M: SceneMembers>(_ o: inout Object, _: M.Type, reportUnknown: Bool)
    /// "is required" at `member` of `o` (after its end) — or, when an unread member of `o` is one edit from it, an
    /// error at that member that leads with the likely typo.
    mutating func missing<M: SceneMembers>(_ o: Object, _ member: M)
    /// An unread member of `o` (after its end) that is one edit from `name`.
    func typo<M: SceneMembers>(_ o: Object, _: M.Type, of name: String) -> String?

    /// Opens the value at hand as an array of at most `maxCount` elements; nil for `null` and for anything else.
    mutating func array(maxCount: Int) -> Elements?
    /// Puts `a`'s next element at hand: false at the end of the array.
    mutating func next(_ a: inout Elements) -> Bool

    /// A finite number in `range`; nil for `null`.
    mutating func number(_ range: ClosedRange<Double>?) -> Double?
    /// A number in `range`, `null` included in what is refused.
    mutating func numberNotNull(_ range: ClosedRange<Double>) -> Double?
    /// A string of `length` characters; nil for `null`.
    mutating func string(_ length: ClosedRange<Int>) -> String?
    mutating func bool() -> Bool?
    /// Reads past the `null` at hand.
    mutating func null()
    /// One of `E`'s raw values; nil for `null`. Anything else is a problem that lists them.
    mutating func enumeration<E: WireNamed>(_: E.Type) -> E?
    /// The string at hand when it is one of `E`'s raw values, nil otherwise, without a problem.
    mutating func name<E: WireNamed>(_: E.Type) -> E?

    /// A problem with the value at hand.
    mutating func problem(_ message: @autoclosure () -> String)
    /// A problem at member `key` of the value at hand (its element `index`, its member `then`).
    mutating func problem(
        at key: @autoclosure () -> String, index: Int, then: String?, _ message: @autoclosure () -> String)
    /// A problem at member `key` (`then`) of the document's root.
    mutating func problem(root key: SceneMember, then: String?, _ message: @autoclosure () -> String)
    /// A problem the reporting source has reported already where it met it (a value it refused): the quiet
    /// source gives up.
    mutating func decline()
}

extension SceneSource {
    /// The object at hand, of `M`'s members; `null` is absent.
    mutating func object<M: SceneMembers>(_: M.Type) -> Object? { object(M.self, "an object", nullIsAbsent: true) }

    mutating func problem(at key: @autoclosure () -> String, _ message: @autoclosure () -> String) {
        problem(at: key(), index: -1, then: nil, message())
    }
    mutating func problem(root key: SceneMember, _ message: @autoclosure () -> String) {
        problem(root: key, then: nil, message())
    }
}
