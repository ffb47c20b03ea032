/// An RFC 6901 JSON pointer, built up while walking a document (`/presentations/2/detents/0`).
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    public private(set) var tokens: [String]

    public init(_ tokens: [String] = []) { self.tokens = tokens }

    public static let root = JSONPointer()

    public func appending(_ key: String) -> JSONPointer {
        var copy = self
        copy.tokens.append(key)
        return copy
    }

    public func appending(_ index: Int) -> JSONPointer { appending(String(index)) }

    /// The pointer text: "" for the root, otherwise "/a/b" with `~` → `~0` and `/` → `~1`.
    public var description: String {
        var out = ""
        for t in tokens {
            out.append("/")
            for ch in t {
                switch ch {
                case "~": out.append("~0")
                case "/": out.append("~1")
                default: out.append(ch)
                }
            }
        }
        return out
    }
}
