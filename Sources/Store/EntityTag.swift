/// An entity tag of a stored representation: the quoted 64-bit FNV-1a hash of its canonical bytes — the same
/// content always has the same tag, across restarts and databases. Strong: it changes whenever a byte does.
public struct EntityTag: Sendable, Hashable, CustomStringConvertible {
    /// The tag as written in a header: `"` + 16 hex digits + `"`.
    public let quoted: String

    /// A tag as stored or as received (what is between and including the quotes).
    public init(quoted: String) { self.quoted = quoted }

    /// The tag of `bytes`.
    public init(canonicalBytes bytes: [UInt8]) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            hash ^= UInt64(b)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        quoted = "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    public var description: String { quoted }
}

/// The condition a write of a device profile carries (the service derives it from `If-Match`). It is checked
/// on the writer thread against the profile as it is when the write runs, so the check and the write are
/// atomic with respect to other writes.
public enum WritePrecondition: Sendable, Equatable {
    /// Write whatever is there (no `If-Match`).
    case unconditional
    /// Write only over an existing profile, whatever its tag (`If-Match: *`).
    case anyCurrent
    /// Write only when there is no profile yet: create, never replace (`If-None-Match: *`).
    case absent
    /// Write only when the current profile's tag is one of these (strong comparison). Empty: never.
    case matching([EntityTag])

    /// Whether the write may proceed over the profile whose tag is `current` (nil: there is none).
    public func holds(current: EntityTag?) -> Bool {
        switch self {
        case .unconditional: return true
        case .anyCurrent: return current != nil
        case .absent: return current == nil
        case .matching(let tags):
            guard let current else { return false }
            return tags.contains(current)
        }
    }
}
