import JSON

/// The comparison of the impact report: every leaf where two answers differ by more than the tolerance, with the
/// pointer pattern it counts under (array indices as `*`). One walk, comparing leaves only (`Replay.differences`
/// compares each subtree before descending into it, which is quadratic in the depth), and objects side by side
/// when both have their keys sorted (the engine writes them sorted), without a look-up per key.
struct ImpactDiff {
    let tolerance: Double
    var differences: [Replay.Difference] = []
    var patterns: [String] = []
    /// For each difference, the `detent` of the `detents` element it is in (a medium and a large detent move
    /// apart), else nil.
    var detents: [String?] = []
    private var detent: String?

    init(tolerance: Double) { self.tolerance = tolerance }

    /// A step of the path: a member's key, or an element's index (`*` in the pattern). The pointer and the pattern
    /// are written only for a difference.
    enum Step {
        case key(String)
        case index(Int)
    }

    mutating func walk(_ a: JSONValue, _ b: JSONValue, path: inout [Step]) {
        if differences.count >= Replay.maxDifferences { return }
        switch (a, b) {
        case (.object(let x), .object(let y)): objects(x, y, path: &path)
        case (.array(let x), .array(let y)):
            let outer = detent
            for i in 0..<max(x.count, y.count) {
                let left = i < x.count ? x[i] : .null
                let right = i < y.count ? y[i] : .null
                if case .some(.key("detents")) = path.last {
                    detent = left["detent"]?.stringValue ?? right["detent"]?.stringValue
                }
                path.append(.index(i))
                walk(left, right, path: &path)
                path.removeLast()
            }
            detent = outer
        case (.number(let x), .number(let y)):
            if abs(x - y) > tolerance { add(a, b, path: path) }
        default:
            if a != b { add(a, b, path: path) }
        }
    }

    private mutating func add(_ a: JSONValue, _ b: JSONValue, path: [Step]) {
        var tokens: [String] = []
        var pattern = ""
        for step in path {
            switch step {
            case .key(let k):
                tokens.append(k)
                pattern += "/" + escaped(k)
            case .index(let i):
                tokens.append(String(i))
                pattern += "/*"
            }
        }
        differences.append(Replay.Difference(path: JSONPointer(tokens), before: a, after: b))
        patterns.append(pattern)
        detents.append(detent)
    }

    private mutating func objects(_ x: JSONObject, _ y: JSONObject, path: inout [Step]) {
        var xs = x.members
        var ys = y.members
        if !isSorted(xs) { xs.sort { $0.key < $1.key } }
        if !isSorted(ys) { ys.sort { $0.key < $1.key } }
        var i = 0
        var j = 0
        while i < xs.count || j < ys.count {
            let key: String
            let left: JSONValue
            let right: JSONValue
            if j >= ys.count || (i < xs.count && xs[i].key < ys[j].key) {
                (key, left, right) = (xs[i].key, xs[i].value, .null)
                i += 1
            } else if i >= xs.count || ys[j].key < xs[i].key {
                (key, left, right) = (ys[j].key, .null, ys[j].value)
                j += 1
            } else {
                (key, left, right) = (xs[i].key, xs[i].value, ys[j].value)
                i += 1
                j += 1
            }
            path.append(.key(key))
            walk(left, right, path: &path)
            path.removeLast()
        }
    }

    private func isSorted(_ members: [JSONMember]) -> Bool {
        var k = 1
        while k < members.count {
            if !(members[k - 1].key < members[k].key) { return false }
            k += 1
        }
        return true
    }

    /// A pointer token (RFC 6901): `~` as `~0`, `/` as `~1`.
    private func escaped(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == 0x7E || $0 == 0x2F }) else { return key }
        var out = ""
        for c in key {
            switch c {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.append(c)
            }
        }
        return out
    }
}
