import JSON
import LayoutEngine

/// Replaying a recorded request with today's engine and catalog, and comparing the answers.
public enum Replay {
    public struct Difference: Sendable, Equatable {
        public var path: JSONPointer
        public var before: JSONValue
        public var after: JSONValue

        public init(path: JSONPointer, before: JSONValue, after: JSONValue) {
            self.path = path
            self.before = before
            self.after = after
        }
    }

    /// At most this many differences are listed (a changed device table can touch every number).
    public static let maxDifferences = 1000

    /// What a record holds, by the operation that recorded it (`RequestRecord.path`).
    public enum Operation: Sendable, Equatable {
        case resolve, matrix

        /// The request log stores each record under its operation's path: `/v1/resolve` (the JSON, the picture
        /// and `/v1/resolve/svg` alike) or `/v1/resolve/matrix`.
        public init(recordedPath path: String) { self = path == Operation.matrixPath ? .matrix : .resolve }

        public static let resolvePath = "/v1/resolve"
        public static let matrixPath = "/v1/resolve/matrix"
        public var recordedPath: String { self == .matrix ? Operation.matrixPath : Operation.resolvePath }
    }

    /// Resolves a recorded request again, as the operation that recorded it.
    public static func run(
        _ operation: Operation, requestBody: [UInt8], catalog: any DeviceCatalog,
        constantSets: ConstantSetContext = ConstantSetContext()
    ) -> ResolveOutput {
        switch operation {
        case .matrix: Matrix.resolve(body: requestBody, catalog: catalog, constantSets: constantSets).output
        case .resolve: Resolver.resolve(body: requestBody, catalog: catalog, constantSets: constantSets)
        }
    }

    /// Every leaf where `before` and `after` differ, by JSON pointer; a member or element present on one
    /// side only shows `null` on the other.
    public static func differences(_ before: JSONValue, _ after: JSONValue) -> [Difference] {
        var out: [Difference] = []
        diff(before, after, at: .root, into: &out)
        return out
    }

    private static func diff(_ a: JSONValue, _ b: JSONValue, at path: JSONPointer, into out: inout [Difference]) {
        if out.count >= maxDifferences || a == b { return }
        switch (a, b) {
        case (.object(let x), .object(let y)):
            let keys = Set(x.keys).union(y.keys).sorted()
            for k in keys { diff(x[k] ?? .null, y[k] ?? .null, at: path.appending(k), into: &out) }
        case (.array(let x), .array(let y)):
            for i in 0..<max(x.count, y.count) {
                diff(i < x.count ? x[i] : .null, i < y.count ? y[i] : .null, at: path.appending(i), into: &out)
            }
        default:
            out.append(Difference(path: path, before: a, after: b))
        }
    }
}
