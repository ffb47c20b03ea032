/// A scene's `constantSet` (docs/rules.md#constant-sets): `"default"` (the built-in values), the name of a stored
/// set (its latest version) or `name@n` (version n). The name follows the device-id rules
/// (`DeviceProfile.isValidID`); the version is a positive decimal integer of at most 9 digits.
public struct ConstantSetReference: Sendable, Hashable, CustomStringConvertible {
    /// The name of the built-in values; no stored set may take it.
    public static let defaultName = "default"
    /// The longest reference text: a name of 128 bytes, `@` and 9 digits.
    public static let maxLength = 138

    public var name: String
    /// Nil: the set's latest version.
    public var version: Int?

    public init(name: String, version: Int? = nil) {
        self.name = name
        self.version = version
    }

    /// Parses `text`; nil when it is not a name, optionally followed by `@` and a version.
    public init?(_ text: String) {
        guard text.utf8.count <= ConstantSetReference.maxLength else { return nil }
        if let at = text.utf8.lastIndex(of: 0x40) {
            let digits = text.utf8[text.utf8.index(after: at)...]
            guard (1...9).contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let v = Int(Substring(digits)), v > 0
            else { return nil }
            name = String(Substring(text.utf8[..<at]))
            version = v
        } else {
            name = text
            version = nil
        }
        guard DeviceProfile.isValidID(name), !(name == ConstantSetReference.defaultName && version != nil) else {
            return nil
        }
    }

    /// `"default"`: the built-in values, no stored set.
    public var isDefault: Bool { name == ConstantSetReference.defaultName }

    public var description: String { version.map { "\(name)@\($0)" } ?? name }
}

extension Scene {
    /// Puts `base` (a stored set's values) under the request's own `constants`: each constant the request gave
    /// keeps its value, every other one takes the set's (docs/rules.md#constant-sets).
    public mutating func useConstants(_ base: Constants) {
        var c = base
        for (i, d) in Constants.definitions.enumerated() where overriddenConstants & (1 << UInt32(i)) != 0 {
            c[keyPath: d.keyPath] = constants[keyPath: d.keyPath]
        }
        constants = c
    }
}
