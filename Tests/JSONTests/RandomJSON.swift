import TestSupport

@testable import JSON

/// Random JSON values for round-trip and determinism tests.
struct RandomJSON {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func value(depth: Int = 0) -> JSONValue {
        let kind = Int.random(in: 0..<(depth >= 4 ? 4 : 6), using: &rng)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .number(number())
        case 3: return .string(string())
        case 4:
            let n = Int.random(in: 0...5, using: &rng)
            return .array((0..<n).map { _ in value(depth: depth + 1) })
        default:
            let n = Int.random(in: 0...6, using: &rng)
            var object = JSONObject()
            for _ in 0..<n { object[string()] = value(depth: depth + 1) }
            return .object(object)
        }
    }

    /// Integers, short decimals and arbitrary finite bit patterns (subnormals and huge exponents included).
    mutating func number() -> Double {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return Double(Int.random(in: -100_000...100_000, using: &rng))
        case 1: return Double(Int.random(in: -99_999...99_999, using: &rng)) / 8
        case 2: return Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &rng))
        default:
            while true {
                let d = Double(bitPattern: rng.next())
                if d.isFinite { return d }
            }
        }
    }

    /// Strings mixing ASCII, characters that need escaping, and multi-byte scalars.
    mutating func string() -> String {
        let pool: [Unicode.Scalar] = [
            "a", "b", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "é",
            "\u{2028}", "\u{2029}", "€", "\u{FFFF}", "😀", "\u{10FFFF}", "e", "\u{301}",
        ]
        let n = Int.random(in: 0...8, using: &rng)
        var s = String.UnicodeScalarView()
        for _ in 0..<n { s.append(pool[Int.random(in: 0..<pool.count, using: &rng)]) }
        return String(s)
    }

    /// The same value with every object's members in a random order.
    mutating func shuffled(_ v: JSONValue) -> JSONValue {
        switch v {
        case .array(let a): return .array(a.map { shuffled($0) })
        case .object(let o):
            var members = o.members.map { JSONMember($0.key, shuffled($0.value)) }
            members.shuffle(using: &rng)
            return .object(JSONObject(members))
        default: return v
        }
    }
}
