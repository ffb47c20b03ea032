import ArgumentScanning
import JSON
import LayoutEngine
import Resolving

/// What `hinge constant-sets create` makes (docs/api.md#constant-sets): the body of
/// `POST /v1/constant-sets/{name}/versions`, so the database and a server check the same JSON.
public struct ConstantSetCreation: Sendable, Equatable {
    public struct Assignment: Sendable, Equatable {
        public var key: String
        public var value: Double
    }

    public var basedOn: String?
    /// In the order given; a key given twice keeps its last value.
    public var constants: [Assignment] = []
    public var note: String?

    public init() {}

    /// `--based-on default|NAME@N`.
    mutating func base(on value: String) throws(UsageError) {
        guard let ref = ConstantSetReference(value), ref.isDefault || ref.version != nil else {
            throw UsageError("--based-on must be default or NAME@N, got '\(TerminalText.escaped(value))'")
        }
        basedOn = ref.description
    }

    /// `--set KEY=NUMBER`; a key given again replaces its earlier value.
    mutating func assign(_ value: String) throws(UsageError) {
        guard let eq = value.firstIndex(of: "="), eq != value.startIndex,
            let number = Double(value[value.index(after: eq)...]), number.isFinite
        else {
            throw UsageError("--set must be KEY=NUMBER (e.g. sheet.topGap=12), got '\(TerminalText.escaped(value))'")
        }
        let key = String(value[..<eq])
        constants.removeAll { $0.key == key }
        constants.append(Assignment(key: key, value: number))
    }

    /// `{"basedOn", "constants", "note"}`.
    public var body: [UInt8] {
        var root = JSONObject()
        if let basedOn { root.members.append(JSONMember("basedOn", .string(basedOn))) }
        root.members.append(
            JSONMember("constants", .object(JSONObject(constants.map { JSONMember($0.key, .number($0.value)) }))))
        if let note { root.members.append(JSONMember("note", .string(note))) }
        return JSONWriter.encode(.object(root))
    }
}

extension ConstantSetsCommandRunner {
    /// `create --server`: the body posted to the server, its answer printed as the database's would be.
    static func create(_ name: String, _ creation: ConstantSetCreation, server: String, apiKey: String?)
        -> CommandOutput
    {
        guard let post = ServerPost(url: server) else {
            return .failure("hinge constant-sets: --server must be http://host[:port]")
        }
        var headers = [("Content-Type", "application/json"), ("Accept", "application/json")]
        if let apiKey { headers.append(("Authorization", "Bearer \(apiKey)")) }
        switch post.post("/v1/constant-sets/\(name)/versions", body: creation.body, headers: headers) {
        case .failure(let error): return .failure("hinge constant-sets: \(error)")
        case .success(let answer) where answer.status == 201:
            let v = try? JSONParser.parse(answer.body)
            let reference = v.flatMap { v in
                v["name"]?.stringValue.flatMap { n in v["version"]?.doubleValue.map { "\(n)@\(Int($0))" } }
            }
            return CommandOutput(
                exitCode: 0,
                stdout: Array("created \(reference ?? name) \(answer.header("ETag") ?? "")\n".utf8))
        case .success(let answer):
            if answer.header("Content-Type")?.contains("json") == true { return problemOutput(answer.body) }
            return .failure("hinge constant-sets: the server answered \(answer.status)")
        }
    }
}
