/// A scene's `constantSet` (docs/rules.md#constant-sets): `"default"` (the built-in values), the name of a stored
/// set (its latest version) or `name@n` (version n). The name follows the device-id rules
/// (`DeviceProfile.isValidID`); the version is a positive decimal integer of at most 9 digits.
public struct ConstantSetReference: Sendable, Hashable, CustomStringConvertible {
    /// The name of the built-in values; no stored set may take it.
    public static let defaultName = "default"
    /// The longest reference text: a name of 128 bytes, `@` and 9 digits.
    public static let maxLength = 138

    /// The reference as written (`acme`, `acme@3`): what a catalog looks it up by.
    public let text: String
    /// Nil: the set's latest version.
    public let version: Int?
    /// The length in bytes of the name at the start of `text`.
    private let nameBytes: Int

    /// The set's name.
    public var name: String { version == nil ? text : String(Substring(text.utf8.prefix(nameBytes))) }

    public init(name: String, version: Int? = nil) {
        self.text = version.map { "\(name)@\($0)" } ?? name
        self.version = version
        self.nameBytes = name.utf8.count
    }

    /// Parses `text`; nil when it is not a name, optionally followed by `@` and a version. One pass over the
    /// bytes, without a copy: every pinned request parses one.
    public init?(_ text: String) {
        var t = text
        guard let parsed = t.withUTF8({ ConstantSetReference.parse($0) }) else { return nil }
        self.text = t
        self.nameBytes = parsed.nameBytes
        self.version = parsed.version
    }

    private static func parse(_ b: UnsafeBufferPointer<UInt8>) -> (nameBytes: Int, version: Int?)? {
        guard !b.isEmpty, b.count <= maxLength else { return nil }
        var i = 0
        var dotsOnly = true
        while i < b.count && b[i] != 0x40 {
            let c = b[i]
            guard
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D
                    || c == 0x5F || c == 0x2E
            else { return nil }
            if c != 0x2E { dotsOnly = false }
            i += 1
        }
        guard i >= 1, i <= 128, !dotsOnly else { return nil }
        if i == b.count { return (i, nil) }
        let digits = b.count - i - 1
        // No leading zero: a version has one spelling, the one the log stores and filters by.
        guard (1...9).contains(digits), b[i + 1] != 0x30 else { return nil }
        var v = 0
        for k in (i + 1)..<b.count {
            let c = b[k]
            guard c >= 0x30 && c <= 0x39 else { return nil }
            v = v * 10 + Int(c - 0x30)
        }
        // `default@n` names nothing: the built-in values have no versions.
        guard v > 0, !(i == 7 && matchesDefault(b)) else { return nil }
        return (i, v)
    }

    private static func matchesDefault(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        Array(b.prefix(7)) == Array(defaultName.utf8)
    }

    /// `"default"`: the built-in values, no stored set.
    public var isDefault: Bool { version == nil && text == ConstantSetReference.defaultName }

    public var description: String { text }
}

extension Scene {
    /// Puts `base` (a stored set's values) under the request's own `constants`: each constant the request gave
    /// keeps its value, every other one takes the set's (docs/rules.md#constant-sets).
    public mutating func useConstants(_ base: Constants) { constants = constants(over: base) }

    /// The constants in effect with `base` under the request's own `constants` (`useConstants` without the change).
    public func constants(over base: Constants) -> Constants {
        // The usual request names a set and overrides nothing: no key path is walked.
        if overriddenConstants == 0 { return base }
        var c = base
        for (i, d) in Constants.definitions.enumerated() where overriddenConstants & (1 << UInt32(i)) != 0 {
            c[keyPath: d.keyPath] = constants[keyPath: d.keyPath]
        }
        return c
    }
}
