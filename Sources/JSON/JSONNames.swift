/// The raw values of a string enumeration, kept as bytes so that a decoder finds the case a JSON string names
/// without making a `String` of it or of each candidate (`ObjectReader.enumeration`). Made once per type:
///
///     extension Posture: JSONStringEnumeration { public static let jsonNames = JSONNames(Posture.self) }
///
/// The cases are chained by the length of their raw value: a lookup compares bytes only with the cases of the
/// string's length, usually one.
public final class JSONNames: @unchecked Sendable {
    // @unchecked Sendable: the buffers are written in init only and freed in deinit.
    @usableFromInline let count: Int
    @usableFromInline let text: UnsafeMutablePointer<UInt8>
    /// Case i's raw value is `text[starts[i] ..< starts[i + 1]]`.
    @usableFromInline let starts: UnsafeMutablePointer<Int>
    /// Length → the first case with a raw value that long (−1: none), for lengths below `lengthSlots`;
    /// case → the next case of the same length (−1: none).
    @usableFromInline let firstOfLength: UnsafeMutablePointer<Int>
    @usableFromInline let nextOfLength: UnsafeMutablePointer<Int>
    @usableFromInline static var lengthSlots: Int { 64 }

    public init<E: RawRepresentable & CaseIterable>(_: E.Type) where E.RawValue == String {
        let values = E.allCases.map { Array($0.rawValue.utf8) }
        count = values.count
        starts = .allocate(capacity: count + 1)
        text = .allocate(capacity: max(1, values.reduce(0) { $0 + $1.count }))
        var at = 0
        for (i, v) in values.enumerated() {
            starts[i] = at
            (text + at).initialize(from: v, count: v.count)
            at += v.count
        }
        starts[count] = at
        firstOfLength = .allocate(capacity: JSONNames.lengthSlots)
        firstOfLength.initialize(repeating: -1, count: JSONNames.lengthSlots)
        nextOfLength = .allocate(capacity: max(1, count))
        nextOfLength.initialize(repeating: -1, count: max(1, count))
        for i in (0..<count).reversed() {
            let length = starts[i + 1] - starts[i]
            if length < JSONNames.lengthSlots {
                nextOfLength[i] = firstOfLength[length]
                firstOfLength[length] = i
            }
        }
    }

    deinit {
        text.deallocate()
        starts.deallocate()
        firstOfLength.deallocate()
        nextOfLength.deallocate()
    }

    /// The position in `allCases` of the case whose raw value has exactly these bytes, or nil. Inlined into the
    /// decoders (`ObjectReader.enumeration`), which live in another module: with `JSONNode.isString(_:)`, 300
    /// instructions less per typical decode than the calls.
    @inlinable @inline(__always)
    public func ordinal(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        guard n < JSONNames.lengthSlots else {
            // A raw value this long is not chained: compared with every case.
            for i in 0..<count where starts[i + 1] - starts[i] == n {
                if JSONDocument.sameBytes(text + starts[i], bytes.baseAddress!, count: n) { return i }
            }
            return nil
        }
        var i = firstOfLength[n]
        while i >= 0 {
            guard let p = bytes.baseAddress else { return i }  // the empty raw value
            if JSONDocument.sameBytes(text + starts[i], p, count: n) { return i }
            i = nextOfLength[i]
        }
        return nil
    }
}

/// A string enumeration with its raw values kept as bytes (`JSONNames`), which `ObjectReader.enumeration`
/// matches a member against.
public protocol JSONStringEnumeration: RawRepresentable, CaseIterable where RawValue == String {
    static var jsonNames: JSONNames { get }
}
